package dev.nona.optimize;

import java.util.ArrayList;
import java.util.List;

/**
 * Minimises Nona's objective (I), $\sum_j \beta_j \tau_j$, over every $\theta_t$ subject to (II)&ndash;(XII).
 *
 * <p><b>Method.</b> The triplets interact only through the link wait $\phi$, and every triplet's delay is
 * non-decreasing in $\phi$. So the optimum equals $\min_{\hat\phi} \mathrm{LP}(\hat\phi)$, where
 * $\mathrm{LP}(\hat\phi)$ minimises the objective with delays frozen at $\hat\phi$ subject to $\phi(\theta) \le
 * \hat\phi$ &mdash; a linear program with one coupling constraint, solved exactly by {@link ParametricLp}. The outer
 * problem is one-dimensional: a geometric grid over $\hat\phi$ between a lower bound on $\phi$ and the point past
 * which the constraint is slack (and the value can only grow), a golden-section refinement around the best grid
 * point, and a fixed-point polish $\hat\phi \leftarrow \phi(\theta)$ (each step can only lower the true objective,
 * since $\theta$ is feasible for $\mathrm{LP}(\phi(\theta))$ at its own value). Every candidate is scored by the
 * true objective at its own $\phi(\theta)$. The paper instead minimised a Lagrangian relaxation numerically
 * (Section IV-F).
 *
 * <p>Deterministic: no randomness, so the same problem always gives the same $\theta$. Cost: $O(C \cdot K)$ for $C$
 * triplets in all and $K \approx 10^4$ (grid points &times; bisection steps); independent of the number of
 * servers except that triplets with more parts than servers are dropped. Thread-safe (state is per call).
 *
 * <p>Based on: B. Pit-Claudel, D. Malak, A. Cohen, M. M&eacute;dard, M. Ghobadi, "Nona: A Stochastic
 * Congestion-Aware Job Scheduler for Real-Time Inference Queries", CloudNet 2024, Section III-C.
 */
public final class NonaOptimizer {
    /** Search effort. */
    public record Options(int gridPoints, int refineSteps, int polishSteps) {
        public static final Options DEFAULT = new Options(24, 16, 10);

        public Options {
            if (gridPoints < 2 || refineSteps < 0 || polishSteps < 0) {
                throw new IllegalArgumentException("options: gridPoints (" + gridPoints + ") must be >= 2, steps >= 0");
            }
        }
    }

    private static final double GOLDEN = (Math.sqrt(5) - 1) / 2;

    private NonaOptimizer() {}

    /** Solves with {@link Options#DEFAULT}. */
    public static Solution solve(NonaProblem problem) {
        return solve(problem, Options.DEFAULT);
    }

    /** Solves the problem; never throws for an infeasible load (see {@link Solution}). */
    public static Solution solve(NonaProblem problem, Options options) {
        long start = System.nanoTime();
        return new Search(new CompiledProblem(problem), options, start).run();
    }

    /**
     * Evaluates the objective at a given $\theta$: one array per subgraph, per job class in problem order, over the
     * subgraph's admissible triplets (its triplets needing at most $N$ servers, in order). Used to check solutions.
     */
    public static Solution evaluate(NonaProblem problem, List<List<double[]>> theta) {
        long start = System.nanoTime();
        CompiledProblem cp = new CompiledProblem(problem);
        double[] flat = new double[cp.choices()];
        for (int j = 0; j < problem.jobs().size(); j++) {
            for (int k = 0; k < problem.jobs().get(j).subgraphs().size(); k++) {
                int s = cp.firstSubgraph[j] + k;
                double[] t = theta.get(j).get(k);
                if (t.length != cp.first[s + 1] - cp.first[s]) {
                    throw new IllegalArgumentException("theta for job " + j + " subgraph " + k + " has " + t.length
                            + " entries, expected " + (cp.first[s + 1] - cp.first[s]));
                }
                System.arraycopy(t, 0, flat, cp.first[s], t.length);
            }
        }
        return new Search(cp, Options.DEFAULT, start).result(flat, 0);
    }

    /** One solve's state. */
    private static final class Search {
        private final CompiledProblem cp;
        private final Options options;
        private final long start;
        private final ParametricLp lp;
        private final double[] delay;
        private final double[] theta;
        private double[] best;
        private double bestObjective = Double.POSITIVE_INFINITY;
        private int iterations;

        Search(CompiledProblem cp, Options options, long start) {
            this.cp = cp;
            this.options = options;
            this.start = start;
            this.lp = new ParametricLp(cp);
            this.delay = new double[cp.choices()];
            this.theta = new double[cp.choices()];
        }

        Solution run() {
            double[] minCut = minCutTheta();
            double rhoMin = cp.rho(minCut);
            if (!(rhoMin < 1)) {
                return result(minCut, 0, "link overloaded: the smallest reachable link load is rho = " + rhoMin + " >= 1");
            }
            if (Double.isInfinite(cp.serverWait)) {
                return result(minCut, 0, "servers overloaded: utilisation u = " + cp.serverUtilisation + " >= 1");
            }
            double phiLo = (cp.m2Background + minSum(true)) / (2 * (1 - rhoMin));
            double largestS = 0;
            for (ChoiceCost c : cp.cost) {
                largestS = Math.max(largestS, c.cutSeconds);
            }
            largestS = Math.max(largestS, cp.backgroundS);
            try_(phiLo);
            if (largestS > 0) {
                double phiStart = Math.max(phiLo, 1e-9 * largestS);
                double phiHi = phiStart;
                for (int i = 0; i < 200; i++) {
                    if (try_(phiHi) && lp.unconstrained) {
                        break;
                    }
                    phiHi *= 2;
                }
                double[] grid = grid(phiStart, phiHi);
                double[] value = new double[grid.length];
                int bestIdx = 0;
                for (int i = 0; i < grid.length; i++) {
                    value[i] = score(grid[i]);
                    if (value[i] < value[bestIdx]) {
                        bestIdx = i;
                    }
                }
                golden(grid[Math.max(0, bestIdx - 1)], grid[Math.min(grid.length - 1, bestIdx + 1)]);
            }
            polish();
            if (best == null) {
                return result(minCut, iterations, "BUG: no feasible theta found although rho_min = " + rhoMin + " < 1");
            }
            return result(best, iterations, "");
        }

