package dev.nona.optimize;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;

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
 * <p><b>Cancellation.</b> {@link #solve(NonaProblem, Options, BooleanSupplier)} polls its stop condition before every
 * compiled subgraph and before every linear program of the search, so it stops within one LP solve
 * ($O(C \log C)$) or one subgraph's compilation of the condition turning true, by throwing
 * {@link SolveCancelledException}.
 *
 * <p>Based on: B. Pit-Claudel, D. Malak, A. Cohen, M. M&eacute;dard, M. Ghobadi, "Nona: A Stochastic
 * Congestion-Aware Job Scheduler for Real-Time Inference Queries", CloudNet 2024, Section III-C.
 */
public final class NonaOptimizer {
    /**
     * Search effort, and how much the optimum must gain to split.
     *
     * @param minSplitGain the least relative gain of the optimum over the least-cut $\theta$ (every subgraph on the
     *                     triplet cutting the fewest bits, usually whole) for the optimum to be kept, in $[0, 1)$;
     *                     below it the least-cut $\theta$ is returned. NaN: the cost model's default,
     *                     {@link #DEFAULT_CONTROLLER_MAPPING_MIN_SPLIT_GAIN} under the controller's mapping, else 0
     *                     (the paper's formulation and the uniform mapping are solved exactly).
     */
    public record Options(int gridPoints, int refineSteps, int polishSteps, double minSplitGain) {
        public static final Options DEFAULT = new Options(24, 40, 10);
        /**
         * The default {@code minSplitGain} under the controller's mapping: 0.5%. On {@code examples/zoo.json} the
         * controller-mapping optimum gains 1.9&ndash;3.4% over the whole-job $\theta$ at loads 0.1&ndash;0.3 (the
         * simulated {@code nona-controller} gains 1.7&ndash;3.1% over {@code jsq} there), but only 0.036&ndash;0.052%
         * at 0.4&ndash;0.6, where the simulated split tables were 0.07&ndash;0.45% slower than whole jobs: a gain
         * smaller than the model's error on the difference between two tables (docs/optimizer.md).
         */
        public static final double DEFAULT_CONTROLLER_MAPPING_MIN_SPLIT_GAIN = 0.005;

        /** With {@code minSplitGain} NaN: the cost model's default. */
        public Options(int gridPoints, int refineSteps, int polishSteps) {
            this(gridPoints, refineSteps, polishSteps, Double.NaN);
        }

        public Options {
            if (gridPoints < 2 || refineSteps < 0 || polishSteps < 0) {
                throw new IllegalArgumentException("options: gridPoints (" + gridPoints + ") must be >= 2, steps >= 0");
            }
            if (!Double.isNaN(minSplitGain) && !(minSplitGain >= 0 && minSplitGain < 1)) {
                throw new IllegalArgumentException("options: minSplitGain (" + minSplitGain + ") must be in [0, 1), or NaN");
            }
        }

        /** {@code minSplitGain}, or the default of {@code costModel} when it is NaN. */
        public double minSplitGain(CostModel costModel) {
            if (!Double.isNaN(minSplitGain)) {
                return minSplitGain;
            }
            return costModel.controllerMapping() ? DEFAULT_CONTROLLER_MAPPING_MIN_SPLIT_GAIN : 0;
        }
    }

    private NonaOptimizer() {}

    /** Solves with {@link Options#DEFAULT}. */
    public static Solution solve(NonaProblem problem) {
        return solve(problem, Options.DEFAULT);
    }

    /**
     * Solves the problem; never throws for an infeasible load (see {@link Solution}). Models that no server's memory
     * can run are set aside and named in {@link Solution#unplaceable} ({@link PartFit#restrict}).
     */
    public static Solution solve(NonaProblem problem, Options options) {
        return solve(problem, options, () -> false);
    }

    /**
     * Solves the problem unless {@code stop} turns true first (a deadline passed, or the caller cancelled).
     *
     * @param stop polled on the calling thread between steps; must be cheap
     * @throws SolveCancelledException when {@code stop} returned true before the search finished
     */
    public static Solution solve(NonaProblem problem, Options options, BooleanSupplier stop) {
        Objects.requireNonNull(stop, "stop condition");
        Solution s = solveFitting(problem, options, stop);
        String note = wholeModelShortfall(problem);
        return note == null ? s : s.withDiagnostic(note);
    }

    /**
     * Models that fit whole only on a few servers, and not all at once ({@code Cluster#wholeModelShortfall}): said in
     * the solution's diagnostic, because the solve keeps them whole there and predicts them loaded (a limit,
     * docs/optimizer.md). Null when memory is not modelled or there are none.
     */
    private static String wholeModelShortfall(NonaProblem problem) {
        if (!problem.cluster().memoryBounded()) {
            return null;
        }
        List<String> names = problem.jobs().stream().map(JobClass::name).toList();
        double[] bytes = problem.jobs().stream().mapToDouble(JobClass::totalBytes).toArray();
        return problem.cluster().wholeModelShortfall(names, bytes);
    }

    /** {@link #solve} but for the diagnostic on models that fit only a few servers whole. */
    private static Solution solveFitting(NonaProblem problem, Options options, BooleanSupplier stop) {
        long start = System.nanoTime();
        PartFit.Restricted r = PartFit.of(problem.cluster()).restrict(problem);
        if (r.unplaceable().isEmpty() && r.placeable() == problem) {
            return new PhiSearch(new CompiledProblem(problem, stop), options, start, stop).run();
        }
        if (r.placeable() == null) {
            return withUnplaceable(problem, null, r, start);
        }
        Solution rest = new PhiSearch(new CompiledProblem(r.placeable(), stop), options, start, stop).run();
        return r.unplaceable().isEmpty() ? rest : withUnplaceable(problem, rest, r, start);
    }

    /**
     * The solution of {@code rest} (null: nothing was placeable) with every job of {@code problem} in order: the
     * unplaceable ones with a JCT of $+\infty$ and no choices, named in {@link Solution#unplaceable}.
     */
    private static Solution withUnplaceable(NonaProblem problem, Solution rest, PartFit.Restricted r, long start) {
        List<Solution.JobResult> jobs = new ArrayList<>();
        for (JobClass job : problem.jobs()) {
            if (r.unplaceable().contains(job.name())) {
                List<Solution.SubgraphResult> subs = job.subgraphs().stream()
                        .map(sc -> new Solution.SubgraphResult(sc.subgraph(), List.of(), List.of())).toList();
                jobs.add(new Solution.JobResult(job.name(), job.ratePerSecond(), Double.POSITIVE_INFINITY, subs));
            } else {
                jobs.add(rest.job(job.name()));
            }
        }
        if (rest == null) {
            double inf = Double.POSITIVE_INFINITY;
            return new Solution(false, "no model fits the servers' memory: " + String.join("; ", r.reasons()), inf, 0, inf,
                    0, 0, System.nanoTime() - start, 0, problem.costModel(), jobs, r.unplaceable(), r.reasons(), 0);
        }
        return new Solution(rest.feasible(), rest.diagnostic(), rest.objective(), rest.rho(), rest.phi(),
                rest.serverUtilisation(), rest.serverWaitSeconds(), rest.solveNanos(), rest.iterations(), rest.costModel(),
                jobs, r.unplaceable(), r.reasons(), rest.idleGate());
    }

    /**
     * Evaluates the objective at a given $\theta$: one array per subgraph, per job class in problem order, over the
     * subgraph's admissible triplets (its triplets needing at most $N$ servers whose parts fit the servers' memory,
     * {@link PartFit#admissible}, in order). Used to check solutions. Unlike {@link #solve}, it neither packs
     * choices nor sets unplaceable models aside: a subgraph without an admissible triplet is an error.
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
        return new PhiSearch(cp, Options.DEFAULT, start, () -> false).result(flat, 0);
    }
}
