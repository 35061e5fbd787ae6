package dev.nona.queueing;

/**
 * Where the controller's least-expected-finish rule sends requests of several sizes on servers of several speed
 * classes, and what each request then waits and computes at (our model of the controller's mapping on a heterogeneous
 * cluster, beyond the Nona paper; docs/optimizer.md, "Per-class speed").
 *
 * <p>The controller sends a request to the server of least {@link MarginalCost marginal cost}
 * $B_s + p/\nu_s + \min(n_s p/\nu_s, B_s)$ among those that hold it ({@code LiveServers.Rule.EXPECTED_FINISH}): a
 * large request waits for a fast server when its backlog costs less than the speed lost on a slower idle one, a small
 * request takes the slower one. So where a request computes depends on its size $p$. Model: each class $c$ ($N_c$
 * servers of speed $\nu_c$) is a pooled M/G/$N_c$ queue of the requests routed to it, with the mean wait $W_c$ of the
 * Allen&ndash;Cunneen approximation ({@link PooledServers#waits}, service times $s_{ic} = p_i/\nu_c$) and
 * $\bar n_c = \lambda_c (W_c + \bar s_c)/N_c$ requests per server (Little's law; $\lambda_c \bar s_c = \sum_i
 * \lambda_i f_{ic} s_{ic}$); a request type $i$ (rate $\lambda_i$, $p_i$ operations, feasible classes $F_i$) goes to
 * the classes of least marginal cost at the class's means,
 * $$c^*_i = \arg\min_{c \in F_i} \big(W_c + s_{ic} + \min(\bar n_c s_{ic},\ W_c)\big),$$
 * and the waits are those of the loads this routing sends: a fixed point (an equilibrium of these picks: at it, no
 * type lowers its marginal cost by moving its requests; a type split between classes costs the same on each; with the
 * own finish $W_c + s_{ic}$ alone it is a Wardrop equilibrium, and the model over-predicted the controller by up to
 * 21% once it picked by marginal cost, {@code hetero} at load 0.7). Found by fictitious play:
 * from the routing in proportion to the feasible classes' capacities $N_c\nu_c$, round $r = 0, 1, \dots$ moves a share
 * $\eta_r = 1/(r + 5)$ of every type's requests to its best class of the round, for $R$ = {@value #ROUNDS} rounds. A
 * class a type left keeps a remnant of $(4 f_0 + m)/(R + 4)$ of it ($f_0$ its first share, $m$ the rounds it was the
 * type's best: after $r$ rounds every share is $(4 f_0 + m)/(r + 4)$, since $(1 - \eta_r)/(r + 4) = 1/(r + 5)$): 0.2%
 * to a few percent. The rounds keep the counts $m$, not the shares, so a round adds each type's pick to its class's
 * sums in $O(k)$. (Dropping the remnants of the classes more than 1% slower for a type was tried: at {@code hetero}
 * loads 0.7&ndash;0.9 it pushed the fast class to $u \ge 1$ and the predictions to $+123\%$ and $+\infty$.) With routing fractions $f_{ic}$, type $i$ waits
 * $\sum_c f_{ic} W_c$ and computes at $\nu_{eff,i} = 1/\sum_c (f_{ic}/\nu_c)$:
 * $$E[T_i] = \sum_c f_{ic}\,\big(W_c + p_i/\nu_c\big).$$
 * With one speed class it is one M/G/N queue: no wait at low load, that speed exactly. Deterministic, $O(R \cdot
 * (n k + \sum_c N_c))$ for $R$ rounds, $k$ types and $n$ classes. Stateless and thread-safe.
 */
public final class LeastExpectedFinish {
    /** Rounds of fictitious play. */
    static final int ROUNDS = 2000;

    private LeastExpectedFinish() {}

    /**
     * The routing's outcome per type: its mean wait $\sum_c f_{ic}W_c$ (s) and its effective speed
     * $1/\sum_c f_{ic}\nu_c^{-1}$ (ops/s); per class, $W_c$ and the utilisation the routing gives it.
     */
    public record Routing(double[] typeWait, double[] typeSpeed, double[] classWait, double[] classUtilisation) {}

