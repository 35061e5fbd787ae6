package dev.nona.controller.optimize;

import dev.nona.controller.catalog.CatalogDags;
import dev.nona.dag.DagAnalysis;
import dev.nona.dag.EnumerationBound;
import dev.nona.optimize.JobClass;
import dev.nona.optimize.Problems;
import dev.nona.workload.ModelSpec;
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

    /**
     * A model's DAG, the largest memory its job class was built for, and its job class at rate 0 (its subgraphs and
     * triplets, validated once).
     */
    private record Cached(CatalogDag dag, double largestMemoryBytes, JobClass job) {}

    /** A graph's analysis for a largest server memory ({@code +Infinity}: its contraction uncut). */
    private record Cut(Graph graph, double largestMemoryBytes) {}

    private final Map<String, Cached> byModel = new HashMap<>();
    private final Map<Cut, JobClass> byGraph = new HashMap<>();

    /**
     * The job class of {@code model} with arrival rate {@code rate} on servers whose largest memory is
     * {@code largestMemoryBytes}: a contracted node larger than that is cut into pieces that fit
     * ({@code dag.MemoryCut}); a graph none of whose nodes is is analysed once for every memory.
     */
    JobClass of(String model, CatalogDag dag, double rate, double largestMemoryBytes) {
        Cached cached = byModel.get(model);
        if (cached == null || !cached.dag().equals(dag) || cached.largestMemoryBytes() != largestMemoryBytes) {
            Graph graph = Graph.of(dag);
            JobClass whole = analysed(model, graph, dag, Double.POSITIVE_INFINITY);
            JobClass job = whole.largestNodeBytes() <= largestMemoryBytes ? whole
                    : analysed(model, graph, dag, largestMemoryBytes);
            cached = new Cached(dag, largestMemoryBytes, job);
            byModel.put(model, cached);
        }
        return cached.job().withRate(rate);
    }

    private JobClass analysed(String model, Graph graph, CatalogDag dag, double largestMemoryBytes) {
        Cut key = new Cut(graph, largestMemoryBytes);
        JobClass shared = byGraph.get(key);
        if (shared != null) {
            return shared.name().equals(model) ? shared : shared.withName(model);
        }
        DagAnalysis analysis = DagAnalysis.analyse(CatalogDags.toModelDag(model, dag), EnumerationBound.defaults(),
                ModelSpec.NO_SIZE, largestMemoryBytes);
        JobClass job = Problems.jobClass(model, 0, analysis);
        if (largestMemoryBytes != Double.POSITIVE_INFINITY) { // keep one cut per graph: the servers' memory now
            byGraph.keySet().removeIf(k -> k.graph().equals(graph) && k.largestMemoryBytes() != Double.POSITIVE_INFINITY);
        }
        byGraph.put(key, job);
        return job;
    }

    /** Forgets models no longer in the catalog, and graphs no model has any more. */
    void retain(Set<String> models) {
        if (!byModel.keySet().retainAll(models)) {
            return; // every cached model is still in the catalog: so is every graph
        }
        Set<Graph> used = new HashSet<>();
        byModel.values().forEach(c -> used.add(Graph.of(c.dag())));
        byGraph.keySet().removeIf(k -> !used.contains(k.graph()));
    }

    /** How many distinct graphs are cached (for tests). */
    int graphs() {
        return byGraph.size();
    }
}
