package dev.nona.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Worked examples by hand: a fast server (4 ops/s) and a slow one (1 op/s), requests of fixed size (so every class is
 * an M/D/1 queue: $W = u s / (2(1 - u))$), each sent where its marginal cost $W_c + s + \min(\bar n_c s, W_c)$ is
 * least. A class a type leaves keeps a remnant of $(4 f_0 + m)/(R + 4)$ of it
 * after the $R$ rounds ({@link LeastExpectedFinish#ROUNDS}; $f_0$ its first share, $m$ the rounds it was the type's
 * best), so a finish is checked to 0.5%, or 2% where the type went back and forth early.
 */
final class LeastExpectedFinishTest {
    private static final int[] COUNTS = {1, 1};
    private static final double[] SPEEDS = {4, 1};
    private static final boolean[] BOTH = {true, true};

    @Test
    void workedExample_aRequestWaitsForTheFastServer_ratherThanTakeTheIdleSlowOne() {
        // 2 requests/s of 1 op: all on the fast server, u = 0.5, s = 0.25: W = 0.5 * 0.25 / (2 * 0.5) = 0.125,
        // n = 2 * 0.375 = 0.75; its marginal cost 0.125 + 0.25 + min(0.1875, 0.125) = 0.5 < 1 (the slow server, idle),
        // so none goes there
        LeastExpectedFinish.Routing r = LeastExpectedFinish.route(COUNTS, SPEEDS, new double[] {2}, new double[] {1},
                new boolean[][] {BOTH});
        assertThat(r.typeWait()[0]).isCloseTo(0.125, withinPercentage(0.5));
        assertThat(r.typeSpeed()[0]).isCloseTo(4, withinPercentage(0.5));
        assertThat(r.classUtilisation()[0]).isCloseTo(0.5, withinPercentage(0.3));
        assertThat(r.classUtilisation()[1]).isLessThan(0.003 * 2);
    }

    /**
     * The idle gate's probabilities, by hand: class b all busy with $\pi_b = 0.5$, two slower classes it may take
     * with $\pi = 0.4$ and $0.8$. At once on b: 0.5; on the first: 0.5 * 0.6 = 0.3; on the second: 0.5 * 0.4 * 0.2 =
     * 0.04; on b after a wait: 0.5 * 0.4 * 0.8 = 0.16.
     */
    @Test
    void divert_workedExample() {
        double[] q = new double[3];
        double wait = LeastExpectedFinish.divert(0, new double[] {0.5, 0.4, 0.8}, new int[] {1, 2}, 2, q);
        assertThat(wait).isCloseTo(0.16, within(1e-12));
        assertThat(q[0]).isCloseTo(0.5 + 0.16, within(1e-12));
        assertThat(q[1]).isCloseTo(0.3, within(1e-12));
        assertThat(q[2]).isCloseTo(0.04, within(1e-12));
    }

    /**
     * The gate's fixed point by hand, on the first example's servers and load (2 requests/s of 1 op, s = 0.25 s fast,
     * 1 s slow). One server per class, so $\pi$ is each one's utilisation. With $\kappa = 2$ a request that finds
     * the fast one busy (probability x) takes the slow one when idle (1 - y): y = 2x(1 - y) and x = 0.25 (2(1 - x) +
     * 2xy), so 2x^2 + 0.5x - 0.5 = 0: x = 0.3904, y = 2x/(1 + 2x) = 0.4385. Its cost there, W/x = 0.2050 (M/D/1: W =
     * 0.3904 * 0.25 / (2 * 0.6096) = 0.0801) + 0.25 + min(0.515 * 0.25, 0.2050) = 0.584 s, is over 1/2 s: the slow
     * server's 1 s is within 2 times it. Mean wait xy W/x = 0.0351 s; time per op (1 - x)/4 + x(1 - y)/1 + xy/4 =
     * 0.4144 s: speed 2.413. The request takes 0.0351 + 0.4144 = 0.4495 s against 0.375 s without the gate (the
     * optimiser would keep none here). With $\kappa = 1.25$ nothing is diverted: without it the fast server's cost
     * is W/u = 0.25 + 0.25 + min(0.75 * 0.25, 0.25) = 0.6875 s, and 1.25 times that, 0.86 s, is under the slow 1 s.
     */
    @Test
    void workedExample_theIdleGate_divertsWhenTheFastServerIsBusy_andTheSlowOneIdle() {
        LeastExpectedFinish.Routing r = LeastExpectedFinish.route(COUNTS, SPEEDS, new double[] {2}, new double[] {1},
                new boolean[][] {BOTH}, 2);
        assertThat(r.classUtilisation()[0]).isCloseTo(0.3904, withinPercentage(1));
        assertThat(r.classUtilisation()[1]).isCloseTo(0.4385, withinPercentage(1));
        assertThat(r.typeWait()[0]).isCloseTo(0.0351, withinPercentage(1.5));
        assertThat(r.typeSpeed()[0]).isCloseTo(2.413, withinPercentage(1));
        assertThat(LeastExpectedFinish.meanSeconds(r, new double[] {2}, new double[] {1})).isCloseTo(0.4495,
                withinPercentage(1));

        LeastExpectedFinish.Routing narrow = LeastExpectedFinish.route(COUNTS, SPEEDS, new double[] {2},
                new double[] {1}, new boolean[][] {BOTH}, 1.25);
        assertThat(narrow.classUtilisation()[1]).isLessThan(0.003 * 2);
        // the gated rounds' waits are of the flows averaged over the rounds, whose early rounds sent a fifth of the
        // requests to the slow server: u = 0.4985 here, not 0.5, and W 0.6% under 0.125
        assertThat(narrow.typeWait()[0]).isCloseTo(0.125, withinPercentage(1));
    }

    @Test
    void theIdleGate_onOneSpeed_isTheRoutingWithoutIt() {
        int[] counts = {3, 5};
        double[] speeds = {2, 2};
        double[] rates = {1.5, 2.5};
        double[] ops = {1, 0.5};
        boolean[][] feasible = {{true, false}, {true, true}};
        LeastExpectedFinish.Routing without = LeastExpectedFinish.route(counts, speeds, rates, ops, feasible);
        LeastExpectedFinish.Routing with = LeastExpectedFinish.route(counts, speeds, rates, ops, feasible, 4);
        assertThat(with.typeWait()).containsExactly(without.typeWait());
        assertThat(with.typeSpeed()).containsExactly(without.typeSpeed());
    }

    @Test
    void workedExample_theRequestSizeDecides_smallOnesTakeTheSlowServer() {
        // add 2 requests/s of 0.05 ops: on the fast server they would cost at least 0.125 + 0.0125, on the slow one
        // 0.05 plus its M/D/1 wait at u = 0.1, s = 0.05, 0.1 * 0.05 / (2 * 0.9) = 1/360, plus at most that wait again;
        // the large ones keep the fast
        LeastExpectedFinish.Routing r = LeastExpectedFinish.route(COUNTS, SPEEDS, new double[] {2, 2},
                new double[] {1, 0.05}, new boolean[][] {BOTH, BOTH});
        assertThat(r.typeWait()[0] + 1 / r.typeSpeed()[0]).isCloseTo(0.375, withinPercentage(0.5));
        assertThat(r.typeWait()[1] + 0.05 / r.typeSpeed()[1]).isCloseTo(0.05 + 1.0 / 360, withinPercentage(2));
        assertThat(r.classUtilisation()[1]).as("the slow server: the small requests only").isCloseTo(0.1, withinPercentage(0.3));
    }

    @Test
    void workedExample_betweenTwoClasses_bothCostTheSame() {
        // 4 requests/s of 1 op overload the fast server alone; lambda_f of them go there: W_f = lambda_f/(8(4 - lambda_f)),
        // n_f = lambda_f (W_f + 1/4) (Little), the rest load the slow one to u_s = 4 - lambda_f: W_s = u_s/(2(1 - u_s)),
        // n_s = u_s (W_s + 1). At lambda_f = 3.5 both marginal costs are 2: fast 0.875 + 0.25 + min(3.9375/4, 0.875),
        // slow 0.5 + 1 + min(0.75, 0.5). The own finishes then differ, 1.125 s and 1.5 s, mean
        // (3.5 * 1.125 + 0.5 * 1.5)/4 = 1.171875 s: by the own finish alone (a Wardrop equilibrium) both would finish
        // at 1.34650 s, lambda_f = 3.59067 (by bisection): the requests that moved to the fast server would have
        // delayed those there by more than they gained
        LeastExpectedFinish.Routing r = LeastExpectedFinish.route(COUNTS, SPEEDS, new double[] {4}, new double[] {1},
                new boolean[][] {BOTH});
        assertThat(r.classUtilisation()[0] * 4).isCloseTo(3.5, within(2e-3));
        assertThat(r.classWait()[0]).isCloseTo(0.875, within(5e-3));
        assertThat(r.classWait()[1]).isCloseTo(0.5, within(5e-3));
        assertThat(r.typeWait()[0] + 1 / r.typeSpeed()[0]).isCloseTo(1.171875, within(5e-3));
    }

    @Test
    void aClassThatDoesNotHoldTheType_takesNone() {
        // the type fits only the slow server: M/D/1 at u = 0.5, s = 1: W = 0.5
        LeastExpectedFinish.Routing r = LeastExpectedFinish.route(COUNTS, SPEEDS, new double[] {0.5}, new double[] {1},
                new boolean[][] {{false, true}});
        assertThat(r.typeWait()[0]).isCloseTo(0.5, within(1e-12));
        assertThat(r.typeSpeed()[0]).isCloseTo(1, within(1e-12));
        assertThat(r.classUtilisation()[0]).isZero();
    }

    @Test
    void oneClass_isThePooledQueue() {
        LeastExpectedFinish.Routing r = LeastExpectedFinish.route(new int[] {5}, new double[] {2}, new double[] {3, 1},
                new double[] {2, 4}, new boolean[][] {{true}, {true}});
        // s = 1 and 2: sum lambda s = 5, sum lambda s^2 = 7, sum lambda = 4
        double w = PooledServers.waits(5, 5, 7, 4).mean();
        assertThat(r.typeWait()).containsExactly(new double[] {w, w}, within(1e-12));
        assertThat(r.typeSpeed()).containsExactly(2, 2);
    }

    @Test
    void route_isTheFictitiousPlayOfTheClassComment_toRounding() {
        // against the rounds written out plainly (every share of every type moved by eta each round, every class's
        // sums recomputed from scratch): the route keeps counts of picks and the shares' closed form instead, equal
        // in exact arithmetic; the two orders of rounding differ by a few ulps per round, 2e-13 after 2000 rounds
        // (a pick that flipped on such a difference would move a share by 1/2004: far outside this bound)
        SplittableRandom random = new SplittableRandom(7);
        for (int trial = 0; trial < 40; trial++) {
            int n = 1 + random.nextInt(6);
            int k = 1 + random.nextInt(30);
            int[] counts = new int[n];
            double[] speeds = new double[n];
            double capacity = 0;
            for (int c = 0; c < n; c++) {
                counts[c] = 1 + random.nextInt(40);
                speeds[c] = Math.pow(10, random.nextDouble(-1, 2));
                capacity += counts[c] * speeds[c];
            }
            double load = random.nextDouble(0.05, 1.2); // some trials overload a class
            double[] rates = new double[k];
            double[] ops = new double[k];
            boolean[][] feasible = new boolean[k][n];
            double work = 0;
            for (int i = 0; i < k; i++) {
                rates[i] = random.nextDouble(0.01, 5);
                ops[i] = Math.pow(10, random.nextDouble(-1, 1.5));
                work += rates[i] * ops[i];
                int always = random.nextInt(n);
                for (int c = 0; c < n; c++) {
                    feasible[i][c] = c == always || random.nextDouble() < 0.6;
                }
            }
            for (int i = 0; i < k; i++) {
                rates[i] *= load * capacity / work;
            }
            LeastExpectedFinish.Routing r = LeastExpectedFinish.route(counts, speeds, rates, ops, feasible);
            LeastExpectedFinish.Routing plain = plainRoute(counts, speeds, rates, ops, feasible);
            assertCloseRelative(r.typeWait(), plain.typeWait(), "type wait, trial " + trial);
            assertCloseRelative(r.typeSpeed(), plain.typeSpeed(), "type speed, trial " + trial);
            assertCloseRelative(r.classWait(), plain.classWait(), "class wait, trial " + trial);
            assertCloseRelative(r.classUtilisation(), plain.classUtilisation(), "utilisation, trial " + trial);
        }
    }

    private static void assertCloseRelative(double[] actual, double[] expected, String what) {
        assertThat(actual).as(what).hasSameSizeAs(expected);
        for (int i = 0; i < expected.length; i++) {
            if (Double.isInfinite(expected[i]) || expected[i] == 0) {
                assertThat(actual[i]).as("%s [%d]", what, i).isEqualTo(expected[i]);
            } else {
                assertThat(actual[i]).as("%s [%d]", what, i).isCloseTo(expected[i], within(1e-9 * Math.abs(expected[i])));
            }
        }
    }

    /**
     * The class comment's rounds, plainly: every round, every class's sums from every type's shares, and each type's
     * best class by its marginal cost written out.
     */
    private static LeastExpectedFinish.Routing plainRoute(int[] counts, double[] speeds, double[] rates, double[] ops,
            boolean[][] feasible) {
        int n = counts.length;
        int k = rates.length;
        double[][] f = new double[k][n];
        for (int i = 0; i < k; i++) {
            double capacity = 0;
            for (int c = 0; c < n; c++) {
                capacity += feasible[i][c] ? counts[c] * speeds[c] : 0;
            }
            for (int c = 0; c < n; c++) {
                f[i][c] = feasible[i][c] ? counts[c] * speeds[c] / capacity : 0;
            }
        }
        double[] w = new double[n];
        double[] u = new double[n];
        double[] held = new double[n];
        for (int round = 0; round <= LeastExpectedFinish.ROUNDS; round++) {
            for (int c = 0; c < n; c++) {
                double lambda = 0;
                double lambdaS = 0;
                double lambdaS2 = 0;
                for (int i = 0; i < k; i++) {
                    double r = rates[i] * f[i][c];
                    double s = ops[i] / speeds[c];
                    lambda += r;
                    lambdaS += r * s;
                    lambdaS2 += r * s * s;
                }
                w[c] = PooledServers.waits(counts[c], lambdaS, lambdaS2, lambda).mean();
                u[c] = lambdaS / counts[c];
                held[c] = (lambdaS + lambda * w[c]) / counts[c];
            }
            if (round == LeastExpectedFinish.ROUNDS) {
                break;
            }
            double eta = 1.0 / (round + 5);
            for (int i = 0; i < k; i++) {
                int best = -1;
                double bestT = Double.POSITIVE_INFINITY;
                for (int c = 0; c < n; c++) {
                    double s = ops[i] / speeds[c];
                    double t = w[c] + s + Math.min(held[c] * s, w[c]);
                    if (feasible[i][c] && (best < 0 || t < bestT)) {
                        best = c;
                        bestT = t;
                    }
                }
                for (int c = 0; c < n; c++) {
                    f[i][c] = (1 - eta) * f[i][c] + (c == best ? eta : 0);
                }
            }
        }
        double[] wait = new double[k];
        double[] speed = new double[k];
        for (int i = 0; i < k; i++) {
            for (int c = 0; c < n; c++) {
                if (f[i][c] > 0) {
                    wait[i] += f[i][c] * w[c];
                    speed[i] += f[i][c] / speeds[c];
                }
            }
            speed[i] = 1 / speed[i];
        }
        return new LeastExpectedFinish.Routing(wait, speed, w, u);
    }
}