    /**
     * The equilibrium of the class comment.
     *
     * @param counts   $N_c$ per class, each $\ge 1$
     * @param speeds   $\nu_c$ per class (ops/s), finite and $> 0$
     * @param rates    $\lambda_i$ per type (per second), $\ge 0$
     * @param ops      $p_i$ per type (operations), $> 0$
     * @param feasible per type, which classes hold it; each type at least one
     * @return per type an infinite wait when every class it may use is overloaded at the equilibrium
     */
    public static Routing route(int[] counts, double[] speeds, double[] rates, double[] ops, boolean[][] feasible) {
        int n = counts.length;
        int k = rates.length;
        if (speeds.length != n || ops.length != k || feasible.length != k || n == 0) {
            throw new IllegalArgumentException("counts (" + n + "), speeds (" + speeds.length + "), rates (" + k + "), ops ("
                    + ops.length + ") and feasible (" + feasible.length + ") do not match");
        }
        // class by class (the layout of the loops below): f0[c k + i] = f_{ic} before the first round,
        // service[c k + i] = s_ic = p_i / nu_c, and compute[c k + i] the same where type i may use class c, else
        // +infinity (no cost there beats another)
        double[] f0 = new double[n * k];
        double[] service = new double[n * k];
        double[] compute = new double[n * k];
        int[] firstFeasible = new int[k];
        for (int i = 0; i < k; i++) {
            if (feasible[i].length != n || !(rates[i] >= 0) || !(ops[i] > 0)) {
                throw new IllegalArgumentException("type " + i + ": rate (" + rates[i] + ") must be >= 0, ops (" + ops[i]
                        + ") > 0, and feasible name every class");
            }
            double capacity = 0;
            for (int c = 0; c < n; c++) {
                capacity += feasible[i][c] ? counts[c] * speeds[c] : 0;
            }
            if (!(capacity > 0)) {
                throw new IllegalArgumentException("type " + i + " has no feasible class");
            }
            firstFeasible[i] = -1;
            for (int c = 0; c < n; c++) {
                f0[c * k + i] = feasible[i][c] ? counts[c] * speeds[c] / capacity : 0;
                service[c * k + i] = ops[i] / speeds[c];
                compute[c * k + i] = feasible[i][c] ? service[c * k + i] : Double.POSITIVE_INFINITY;
                if (feasible[i][c] && firstFeasible[i] < 0) {
                    firstFeasible[i] = c;
                }
            }
        }
        // The shares in closed form: a round r (from 0) moves eta_r = 1/(r + 5) of every type to its best class, so
        // after r rounds f_ic = (4 f0_ic + m_ic)/(r + 4), m_ic the rounds of the r in which c was type i's best
        // ((1 - eta_r)(4 f0 + m)/(r + 4) = (4 f0 + m)/(r + 5)). A class's sums are then
        // (4 sum_i lambda_i f0_ic s_ic^j + sum_i lambda_i m_ic s_ic^j)/(r + 4), j = 0, 1, 2: the first sums once, the
        // second by adding each round's picks, O(k) a round instead of O(n k).
        double[] first0 = new double[n];
        double[] first1 = new double[n];
        double[] first2 = new double[n];
        for (int c = 0; c < n; c++) {
            for (int i = 0, at = c * k; i < k; i++, at++) {
                double r = rates[i] * f0[at];
                first0[c] += r;
                first1[c] += r * service[at];
                first2[c] += r * service[at] * service[at];
            }
        }
        double[] picked0 = new double[n];
        double[] picked1 = new double[n];
        double[] picked2 = new double[n];
        int[] picks = new int[n * k];
        double[] lambda = new double[n];
        double[] lambdaS = new double[n];
        double[] lambdaS2 = new double[n];
        double[] w = new double[n];
        double[] held = new double[n];
        int[] best = new int[k];
        double[] bestT = new double[k];
        for (int round = 0; round < ROUNDS; round++) {
            sums(round, first0, first1, first2, picked0, picked1, picked2, lambda, lambdaS, lambdaS2);
            classWaits(counts, lambda, lambdaS, lambdaS2, w, null);
            for (int c = 0; c < n; c++) {
                held[c] = (lambdaS[c] + lambda[c] * w[c]) / counts[c];
            }
            pick(k, w, held, firstFeasible, compute, best, bestT);
            for (int i = 0; i < k; i++) {
                int at = best[i] * k + i;
                picks[at]++;
                double r = rates[i];
                double rs = r * service[at];
                picked0[best[i]] += r;
                picked1[best[i]] += rs;
                picked2[best[i]] += rs * service[at];
            }
        }
        sums(ROUNDS, first0, first1, first2, picked0, picked1, picked2, lambda, lambdaS, lambdaS2);
        double[] u = new double[n];
        classWaits(counts, lambda, lambdaS, lambdaS2, w, u);
        double[] wait = new double[k];
        double[] speed = new double[k];
        for (int i = 0; i < k; i++) {
            double mean = 0;
            double perOp = 0;
            for (int c = 0; c < n; c++) {
                double share = afterRounds(ROUNDS, f0[c * k + i], picks[c * k + i]);
                if (share > 0) {
                    mean += share * w[c];
                    perOp += share / speeds[c];
                }
            }
            wait[i] = mean;
            speed[i] = 1 / perOp;
        }
        return new Routing(wait, speed, w, u);
    }

