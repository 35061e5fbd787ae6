package dev.nona.controller.optimize;

import dev.nona.optimize.CostModel;
import dev.nona.optimize.JobClass;
import dev.nona.optimize.NonaOptimizer;
import dev.nona.optimize.NonaProblem;
import dev.nona.optimize.SolveCancelledException;
import dev.nona.optimize.Solution;
import dev.nona.placement.PlacementTable;
import dev.nona.topics.record.CatalogDag;
import dev.nona.placement.PlacementTables;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's solver: builds Nona's problem from the catalog, the estimated rates and the cluster, solves it
 * with policy-model's {@link NonaOptimizer}, and predicts the current table's objective at the new rates with the
 * same cost model ({@link NonaOptimizer#evaluate}), for the safe hot-swap. Background traffic is not observed by
 * the controller, so the problem has none.
 *
 * <p>Based on: Nona (CloudNet 2024), Section III-C, objective (I) subject to (II)&ndash;(III) and $\rho < 1$.
 */
public final class NonaTableSolver implements TableSolver {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(NonaTableSolver.class);

    /** The cost model's name ({@link CostModel#named}; a name, as {@link CostModel} is not serialisable). */
    private final String costModel;
    private transient JobClasses jobClasses;

    /**
     * @param paper true for the paper's formulation exactly, false for the default: server queueing under the
     *              controller's own mapping ({@link CostModel#CONTROLLER_MAPPING})
     */
    public NonaTableSolver(boolean paper) {
        this(paper ? CostModel.PAPER : CostModel.CONTROLLER_MAPPING);
    }

    /** Solves in {@code costModel} (one of the three named ones, {@link CostModel#named}). */
    public NonaTableSolver(CostModel costModel) {
        this.costModel = CostModel.named(costModel.label()).equals(costModel) ? costModel.label() : null;
        if (this.costModel == null) {
            throw new IllegalArgumentException("cost model (" + costModel + ") is not one of " + CostModel.NAMES);
        }
    }

    @Override
    public SolveResult solve(SolveInput input, ControllerTable current, BooleanSupplier cancelled) {
        long t0 = System.nanoTime();
        try {
            NonaProblem problem = problem(input, cancelled);
            Solution solution = NonaOptimizer.solve(problem, NonaOptimizer.Options.DEFAULT, cancelled);
            long version = current == null ? 1 : current.version() + 1;
            PlacementTable table = PlacementTables.from(problem, solution, version, System.currentTimeMillis());
            Map<String, Double> jct = new TreeMap<>();
            solution.jobs().forEach(j -> jct.put(j.name(), j.predictedJctSeconds()));
            jct.values().removeIf(v -> !Double.isFinite(v));
            double currentObjective = Double.NaN;
            boolean currentFeasible = false;
            if (current != null && !current.fallback()) {
                List<List<double[]>> theta = TableCarryOver.map(problem, PlacementTable.fromJson(current.tableJson()));
                if (theta != null) {
                    Solution now = NonaOptimizer.evaluate(problem, theta);
                    currentFeasible = now.feasible() && Double.isFinite(now.objective());
                    currentObjective = currentFeasible ? now.objective() : Double.NaN;
                }
            }
            return new SolveResult(null, solution.feasible(), solution.feasible() ? table.toJson() : null,
                    solution.feasible() ? solution.objective() : Double.NaN, solution.rho(),
                    solution.feasible() ? solution.phi() : Double.NaN, jct, solution.solveMillis(),
                    solution.iterations(), currentObjective, currentFeasible, solution.diagnostic());
        } catch (SolveCancelledException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.warn("Solve for '{}' ({} models, {} servers) failed", input.cause(), input.dags().size(),
                    input.cluster().upServers().size(), e);
            return SolveResult.failed(e, (System.nanoTime() - t0) / 1e6);
        }
    }

    NonaProblem problem(SolveInput input) {
        return problem(input, () -> false);
    }

    private NonaProblem problem(SolveInput input, BooleanSupplier cancelled) {
        if (jobClasses == null) {
            jobClasses = new JobClasses();
        }
        jobClasses.retain(input.dags().keySet());
        Cluster cluster = input.cluster().cluster();
        List<JobClass> jobs = new ArrayList<>();
        for (Map.Entry<String, CatalogDag> e : input.dags().entrySet()) {
            if (cancelled.getAsBoolean()) {
                throw new SolveCancelledException(0);
            }
            jobs.add(jobClasses.of(e.getKey(), e.getValue(), input.rates().getOrDefault(e.getKey(), 0.0),
                    cluster.largestMemoryBytes()));
        }
        return new NonaProblem(jobs, cluster, Background.NONE, CostModel.named(costModel));
    }
}
