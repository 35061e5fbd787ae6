package dev.nona.controller.optimize;

import dev.nona.controller.cluster.ClusterSnapshot;
import dev.nona.topics.record.CatalogDag;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one re-optimisation solves for: every catalogued model's DAG and estimated rate, and the cluster.
 *
 * @param dags    DAG per model (copied)
 * @param rates   requests/s per model; catalogued models missing here have rate 0 (copied)
 * @param cluster the cluster
 * @param cause   why it is solved
 */
public record SolveInput(Map<String, CatalogDag> dags, Map<String, Double> rates, ClusterSnapshot cluster, String cause) {
    public SolveInput {
        dags = new TreeMap<>(dags);
        rates = new TreeMap<>(rates);
    }
}
