package dev.nona.queueing;

import java.util.Arrays;

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
    /** The idle gates $\kappa$ the optimiser weighs against the rule without one ({@code CompiledProblem}). */
    public static final double[] GATES = {2, 4};
    /**
     * Types times classes squared beyond which the optimiser does not weigh the gates: a gated round costs
     * $O(k n^2)$, so 100,000 is about 0.2 s for the {@value #ROUNDS} rounds.
     */
    public static final long GATED_SIZE = 100_000;

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
        return route(counts, speeds, rates, ops, feasible, 0);
    }

    /**
     * As {@link #route(int[], double[], double[], double[], boolean[][])}, under the placement rule's idle gate
     * $\kappa$ ({@code kappa}; 0: no gate, the routing above exactly). With a gate, a request that finds every
     * server of its class $b$ busy takes an idle server of a slower class $c$ that holds it when its compute time
     * there is at most $\kappa$ times its marginal cost at $b$, $s_{ic} \le \kappa\,C(W_b/\pi_b, \bar n_b, s_{ib})$
     * ({@link MarginalCost}; $W_b/\pi_b$ the wait of a request that waits). Class $c$ has an idle server with
     * probability $1 - \pi_c$, $\pi_c$ the Erlang C probability of its pooled queue ({@link PooledServers#erlangC})
     * at the work it is sent. Trying the eligible classes from the fastest, a request of type $i$ and class $b$
     * computes at once on $b$ with probability $1 - \pi_b$, on eligible $c$ with probability
     * $\pi_b \prod_{c' \text{ before } c} \pi_{c'} (1 - \pi_c)$, and otherwise waits $W_b/\pi_b$ at $b$. The
     * classes' waits, $\pi_c$ and $\bar n_c$ come from the work each class is sent, averaged over the rounds as the
     * shares are ($1/(r + 5)$ a round). With only $\pi_c$ averaged, the waits of the latest round swung and the
     * prediction with them (on {@code examples/hetero.json} at loads 0.5 and 0.7 with $\kappa = 2$, 62% and 37%
     * above the simulated mean).
     * Deterministic, $O(R\,k\,n^2)$.
     */
    public static Routing route(int[] counts, double[] speeds, double[] rates, double[] ops, boolean[][] feasible,
            double kappa) {
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
        if (kappa > 0 && Arrays.stream(speeds).distinct().count() > 1) {
            return diverted(counts, speeds, rates, feasible, kappa, f0, service, compute, firstFeasible);
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
     * Where a request of class {@code b} computes under the idle gate ({@link #route(int[], double[], double[],
     * double[], boolean[][], double)}): adds to {@code q[c]} the probability that it computes on class $c$, at once
     * on $b$ ($1 - \pi_b$), on the slower classes it may take, {@code eligible[0..m)} from the fastest, when $b$ is
     * all busy and they are not ($\pi_b \prod_{c' \text{ before } c} \pi_{c'} (1 - \pi_c)$), and on $b$ after a
     * wait; returns the probability of that wait, $\pi_b \prod_{c \in E} \pi_c$.
     */
    static double divert(int b, double[] pi, int[] eligible, int m, double[] q) {
        q[b] += 1 - pi[b];
        double rest = pi[b];
        for (int j = 0; j < m; j++) {
            int c = eligible[j];
            q[c] += rest * (1 - pi[c]);
            rest *= pi[c];
        }
        q[b] += rest;
        return rest;
    }

    /** The mean of the types' times, $\sum_i \lambda_i (\bar W_i + p_i/\nu_{eff,i}) / \sum_i \lambda_i$ (NaN without requests). */
    public static double meanSeconds(Routing r, double[] rates, double[] ops) {
        double sum = 0;
        double rate = 0;
        for (int i = 0; i < rates.length; i++) {
            if (rates[i] > 0) {
                sum += rates[i] * (r.typeWait()[i] + ops[i] / r.typeSpeed()[i]);
                rate += rates[i];
            }
        }
        return sum / rate;
    }

    /** The rounds under idle gate {@code kappa} ({@link #route(int[], double[], double[], double[], boolean[][], double)}). */
    private static Routing diverted(int[] counts, double[] speeds, double[] rates, boolean[][] feasible, double kappa,
            double[] f0, double[] service, double[] compute, int[] firstFeasible) {
        int n = counts.length;
        int k = rates.length;
        Integer[] order = new Integer[n];
        for (int c = 0; c < n; c++) {
            order[c] = c;
        }
        Arrays.sort(order, (a, b) -> Double.compare(speeds[b], speeds[a]));
        int[] picks = new int[n * k];
        double[] w = new double[n];
        double[] pi = new double[n];
        double[] held = new double[n];
        double[] l0 = new double[n];
        double[] l1 = new double[n];
        double[] l2 = new double[n];
        double[] cond = new double[n];
        double[] a0 = new double[n];
        double[] a1 = new double[n];
        double[] a2 = new double[n];
        double[] q = new double[n];
        int[] eligible = new int[n];
        int[] best = new int[k];
        double[] bestT = new double[k];
        double[] wait = new double[k];
        double[] perOp = new double[k];
        for (int round = 0; round <= ROUNDS; round++) {
            Arrays.fill(l0, 0);
            Arrays.fill(l1, 0);
            Arrays.fill(l2, 0);
            for (int c = 0; c < n; c++) {
                cond[c] = pi[c] > 1e-12 ? w[c] / pi[c] : 0;
            }
            for (int i = 0; i < k; i++) {
                wait[i] = 0;
                perOp[i] = 0;
                for (int b = 0; b < n; b++) {
                    double share = afterRounds(round, f0[b * k + i], picks[b * k + i]);
                    if (share <= 0) {
                        continue;
                    }
                    double cost = MarginalCost.seconds(cond[b], held[b], service[b * k + i]);
                    int m = 0;
                    for (int o = 0; o < n; o++) {
                        int c = order[o];
                        if (feasible[i][c] && speeds[c] < speeds[b] && service[c * k + i] <= kappa * cost) {
                            eligible[m++] = c;
                        }
                    }
                    Arrays.fill(q, 0);
                    double rest = divert(b, pi, eligible, m, q);
                    double x = rates[i] * share;
                    for (int c = 0; c < n; c++) {
                        if (q[c] > 0) {
                            double sc = service[c * k + i];
                            l0[c] += x * q[c];
                            l1[c] += x * q[c] * sc;
                            l2[c] += x * q[c] * sc * sc;
                            perOp[i] += share * q[c] / speeds[c];
                        }
                    }
                    wait[i] += share * rest * cond[b];
                }
            }
            double damp = round == 0 ? 1 : 1.0 / (round + 5);
            for (int c = 0; c < n; c++) {
                a0[c] = (1 - damp) * a0[c] + damp * l0[c];
                a1[c] = (1 - damp) * a1[c] + damp * l1[c];
                a2[c] = (1 - damp) * a2[c] + damp * l2[c];
                w[c] = PooledServers.waits(counts[c], a1[c], a2[c], a0[c]).mean();
                double busy = a1[c];
                pi[c] = busy >= counts[c] ? 1 : PooledServers.erlangC(counts[c], busy);
                held[c] = (a1[c] + a0[c] * w[c]) / counts[c];
            }
            if (round == ROUNDS) {
                break;
            }
            pick(k, w, held, firstFeasible, compute, best, bestT);
            for (int i = 0; i < k; i++) {
                picks[best[i] * k + i]++;
            }
        }
        double[] speed = new double[k];
        double[] u = new double[n];
        for (int i = 0; i < k; i++) {
            speed[i] = 1 / perOp[i];
        }
        for (int c = 0; c < n; c++) {
            u[c] = l1[c] / counts[c];
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
