package dev.nona.optimize;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * One solve of {@link NonaOptimizer}: the search over the bound $\hat\phi$ on the link wait, each candidate solved
 * exactly by {@link ParametricLp} and scored by the true objective at its own $\phi(\theta)$. Not thread-safe.
 */
final class PhiSearch {
    private static final double GOLDEN = (Math.sqrt(5) - 1) / 2;

    private final CompiledProblem cp;
    private final NonaOptimizer.Options options;
    private final long start;
    private final BooleanSupplier stop;
    private final ParametricLp lp;
    private final double[] delay;
    private final double[] theta;
    private double[] best;
    private double bestObjective = Double.POSITIVE_INFINITY;
    private int iterations;

    PhiSearch(CompiledProblem cp, NonaOptimizer.Options options, long start, BooleanSupplier stop) {
        this.cp = cp;
        this.options = options;
        this.start = start;
        this.stop = stop;
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
        score(phiLo);
        double largestS = largestServiceTime();
        if (largestS > 0) {
            double phiStart = Math.max(phiLo, 1e-9 * largestS);
            gridThenRefine(phiStart, slackFrom(phiStart));
        }
        polish();
        if (best == null) {
            return result(minCut, iterations, "BUG: no feasible theta found although rho_min = " + rhoMin + " < 1");
        }
        // keep the least-cut theta unless the optimum gains more than the model's error on such a difference
        double margin = options.minSplitGain(cp.problem.costModel());
        if (margin > 0 && best != minCut) {
            double leastCut = cp.evaluate(minCut).objective();
            if (bestObjective >= leastCut * (1 - margin)) {
                return result(minCut, iterations, "");
            }
        }
        return result(best, iterations, "");
    }

    /** The largest service time of any transfer: sets the scale of the search over the bound on $\phi$. */
    private double largestServiceTime() {
        double largest = cp.backgroundS;
        for (ChoiceCost c : cp.cost) {
            largest = Math.max(largest, c.cutSeconds);
        }
        return largest;
    }

    /** Doubles the bound from {@code phi} until the LP no longer needs it (beyond it the value can only grow). */
    private double slackFrom(double phi) {
        for (int i = 0; i < 200; i++) {
            if (!Double.isInfinite(score(phi)) && lp.unconstrained) {
                return phi;
            }
            phi *= 2;
        }
        return phi;
    }

    /** A geometric grid over [lo, hi], then golden-section search between the neighbours of its best point. */
    private void gridThenRefine(double lo, double hi) {
        double[] grid = grid(lo, hi);
        int bestIdx = 0;
        double bestValue = Double.POSITIVE_INFINITY;
        for (int i = 0; i < grid.length; i++) {
            double v = score(grid[i]);
            if (v < bestValue) {
                bestValue = v;
                bestIdx = i;
            }
        }
        golden(grid[Math.max(0, bestIdx - 1)], grid[Math.min(grid.length - 1, bestIdx + 1)]);
    }

    /** Solves the LP at {@code phiHat} and scores its theta by the true objective; keeps the best so far. */
    private double score(double phiHat) {
        if (stop.getAsBoolean()) {
            throw new SolveCancelledException(iterations);
        }
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
                System.nanoTime() - start, iters, cp.problem.costModel(), jobs, List.of(), List.of(), cp.idleGate());
    }
}
