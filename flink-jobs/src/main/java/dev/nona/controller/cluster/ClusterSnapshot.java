package dev.nona.controller.cluster;

import dev.nona.check.Checks;
import dev.nona.topics.record.ServerTelemetry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * The cluster as the optimiser sees it, derived from the latest telemetry of every server: the servers that
 * are up, their mean compute rate $\nu$ and the bottleneck link's capacity $\mu$ (the smallest capacity any
 * up server measured, or the configured default when none reports one).
 *
 * @param upServers         ids of the servers that are up, sorted (copied)
 * @param opsPerSecond      $\nu$: mean compute rate of the up servers, or 0 when none is up
 * @param linkBitsPerSecond $\mu$ in bits/s, {@code > 0}
 */
public record ClusterSnapshot(List<String> upServers, double opsPerSecond, double linkBitsPerSecond) {
    public ClusterSnapshot {
        upServers = List.copyOf(new TreeSet<>(upServers));
        Checks.nonNegative(opsPerSecond, "opsPerSecond");
        Checks.positive(linkBitsPerSecond, "linkBitsPerSecond");
    }

    /** The snapshot of the given latest statuses (one per server). */
    public static ClusterSnapshot of(Collection<ServerTelemetry> latest, double defaultLinkBitsPerSecond) {
        List<String> up = new ArrayList<>();
        double ops = 0;
        double link = Double.POSITIVE_INFINITY;
        for (ServerTelemetry s : latest) {
            if (!s.up()) {
                continue;
            }
            up.add(s.serverId());
            ops += s.opsPerSecond();
            if (s.linkBitsPerSecond() != null) {
                link = Math.min(link, s.linkBitsPerSecond());
            }
        }
        double nu = up.isEmpty() ? 0 : ops / up.size();
        return new ClusterSnapshot(up, nu, Double.isInfinite(link) ? defaultLinkBitsPerSecond : link);
    }

    /** True when a solve is possible: at least one server up with a positive compute rate. */
    public boolean usable() {
        return !upServers.isEmpty() && opsPerSecond > 0;
    }

    /**
     * What changed from {@code before} that should trigger a re-optimisation, or {@code null}: servers up or
     * down, or a relative change of $\nu$ or $\mu$ beyond {@code threshold}.
     */
    public String changeFrom(ClusterSnapshot before, double threshold) {
        if (before == null) {
            return usable() ? "cluster: first view, " + upServers.size() + " servers up" : null;
        }
        List<String> came = new ArrayList<>(upServers);
        came.removeAll(before.upServers);
        List<String> went = new ArrayList<>(before.upServers);
        went.removeAll(upServers);
        List<String> parts = new ArrayList<>();
        if (!came.isEmpty()) {
            parts.add("servers up " + came);
        }
        if (!went.isEmpty()) {
            parts.add("servers down " + went);
        }
        if (relative(before.linkBitsPerSecond, linkBitsPerSecond) > threshold) {
            parts.add("link capacity " + before.linkBitsPerSecond + " -> " + linkBitsPerSecond + " bits/s");
        }
        if (relative(before.opsPerSecond, opsPerSecond) > threshold) {
            parts.add("compute rate " + before.opsPerSecond + " -> " + opsPerSecond + " ops/s");
        }
        return parts.isEmpty() ? null : "cluster: " + String.join(", ", parts);
    }

    static double relative(double before, double now) {
        return before == now ? 0 : Math.abs(now - before) / Math.max(Math.abs(before), Double.MIN_NORMAL);
    }
}
