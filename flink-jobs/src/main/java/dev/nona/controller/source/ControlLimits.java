package dev.nona.controller.source;

import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.ServerTelemetry;
import java.io.Serializable;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The controller's own admission rules for control inputs that the topic serde already accepted: a catalog DAG
 * may hold at most {@code catalog.max-tasks} tasks and {@code catalog.max-edges} edges, and, when
 * {@code cluster.servers} is set, telemetry must come from one of those servers. A record that breaks a rule
 * becomes a dead letter whose reason names the rule, the value and the limit.
 *
 * <p>Both checks are $O(1)$ per record (list sizes, a hash-set lookup). Immutable and thread-safe.
 *
 * @param maxTasks     most tasks a catalog DAG may have, {@code >= 1}
 * @param maxEdges     most edges a catalog DAG may have, {@code >= 0}
 * @param knownServers the servers whose telemetry is accepted (copied); empty accepts every server
 */
public record ControlLimits(int maxTasks, int maxEdges, Set<String> knownServers) implements Serializable {
    private static final int LISTED_SERVERS = 5;

    public ControlLimits {
        if (maxTasks < 1) {
            throw new IllegalArgumentException("catalog.max-tasks (" + maxTasks + ") must be >= 1");
        }
        if (maxEdges < 0) {
            throw new IllegalArgumentException("catalog.max-edges (" + maxEdges + ") must be >= 0");
        }
        for (String id : knownServers) {
            if (id == null || id.isBlank()) {
                throw new IllegalArgumentException("cluster.servers holds a blank server id ('" + id + "')");
            }
        }
        knownServers = Set.copyOf(knownServers);
    }

    /**
     * Parses {@code cluster.servers}: server ids separated by commas (spaces around them ignored); an empty value
     * means every server is accepted. Blank entries (two commas in a row) and repeated ids are errors.
     */
    public static Set<String> parseServers(String value) {
        if (value == null || value.isBlank()) {
            return Set.of();
        }
        Set<String> ids = new TreeSet<>();
        for (String part : value.split(",", -1)) {
            String id = part.trim();
            if (id.isEmpty()) {
                throw new IllegalArgumentException("cluster.servers (" + value + ") has an empty server id");
            }
            if (!ids.add(id)) {
                throw new IllegalArgumentException("cluster.servers (" + value + ") lists '" + id + "' twice");
            }
        }
        return ids;
    }

    /** Why this catalog entry is too large, or {@code null} when it is within the limits. */
    public String rejection(ModelCatalogEntry entry) {
        return rejection(entry.model(), entry.dag().tasks().size(), entry.dag().edges().size());
    }

    /**
     * Why a catalog DAG of this size is too large, or {@code null} when it is within the limits: the same rule as
     * {@link #rejection(ModelCatalogEntry)}, for the counts of a value not yet parsed ({@code DagCounts}).
     */
    public String rejection(String model, int tasks, int edges) {
        if (tasks > maxTasks) {
            return "model '" + model + "' has " + tasks + " tasks, over catalog.max-tasks (" + maxTasks + ")";
        }
        if (edges > maxEdges) {
            return "model '" + model + "' has " + edges + " edges, over catalog.max-edges (" + maxEdges + ")";
        }
        return null;
    }

    /** Why telemetry from this server is not accepted, or {@code null} when it is. */
    public String rejection(ServerTelemetry status) {
        if (knownServers.isEmpty() || knownServers.contains(status.serverId())) {
            return null;
        }
        return "field 'serverId' ('" + status.serverId() + "') is not a known server (cluster.servers: "
                + describeServers() + ")";
    }

    private String describeServers() {
        String listed = knownServers.stream().sorted().limit(LISTED_SERVERS).collect(Collectors.joining(", "));
        int more = knownServers.size() - LISTED_SERVERS;
        return more > 0 ? listed + " and " + more + " more" : listed;
    }
}
