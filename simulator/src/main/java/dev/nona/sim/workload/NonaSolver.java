package dev.nona.sim.workload;

import dev.nona.dag.ContractedNode;
import dev.nona.dag.DagAnalysis;
import dev.nona.dag.Triplet;
import dev.nona.optimize.CostModel;
import dev.nona.optimize.JobClass;
import dev.nona.optimize.NonaOptimizer;
import dev.nona.optimize.NonaProblem;
import dev.nona.optimize.Problems;
import dev.nona.optimize.Solution;
import dev.nona.placement.PlacementTable;
import dev.nona.placement.PlacementTables;
import dev.nona.sim.JobKind;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.policy.table.SimChoice;
import dev.nona.sim.policy.table.SubgraphTable;
import dev.nona.sim.policy.table.WorkloadTableSolver;
import dev.nona.sim.policy.table.SimTable;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import dev.nona.workload.ModelSpec;
import dev.nona.workload.WorkloadException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Nona's optimiser ({@link NonaOptimizer}) as the simulator's table source: builds the {@link NonaProblem} for a
 * simulator workload's rates, cluster (its server classes, memory and cold start) and background, the models' sizes, solves it, and maps $\theta$ back to task indices.
 * Keeps the last {@link Solution} for its predictions and solve time. Not thread-safe.
 */
public final class NonaSolver implements WorkloadTableSolver {
    private final Map<String, DagAnalysis> analyses;
    private final Map<String, Double> sizeBytes;
    private final CostModel costModel;
    private Solution last;

    /** With no model's size given (every part fits everywhere). */
    public NonaSolver(Map<String, DagAnalysis> analyses, CostModel costModel) {
        this(analyses, Map.of(), costModel);
    }

    /**
     * @param sizeBytes per model, its {@code sizeBytes} (a model not named, or {@link ModelSpec#NO_SIZE}: not given),
     *                  so that the optimiser keeps every part within some server's memory
     */
    public NonaSolver(Map<String, DagAnalysis> analyses, Map<String, Double> sizeBytes, CostModel costModel) {
        this.analyses = Map.copyOf(analyses);
        this.sizeBytes = Map.copyOf(sizeBytes);
        this.costModel = costModel;
    }

    /** For a loaded workload: its DAG analyses and its models' sizes. */
    public static NonaSolver of(SimWorkloads.Loaded loaded, CostModel costModel) {
        Map<String, Double> sizes = new HashMap<>();
        for (ModelSpec m : loaded.source().models()) {
            sizes.put(m.name(), m.sizeBytes());
        }
        return new NonaSolver(loaded.analyses(), sizes, costModel);
    }

    /** The solution of the last {@link #solve} call, or null. */
    public Solution lastSolution() {
        return last;
    }

    /** The optimiser's problem for the workload's stated rates. */
    public NonaProblem problem(SimWorkload w) {
        List<JobClass> jobs = new ArrayList<>();
        double computeRate = 0;
        double computeOps = 0;
        double commRate = 0;
        double commBytes = 0;
        for (SimJobClass c : w.classes()) {
            if (c.kind() == JobKind.INFERENCE) {
                jobs.add(optimiserClass(c.name(), c.ratePerSecond()));
            } else if (c.kind() == JobKind.BACKGROUND_COMPUTE) {
                computeRate = c.ratePerSecond();
                computeOps = c.taskOps(0);
            } else {
                commRate = c.ratePerSecond();
                commBytes = c.commBits() / 8.0;
            }
        }
        Background bg = new Background(new Background.Comm(commRate, commBytes), new Background.Compute(computeRate, computeOps));
        Cluster cluster = w.cluster().toCluster();
        return new NonaProblem(jobs, cluster, bg, costModel);
    }

