package dev.nona.optimize;

import dev.nona.dag.ContractedNode;
import dev.nona.dag.DagAnalysis;
import dev.nona.dag.EnumerationBound;
import dev.nona.dag.ModelDag;
import dev.nona.dag.SubgraphTriplets;
import dev.nona.dag.TaskBytes;
import dev.nona.dag.Triplet;
import dev.nona.workload.DagSources;
import dev.nona.workload.ModelSpec;
import dev.nona.workload.Workload;
import dev.nona.workload.WorkloadException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds optimiser inputs from DAG analyses and workloads. */
public final class Problems {
    /** The one triplet of a subgraph without intermediates: no part, root and sink on one server. */
    private static final Triplet NO_PARTS = new Triplet(List.of(), 0, 0);

    private Problems() {}

    /**
     * The optimiser's job class of a model from its analysis (contraction, decomposition, enumeration): its
     * contracted nodes, its first root, and a {@link SubgraphChoices} per subgraph of the decomposition. The one
     * builder of job classes: the controller's solver, the simulator's and the {@code optimize} verb all call it.
     *
     * <p>A subgraph without intermediates (its root's only successor on the chain is its sink) has no triplet in
     * {@code TripletEnumerator}'s enumeration; its sample space is then the single triplet with no part,
     * the sink colocated with the root, which {@link SubgraphChoices#serversNeeded} counts as one
     * server. Every subgraph so has at least one triplet.
     */
    public static JobClass jobClass(String name, double ratePerSecond, DagAnalysis analysis) {
        return jobClass(name, ratePerSecond, analysis, ModelSpec.NO_SIZE);
    }

    /**
     * {@link #jobClass(String, double, DagAnalysis)} with the model's weights: each task's bytes from
     * {@link TaskBytes#byTaskId} (the DAG's own {@code sizeBytes}, else {@code modelSizeBytes} spread by ops), so
     * that the optimiser keeps every part within some server's memory.
     *
     * @param modelSizeBytes the model's {@code sizeBytes}, finite and $\ge 0$ ({@link ModelSpec#NO_SIZE}: not given)
     */
    public static JobClass jobClass(String name, double ratePerSecond, DagAnalysis analysis, double modelSizeBytes) {
        Map<String, Double> bytes = TaskBytes.byTaskId(analysis.dag(), modelSizeBytes);
        Map<String, Double> ordered = new LinkedHashMap<>();
        analysis.dag().tasks().forEach(t -> {
            if (bytes.get(t.id()) > 0) {
                ordered.put(t.id(), bytes.get(t.id()));
            }
        });
        Map<String, ContractedNode> nodes = new LinkedHashMap<>();
        analysis.decomposition().nodes().forEach(n -> nodes.put(n.id(), n));
        List<SubgraphChoices> subgraphs = new ArrayList<>();
        for (SubgraphTriplets st : analysis.triplets()) {
            List<Triplet> omega = st.triplets().isEmpty() ? List.of(NO_PARTS) : st.triplets();
            subgraphs.add(new SubgraphChoices(st.subgraph(), omega));
        }
        return new JobClass(name, ratePerSecond, nodes, analysis.roots().get(0), subgraphs, ordered);
    }

    /** Loads and analyses every model of the workload (default enumeration bound) and builds the problem. */
    public static NonaProblem fromWorkload(Workload workload, CostModel costModel) {
        return fromWorkload(workload, costModel, EnumerationBound.defaults());
    }

    /**
     * Loads and analyses every model of the workload and builds the problem.
     *
     * @throws WorkloadException if the workload is background only (no model to solve for), or a DAG cannot be loaded
     */
    public static NonaProblem fromWorkload(Workload workload, CostModel costModel, EnumerationBound bound) {
        if (workload.backgroundOnly()) {
            throw new WorkloadException("models: the workload lists none (background only); the optimiser needs at least one model");
        }
        List<JobClass> jobs = new ArrayList<>();
        for (ModelSpec m : workload.models()) {
            ModelDag dag = DagSources.load(m.name(), m.dag());
            jobs.add(jobClass(m.name(), m.ratePerSecond(), DagAnalysis.analyse(dag, bound, m.sizeBytes(),
                    workload.cluster().largestMemoryBytes()), m.sizeBytes()));
        }
        return new NonaProblem(jobs, workload.cluster(), workload.background(), costModel);
    }
}