        /** Solves LP at phiHat, keeps its theta if best so far; returns whether the LP was feasible. */
        private boolean try_(double phiHat) {
            return !Double.isInfinite(score(phiHat));
        }

        private double score(double phiHat) {
            iterations++;
            cp.delays(phiHat, delay);
            if (!lp.solve(phiHat, delay, theta)) {
                return Double.POSITIVE_INFINITY;
            }
            double f = cp.evaluate(theta).objective();
            if (f < bestObjective) {
                bestObjective = f;
                best = theta.clone();
            }
            return f;
        }

        private double[] grid(double lo, double hi) {
            int n = hi > lo ? options.gridPoints() : 1;
            double[] g = new double[n];
            for (int i = 0; i < n; i++) {
                g[i] = n == 1 ? lo : lo * Math.pow(hi / lo, i / (double) (n - 1));
            }
            return g;
        }

        private void golden(double a, double b) {
            double c = b - GOLDEN * (b - a);
            double d = a + GOLDEN * (b - a);
            double fc = score(c);
            double fd = score(d);
            for (int i = 0; i < options.refineSteps() && b - a > 1e-12 * b; i++) {
                if (fc <= fd) {
                    b = d;
                    d = c;
                    fd = fc;
                    c = b - GOLDEN * (b - a);
                    fc = score(c);
                } else {
                    a = c;
                    c = d;
                    fc = fd;
                    d = a + GOLDEN * (b - a);
                    fd = score(d);
                }
            }
        }

        private void polish() {
            for (int i = 0; i < options.polishSteps() && best != null; i++) {
                double before = bestObjective;
                double phi = cp.evaluate(best).phi();
                score(phi);
                if (!(bestObjective < before - 1e-15 * Math.abs(before))) {
                    return;
                }
            }
        }

        /** Per subgraph: the triplet cutting the fewest bits (ties: fastest without queueing, then first). */
        private double[] minCutTheta() {
            double[] t = new double[cp.choices()];
            cp.delays(0, delay);
            for (int s = 0; s < cp.subgraphs; s++) {
                int b = cp.first[s];
                for (int c = b + 1; c < cp.first[s + 1]; c++) {
                    double dc = cp.cost[c].cutSeconds;
                    double db = cp.cost[b].cutSeconds;
                    if (dc < db || (dc == db && delay[c] < delay[b])) {
                        b = c;
                    }
                }
                t[b] = 1;
            }
            return t;
        }

        /** $\sum_s \beta_s \min_c Q_c$ (squares) or $\min_c B_c$. */
        private double minSum(boolean squares) {
            double sum = 0;
            for (int s = 0; s < cp.subgraphs; s++) {
                double m = Double.POSITIVE_INFINITY;
                for (int c = cp.first[s]; c < cp.first[s + 1]; c++) {
                    m = Math.min(m, squares ? cp.cost[c].cutSquares : cp.cost[c].cutSeconds);
                }
                sum += cp.beta[s] * m;
            }
            return sum;
        }

        Solution result(double[] flat, int iters) {
            CompiledProblem.Evaluation e = cp.evaluate(flat);
            String why = Double.isInfinite(e.objective())
                    ? (e.rho() >= 1 ? "link overloaded: rho = " + e.rho() + " >= 1" : "servers overloaded: u = " + cp.serverUtilisation)
                    : "";
            return result(flat, iters, why);
        }

        Solution result(double[] flat, int iters, String diagnostic) {
            CompiledProblem.Evaluation e = cp.evaluate(flat);
            boolean feasible = diagnostic.isEmpty() && !Double.isInfinite(e.objective());
            List<Solution.JobResult> jobs = new ArrayList<>();
            for (int j = 0; j < cp.problem.jobs().size(); j++) {
                JobClass job = cp.problem.jobs().get(j);
                List<Solution.SubgraphResult> subs = new ArrayList<>();
                for (int s = cp.firstSubgraph[j]; s < cp.firstSubgraph[j + 1]; s++) {
                    List<Double> th = new ArrayList<>();
                    for (int c = cp.first[s]; c < cp.first[s + 1]; c++) {
                        th.add(flat[c]);
                    }
                    subs.add(new Solution.SubgraphResult(job.subgraphs().get(s - cp.firstSubgraph[j]).subgraph(), cp.admissible.get(s), th));
                }
                jobs.add(new Solution.JobResult(job.name(), job.ratePerSecond(), feasible ? e.jct()[j] : Double.POSITIVE_INFINITY, subs));
            }
            return new Solution(feasible, diagnostic, feasible ? e.objective() : Double.POSITIVE_INFINITY, e.rho(),
                    feasible ? e.phi() : Double.POSITIVE_INFINITY, cp.serverUtilisation, cp.serverWait,
                    System.nanoTime() - start, iters, cp.problem.costModel(), jobs);
        }
    }
}
