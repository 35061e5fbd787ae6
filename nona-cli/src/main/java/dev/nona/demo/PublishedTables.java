package dev.nona.demo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nona.placement.PlacementTable;
import dev.nona.topics.record.PlacementTableRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The tables the controller wrote to {@code placement-tables}, as the demo's summary lists them: what each was solved
 * for (the rates, and the cluster as the optimiser saw it: servers, mean compute rate $\nu$, link capacity $\mu$) and
 * what it decided, per model the probability that a request is split over more than one server. Thread safe (one
 * writer, the watcher; readers on other threads).
 */
final class PublishedTables {
    private final Map<Long, DemoSummary.PublishedTable> byVersion = new TreeMap<>();

    /** Keeps a table record (a record of a version already held replaces it). */
    synchronized void accept(PlacementTableRecord record) {
        JsonNode t = record.tableTree();
        JsonNode cluster = t.path("cluster");
        List<String> servers = new ArrayList<>();
        cluster.path("upServers").forEach(s -> servers.add(s.asText()));
        Map<String, Double> rates = new TreeMap<>();
        t.path("rates").fields().forEachRemaining(e -> rates.put(e.getKey(), e.getValue().asDouble(Double.NaN)));
        boolean fallback = t.path("fallback").asBoolean(false);
        Map<String, Double> split = new TreeMap<>();
        JsonNode solved = t.path("tableJson");
        if (!fallback && solved.isTextual()) {
            PlacementTable.fromJson(solved.asText()).models().forEach(m -> split.put(m.name(), splitProbability(m)));
        }
        byVersion.put(record.version(), new DemoSummary.PublishedTable(record.version(), t.path("cause").asText(""),
                fallback, servers, cluster.path("opsPerSecond").asDouble(Double.NaN),
                cluster.path("linkBitsPerSecond").asDouble(Double.NaN), rates, split));
    }

    /** The tables read, by ascending version. */
    synchronized List<DemoSummary.PublishedTable> list() {
        return List.copyOf(byVersion.values());
    }

    /**
     * The probability that the table places a request of the model on more than one server: one minus the product,
     * over its subgraphs (sampled independently), of the probability of a choice with at most one part.
     */
    static double splitProbability(PlacementTable.ModelPlacement model) {
        double whole = 1;
        for (PlacementTable.SubgraphPlacement s : model.subgraphs()) {
            whole *= s.choices().stream().filter(c -> c.parts().size() <= 1)
                    .mapToDouble(PlacementTable.Choice::probability).sum();
        }
        return Math.min(1, Math.max(0, 1 - whole));
    }
}
