package dev.nona.controller.optimize;

import dev.nona.controller.catalog.CatalogDags;
import dev.nona.dag.DagAnalysis;
import dev.nona.optimize.JobClass;
import dev.nona.optimize.Problems;
import dev.nona.topics.record.CatalogDag;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

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
            DagAnalysis analysis = DagAnalysis.analyse(CatalogDags.toModelDag(model, dag));
            cached = new Cached(dag, Problems.jobClass(model, 0, analysis));
            cache.put(model, cached);
        }
        return cached.job().withRate(rate);
    }

    /** Forgets models no longer in the catalog. */
    void retain(Set<String> models) {
        cache.keySet().retainAll(models);
    }

}
