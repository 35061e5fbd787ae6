package dev.nona.queueing;

import org.apache.commons.math3.special.Gamma;

/**
 * The servers as one pooled queue, our model of the controller's mapping (beyond the Nona paper). The controller
 * sends each part of a request to the server with the least predicted work left ({@code ServerLedger}). Dispatching
 * every arrival to the server with the Least Work Left is equivalent to one central first-come-first-served queue
 * feeding the $N$ servers, an M/G/N queue (M. Harchol-Balter, <i>Performance Modeling and Design of Computer
 * Systems</i>, Cambridge University Press, 2013, Ch. 24.2). Its customers are the requests (each the work of its
 * tasks, $S = \sum_t p^t/\nu$) and the background compute jobs.
 *
 * <p>Stateless and thread-safe.
 */
public final class PooledServers {
    private PooledServers() {}

    /**
     * The Erlang C formula: the probability that an arrival to an M/M/N queue with offered load $a = \lambda
     * E[S]$ (in servers) waits, $C(N, a) = \frac{B(N, a)}{1 - \frac{a}{N}(1 - B(N, a))}$, with the Erlang B blocking
     * probability from the stable recursion $B(0, a) = 1$, $B(k, a) = \frac{a B(k-1, a)}{k + a B(k-1, a)}$
     * (Harchol-Balter 2013, Ch. 14.5; the recursion: Jagerman 1974). $O(N)$; less at a light load, where $B(k, a)$
     * underflows to 0 before $k = N$ (and stays 0).
     *
     * @param servers $N \ge 1$
     * @param offered $a \ge 0$
     * @return $C(N, a)$ in $[0, 1]$; 1 when $a \ge N$
     */
    public static double erlangC(int servers, double offered) {
        if (servers < 1) {
            throw new IllegalArgumentException("servers (" + servers + ") must be >= 1");
        }
        if (!(offered >= 0)) {
            throw new IllegalArgumentException("offered load (" + offered + ") must be >= 0");
        }
        if (offered >= servers) {
            return 1;
        }
        double b = 1;
        for (int k = 1; k <= servers && b > 0; k++) { // once B underflows to 0 it stays 0: the rest changes nothing
            b = offered * b / (k + offered * b);
        }
        double u = offered / servers;
        return b / (1 - u * (1 - b));
    }

    /**
     * The wait of a customer of the pooled M/G/N queue by the Allen&ndash;Cunneen (Lee&ndash;Longton) approximation:
     * $$W_q(M/G/N) \approx \frac{1 + C_s^2}{2}\,W_q(M/M/N), \qquad W_q(M/M/N) = C(N, a)\,\frac{E[S]}{N(1-u)},$$
     * with $a = \lambda E[S]$, $u = a/N$ and $C_s^2 = E[S^2]/E[S]^2 - 1$ (A. M. Lee, P. A. Longton, "Queueing
     * processes associated with airline passenger check-in", Operational Research Quarterly 10, 1959; A. O. Allen,
     * <i>Probability, Statistics, and Queueing Theory</i>, 2nd ed., Academic Press, 1990, Ch. 6). As in M/M/N, a
     * customer waits with probability $P = C(N, a)$, and then for an exponential time of mean
     * $m = \frac{1 + C_s^2}{2}\frac{E[S]}{N(1-u)}$.
     *
     * @param servers            $N \ge 1$
     * @param sumLambdaS         $\sum_k \lambda_k s_k$ over every customer class (s of work per s)
     * @param sumLambdaS2        $\sum_k \lambda_k s_k^2$
     * @param sumLambda          $\sum_k \lambda_k$ (customers per s)
     * @return no wait when nothing arrives; $m = +\infty$ when $u \ge 1$
     */
    public static PooledWait waits(int servers, double sumLambdaS, double sumLambdaS2, double sumLambda) {
        if (servers < 1) {
            throw new IllegalArgumentException("servers (" + servers + ") must be >= 1");
        }
        if (!(sumLambda >= 0 && sumLambdaS >= 0 && sumLambdaS2 >= 0)) {
            throw new IllegalArgumentException("rates and moments (" + sumLambda + ", " + sumLambdaS + ", " + sumLambdaS2
                    + ") must be >= 0");
        }
        if (sumLambda == 0 || sumLambdaS == 0) {
            return PooledWait.NONE;
        }
        double meanS = sumLambdaS / sumLambda;
        double u = sumLambdaS / servers;
        if (!(u < 1)) {
            return new PooledWait(1, Double.POSITIVE_INFINITY);
        }
        double scv = Math.max(0, (sumLambdaS2 / sumLambda) / (meanS * meanS) - 1);
        double c = erlangC(servers, sumLambdaS);
        return new PooledWait(c, (1 + scv) / 2 * meanS / (servers * (1 - u)));
    }

