package dev.nona.controller.optimize;

import dev.nona.dag.ContractedNode;
import dev.nona.dag.DagAnalysis;
import dev.nona.dag.Edge;
import dev.nona.dag.ModelDag;
import dev.nona.dag.SubgraphTriplets;
import dev.nona.dag.Task;
import dev.nona.optimize.JobClass;
import dev.nona.optimize.SubgraphChoices;
import dev.nona.topics.record.CatalogDag;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns catalog DAGs into the optimiser's job classes (contraction, decomposition and triplet enumeration by
 * policy-model's {@link DagAnalysis}), caching each model's job class (analysis, subgraphs, triplets) until its
 * DAG changes, so that a re-optimisation only pays for the solve. Not thread safe (used by the solver thread only).
 */
final class JobClasses {
    /** A model's DAG and its job class at rate 0 (its subgraphs and triplets, validated once). */
    private record Cached(CatalogDag dag, JobClass job) {}

    private final Map<String, Cached> cache = new HashMap<>();

    /** The job class of {@code model} with arrival rate {@code rate}. */
    JobClass of(String model, CatalogDag dag, double rate) {
        Cached cached = cache.get(model);
        if (cached == null || !cached.dag().equals(dag)) {
            cached = new Cached(dag, jobClass(model, DagAnalysis.analyse(toModelDag(model, dag)), 0));
            cache.put(model, cached);
        }
        return cached.job().withRate(rate);
    }

    /** Forgets models no longer in the catalog. */
    void retain(java.util.Set<String> models) {
        cache.keySet().retainAll(models);
    }

    static ModelDag toModelDag(String model, CatalogDag dag) {
        return new ModelDag(model,
                dag.tasks().stream().map(t -> new Task(t.id(), t.ops())).toList(),
                dag.edges().stream().map(e -> new Edge(e.from(), e.to(), e.bytes())).toList());
    }

    static JobClass jobClass(String model, DagAnalysis analysis, double rate) {
        Map<String, ContractedNode> nodes = new LinkedHashMap<>();
        analysis.decomposition().nodes().forEach(n -> nodes.put(n.id(), n));
        List<SubgraphChoices> subgraphs = analysis.triplets().stream()
                .map((SubgraphTriplets st) -> new SubgraphChoices(st.subgraph(), st.triplets()))
                .toList();
        return new JobClass(model, rate, nodes, analysis.roots().get(0), subgraphs);
    }
}