    /**
     * Solves for {@code w}'s rates. A background-only workload (no inference class) has nothing to place and no
     * problem to solve: its table has an empty row per class, and {@link #lastSolution} is left as it was.
     *
     * @throws WorkloadException when the optimiser finds a model that no grouping of its tasks can run on the
     *         cluster's memory (each of its tasks fits some server, but not the parts a request needs at once, as on
     *         a single server smaller than the model): the controller would make every request of it a dead letter
     *         ({@code MODEL_UNPLACEABLE}), so there is nothing of it to simulate
     */
    @Override
    public SimTable solve(SimWorkload w) {
        boolean anyModel = w.classes().stream().anyMatch(c -> c.kind() == JobKind.INFERENCE);
        PlacementTable controllerTable = null;
        if (anyModel) {
            NonaProblem problem = problem(w);
            last = NonaOptimizer.solve(problem);
            if (!last.unplaceable().isEmpty()) {
                throw new WorkloadException("the optimiser cannot place " + String.join("; ", last.unplaceableReasons())
                        + " (the controller would make each request of it a dead letter, MODEL_UNPLACEABLE)");
            }
            controllerTable = PlacementTables.from(problem, last, 0, 0);
        }
        List<List<SubgraphTable>> perClass = new ArrayList<>();
        List<Double> predicted = new ArrayList<>();
        List<int[]> taskOf = new ArrayList<>();
        for (SimJobClass c : w.classes()) {
            if (c.kind() != JobKind.INFERENCE) {
                perClass.add(List.of());
                predicted.add(Double.NaN);
                taskOf.add(null);
                continue;
            }
            taskOf.add(taskOf(analyses.get(c.name()), controllerTable.model(c.name())));
            Solution.JobResult jr = last.job(c.name());
            Map<String, Integer> index = index(analyses.get(c.name()));
            List<SubgraphTable> subgraphTables = new ArrayList<>();
            for (Solution.SubgraphResult sr : jr.subgraphs()) {
                subgraphTables.add(subgraphTable(sr, index));
            }
            perClass.add(subgraphTables);
            predicted.add(jr.predictedJctSeconds());
        }
        return new SimTable(perClass, predicted,
                controllerTable == null ? null : new SimTable.ControllerForm(controllerTable, taskOf));
    }

    /**
     * For each contracted node of the analysis (the simulator's tasks), the index in {@code model}'s task list of
     * its first original task, or -1 for a virtual node (it has none).
     */
    private static int[] taskOf(DagAnalysis a, PlacementTable.ModelPlacement model) {
        Map<String, Integer> position = new HashMap<>();
        for (int i = 0; i < model.tasks().size(); i++) {
            position.put(model.tasks().get(i), i);
        }
        List<ContractedNode> nodes = a.decomposition().nodes();
        int[] out = new int[nodes.size()];
        for (int i = 0; i < out.length; i++) {
            List<String> original = nodes.get(i).originalTasks();
            out[i] = original.isEmpty() ? -1 : position.get(original.get(0));
        }
        return out;
    }

    private static SubgraphTable subgraphTable(Solution.SubgraphResult sr, Map<String, Integer> index) {
        List<SimChoice> options = new ArrayList<>();
        double[] p = new double[sr.triplets().size()];
        double sum = 0;
        for (int i = 0; i < p.length; i++) {
            options.add(choice(sr.triplets().get(i), index));
            p[i] = Math.max(0, sr.theta().get(i));
            sum += p[i];
        }
        for (int i = 0; i < p.length; i++) {
            p[i] /= sum;
        }
        return new SubgraphTable(options, p);
    }

    private static SimChoice choice(Triplet t, Map<String, Integer> index) {
        int[][] parts = new int[t.parts().size()][];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = t.parts().get(i).stream().mapToInt(index::get).toArray();
        }
        // With no intermediates the cost model never cuts the root-to-sink edge: the sink stays with the root.
        return new SimChoice(parts, t.rootPart(), t.sinkPart(), true);
    }

    private JobClass optimiserClass(String name, double rate) {
        DagAnalysis a = analyses.get(name);
        if (a == null) {
            throw new IllegalArgumentException("model '" + name + "' has no DAG analysis");
        }
        return Problems.jobClass(name, rate, a, sizeBytes.getOrDefault(name, ModelSpec.NO_SIZE));
    }

    private static Map<String, Integer> index(DagAnalysis a) {
        Map<String, Integer> index = new HashMap<>();
        List<ContractedNode> nodes = a.decomposition().nodes();
        for (int i = 0; i < nodes.size(); i++) {
            index.put(nodes.get(i).id(), i);
        }
        return index;
    }
}
