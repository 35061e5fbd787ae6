package dev.nona.controller.catalog;

import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * The fingerprint of a catalog DAG as the optimiser sees it: SHA-256 over its tasks (id and ops) and edges (ends and
 * bytes) in the catalog's order, the first 16 hex digits. Two DAGs with the same fingerprint have the same tasks,
 * costs and edges; the DAG's {@code name} does not count (the catalog's key names the model). A table records the
 * fingerprint of every DAG it was solved for, so that a later start can tell whether the catalog still holds those
 * DAGs. Stateless, thread-safe.
 */
public final class DagDigest {
    private DagDigest() {}

    /** The fingerprint of {@code dag}. */
    public static String of(CatalogDag dag) {
        StringBuilder text = new StringBuilder(32 * (dag.tasks().size() + dag.edges().size()));
        for (CatalogTask t : dag.tasks()) {
            text.append("t\u0000").append(t.id()).append('\u0000').append(Double.toString(t.ops())).append('\n');
        }
        for (CatalogEdge e : dag.edges()) {
            text.append("e\u0000").append(e.from()).append('\u0000').append(e.to()).append('\u0000')
                    .append(Double.toString(e.bytes())).append('\n');
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("BUG: every Java platform has SHA-256", e);
        }
    }

    /** The fingerprint of every DAG of {@code dags}, by model (sorted). */
    public static Map<String, String> of(Map<String, CatalogDag> dags) {
        Map<String, String> out = new TreeMap<>();
        dags.forEach((model, dag) -> out.put(model, of(dag)));
        return out;
    }
}