    /**
     * The expected completion of a fork&ndash;join: $E[\max(d, \max_i (a_i + Y_i))]$ for deterministic times $d$ and
     * $a_i$ and independent waits $Y_i$ distributed as {@code wait} (0 with probability $1 - P$, else exponential of
     * mean $m$). With $a^* = \max(d, \max_i a_i)$ and $c_i = P e^{-(a^* - a_i)/m}$, every factor of
     * $P(\max \le a^* + x) = \prod_i (1 - c_i e^{-x/m})$ is in its exponential branch, so
     * $$E[\max] = a^* + \int_0^\infty \Big(1 - \prod_i (1 - c_i e^{-x/m})\Big) dx
     * = a^* + m \sum_{j \ge 1} \frac{(-1)^{j+1}}{j}\, e_j(c_1, \dots, c_k),$$
     * $e_j$ the elementary symmetric polynomials (expand the product; $\int_0^\infty e^{-jx/m}dx = m/j$). One part:
     * $a_1 + P m$; two equal parts with $P = 1$: $a + \frac32 m$ (the maximum of two exponentials). Non-decreasing
     * in $d$ and every $a_i$. $O(k^2)$.
     *
     * @param d       the deterministic branch (s)
     * @param a       the random branches' times before their waits (s), entries {@code [0, count)}
     * @param count   number of random branches
     * @param wait    their wait, finite
     * @param scratch at least {@code count + 1} entries, overwritten
     */
    public static double expectedMax(double d, double[] a, int count, PooledWait wait, double[] scratch) {
        double top = d;
        for (int i = 0; i < count; i++) {
            top = Math.max(top, a[i]);
        }
        double p = wait.probability();
        double m = wait.conditionalMean();
        if (count == 0 || p == 0 || m == 0) {
            return top;
        }
        double[] e = scratch;
        e[0] = 1;
        for (int j = 1; j <= count; j++) {
            e[j] = 0;
        }
        for (int i = 0; i < count; i++) {
            double c = p * Math.exp(-(top - a[i]) / m);
            for (int j = i + 1; j >= 1; j--) {
                e[j] += e[j - 1] * c;
            }
        }
        double sum = 0;
        for (int j = 1; j <= count; j++) {
            sum += ((j & 1) == 1 ? e[j] : -e[j]) / j;
        }
        return top + m * Math.max(0, sum);
    }

    /**
     * The probability that a remote part's server has been taken by another request before the part arrives (our
     * approximation of the controller's mapping). The ledger picks the part's server when the request arrives: among
     * the idle servers, the one idle longest; it then predicts the part's work to drain from that moment and ranks the
     * server behind the other idle ones, $I$ of them. Requests take idle servers least-recently-used first, so the
     * server is taken again at the $I$-th next arrival; the part arrives after $\Delta$. With Poisson arrivals of rate
     * $\lambda$ (so $A \sim \mathrm{Poisson}(\lambda\Delta)$ arrivals meanwhile) and the busy servers $B = N - I$
     * of an M/G/N queue with many servers, $B \sim \mathrm{Poisson}(a)$, $a = Nu$ (the M/G/$\infty$ law, ignoring
     * the truncation at $N$): the server is taken when $A \ge N - B$, i.e. $A + B \ge N$, and $A + B$ is Poisson:
     * $$P = P(\mathrm{Poisson}(a + \lambda\Delta) \ge N) = P(N, a + \lambda\Delta),$$
     * the regularised lower incomplete gamma function. About 0 at low load ($N = 80$, $u = 0.1$, $\lambda\Delta
     * \approx 9$: $P(\mathrm{Poisson}(17) \ge 80) \approx 10^{-25}$), near 1 where few servers are idle.
     *
     * @param delaySeconds $\Delta \ge 0$
     * @param servers      $N \ge 1$
     * @param u            the server utilisation
     * @param requestRate  $\lambda$, requests per second
     */
    public static double reuseProbability(double delaySeconds, int servers, double u, double requestRate) {
        if (!(u < 1)) {
            return 1;
        }
        double mean = servers * u + (requestRate > 0 && delaySeconds > 0 ? requestRate * delaySeconds : 0);
        if (mean == 0) {
            return 0;
        }
        return Gamma.regularizedGammaP(servers, mean);
    }

    /**
     * The wait of a remote part's first task under the controller's mapping (our approximation): with probability
     * {@code reused} ({@link #reuseProbability}) its server runs another request's chain when it arrives, and it
     * waits for the residual of the running task, whose mean is $R/u$ with $R = \frac1N\sum_k \lambda_k s_k^2/2$ and
     * $u = \frac1N\sum_k\lambda_k s_k$ over every task (the mean residual of a task in service, by PASTA);
     * otherwise it waits nothing. The residual is taken as exponential.
     *
     * @param reused      the probability that the server is taken, in $[0, 1]$
     * @param sumLambdaS  $\sum_k \lambda_k s_k$ over every task (cluster-wide)
     * @param sumLambdaS2 $\sum_k \lambda_k s_k^2$ over every task
     * @param servers     $N \ge 1$
     */
    public static PooledWait remotePartWait(double reused, double sumLambdaS, double sumLambdaS2, int servers) {
        double u = ServerQueue.utilisation(sumLambdaS, servers);
        if (!(u < 1)) {
            return new PooledWait(1, Double.POSITIVE_INFINITY);
        }
        if (u == 0 || reused == 0) {
            return PooledWait.NONE;
        }
        return new PooledWait(reused, sumLambdaS2 / servers / 2 / u);
    }

    /**
     * The re-entry stretch $f$ of a remote part's further tasks (and of a sink on its server) under the controller's
     * mapping: with probability {@code reused} the part shares its server with another request's chain and, both
     * re-entering the FIFO queue after each task, their tasks alternate, so each of the part's tasks waits about one
     * task of the other chain, taken as its own size ($f = 1$); otherwise it runs alone ($f = 0$). The ledger's
     * target of ongoing requests keeps a server to one or two chains, not the processor-sharing crowd of the uniform
     * mapping's $u/(1-u)$.
     */
    public static double remoteStretch(double reused) {
        return reused;
    }
}
