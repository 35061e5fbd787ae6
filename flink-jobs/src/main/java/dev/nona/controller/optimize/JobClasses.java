package dev.nona.controller.optimize;

import dev.nona.controller.catalog.CatalogDags;
import dev.nona.dag.DagAnalysis;
import dev.nona.optimize.JobClass;
import dev.nona.optimize.Problems;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns catalog DAGs into the optimiser's job classes (contraction, decomposition and triplet enumeration by
 * policy-model's {@link DagAnalysis}), caching each model's job class (analysis, subgraphs, triplets) until its
 * DAG changes, so that a re-optimisation only pays for the solve. Models whose graphs are equal (the same tasks,
 * ops, bytes and edges under any name: a catalog's fine-tuned variants of one architecture) share one analysis,
 * renamed. Not thread safe (used by the solver thread only).
 */
final class JobClasses {
    /** A DAG without its name: what the analysis depends on. */
    private record Graph(List<CatalogTask> tasks, List<CatalogEdge> edges) {
        static Graph of(CatalogDag dag) {
            return new Graph(dag.tasks(), dag.edges());
        }
    }

    /** A model's DAG and its job class at rate 0 (its subgraphs and triplets, validated once). */
    private record Cached(CatalogDag dag, JobClass job) {}

    private final Map<String, Cached> byModel = new HashMap<>();
    private final Map<Graph, JobClass> byGraph = new HashMap<>();

    /** The job class of {@code model} with arrival rate {@code rate}. */
    JobClass of(String model, CatalogDag dag, double rate) {
        Cached cached = byModel.get(model);
        if (cached == null || !cached.dag().equals(dag)) {
            Graph graph = Graph.of(dag);
            JobClass shared = byGraph.get(graph);
            JobClass job;
            if (shared == null) {
                DagAnalysis analysis = DagAnalysis.analyse(CatalogDags.toModelDag(model, dag));
                job = Problems.jobClass(model, 0, analysis);
                byGraph.put(graph, job);
            } else {
                job = shared.withName(model);
            }
            cached = new Cached(dag, job);
            byModel.put(model, cached);
        }
        return cached.job().withRate(rate);
    }

    /** Forgets models no longer in the catalog, and graphs no model has any more. */
    void retain(Set<String> models) {
        if (!byModel.keySet().retainAll(models)) {
            return; // every cached model is still in the catalog: so is every graph
        }
        Set<Graph> used = new HashSet<>();
        byModel.values().forEach(c -> used.add(Graph.of(c.dag())));
        byGraph.keySet().retainAll(used);
    }

    /** How many distinct graphs are cached (for tests). */
    int graphs() {
        return byGraph.size();
    }
}