    /**
     * Each type's best class of the round: its first feasible class, then any class of a strictly lower cost, the
     * classes taken in increasing order (one it may not use costs +infinity: never lower).
     */
    private static void pick(int k, double[] w, double[] held, int[] firstFeasible, double[] compute, int[] best,
            double[] bestT) {
        for (int i = 0; i < k; i++) {
            best[i] = firstFeasible[i]; // kept if every feasible class costs +infinity, else replaced below
            bestT[i] = Double.POSITIVE_INFINITY;
        }
        for (int c = 0; c < w.length; c++) {
            double wc = w[c];
            double nc = held[c];
            for (int i = 0, at = c * k; i < k; i++, at++) {
                double t = MarginalCost.seconds(wc, nc, compute[at]); // +infinity where i may not use c
                if (t < bestT[i]) {
                    best[i] = c;
                    bestT[i] = t;
                }
            }
        }
    }

    /** After {@code round} rounds, each class's sums $\sum_i \lambda_i f_{ic} s_{ic}^j$, j = 0, 1, 2 (route's comment). */
    private static void sums(int round, double[] first0, double[] first1, double[] first2, double[] picked0,
            double[] picked1, double[] picked2, double[] lambda, double[] lambdaS, double[] lambdaS2) {
        for (int c = 0; c < lambda.length; c++) {
            lambda[c] = afterRounds(round, first0[c], picked0[c]);
            lambdaS[c] = afterRounds(round, first1[c], picked1[c]);
            lambdaS2[c] = afterRounds(round, first2[c], picked2[c]);
        }
    }

    /**
     * The closed form of the rounds: after {@code rounds} rounds a share is $(4 f_0 + m)/(r + 4)$, $f_0$ its first
     * value and $m$ the rounds it was picked; and so is any sum of shares weighted alike ({@code first} the weighted
     * first shares, {@code picked} the weights of the picks).
     */
    private static double afterRounds(int rounds, double first, double picked) {
        return (4 * first + picked) / (rounds + 4);
    }

    /** $W_c$ (mean, Allen&ndash;Cunneen) per class from its sums; also the utilisations when {@code u != null}. */
    private static void classWaits(int[] counts, double[] lambda, double[] lambdaS, double[] lambdaS2, double[] w,
            double[] u) {
        for (int c = 0; c < counts.length; c++) {
            w[c] = PooledServers.waits(counts[c], lambdaS[c], lambdaS2[c], lambda[c]).mean();
            if (u != null) {
                u[c] = lambdaS[c] / counts[c];
            }
        }
    }
}
