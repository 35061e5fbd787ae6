package dev.nona.controller.cluster;

import dev.nona.workload.Cluster;
import dev.nona.workload.ServerClass;
import java.util.Map;
import java.util.TreeMap;
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
 * @param classes           the up servers by class ({@link #classesOf}), in name order; empty (the default) while no
 *                          up server reports a class or a memory: the paper's cluster of identical servers
 */
public record ClusterSnapshot(List<String> upServers, double opsPerSecond, double linkBitsPerSecond,
                              List<ServerClass> classes) {
    public ClusterSnapshot {
        upServers = List.copyOf(new TreeSet<>(upServers));
        Checks.nonNegative(opsPerSecond, "opsPerSecond");
        Checks.positive(linkBitsPerSecond, "linkBitsPerSecond");
        classes = classes == null ? List.of() : List.copyOf(classes);
    }

    /** A snapshot without server classes. */
    public ClusterSnapshot(List<String> upServers, double opsPerSecond, double linkBitsPerSecond) {
        this(upServers, opsPerSecond, linkBitsPerSecond, List.of());
    }

    /**
     * The up servers by class, from their reports: per {@code serverClass} (servers that give none: class
     * {@value ServerClass#DEFAULT_NAME}) the count, the mean compute rate and the smallest memory reported
     * ({@link ServerClass#UNBOUNDED} when none gives one); empty while no server gives a class or a memory.
     */
    public static List<ServerClass> classesOf(Collection<ServerTelemetry> upReports) {
        boolean described = false;
        Map<String, double[]> byClass = new TreeMap<>(); // count, sum of rates, smallest memory
        for (ServerTelemetry s : upReports) {
            if (!(s.opsPerSecond() > 0)) {
                continue; // takes no stages
            }
            described |= s.serverClass() != null || s.memoryBytes() != null;
            double[] c = byClass.computeIfAbsent(s.serverClass() == null ? ServerClass.DEFAULT_NAME : s.serverClass(),
                    k -> new double[] {0, 0, ServerClass.UNBOUNDED});
            c[0]++;
            c[1] += s.opsPerSecond();
            if (s.memoryBytes() != null) {
                c[2] = Math.min(c[2], s.memoryBytes());
            }
        }
        if (!described) {
            return List.of();
        }
        List<ServerClass> out = new ArrayList<>();
        byClass.forEach((name, c) -> out.add(new ServerClass(name, (int) c[0], c[1] / c[0], c[2])));
        return out;
    }

    /**
     * The optimiser's cluster: $N$ up servers of mean rate $\nu$ and link $\mu$; when they report classes, those
     * (servers of rate 0 left out: they take no stages). Requires a usable snapshot.
     */
    public Cluster cluster() {
        return classes.isEmpty() ? new Cluster(upServers.size(), opsPerSecond, linkBitsPerSecond)
                : Cluster.ofClasses(classes, linkBitsPerSecond, null);
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
        List<ServerTelemetry> upReports = latest.stream().filter(ServerTelemetry::up).toList();
        return new ClusterSnapshot(up, nu, Double.isInfinite(link) ? defaultLinkBitsPerSecond : link,
                classesOf(upReports));
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
        if (!classNames(before.classes).equals(classNames(classes))) {
            parts.add("server classes " + classNames(before.classes) + " -> " + classNames(classes));
        }
        return parts.isEmpty() ? null : "cluster: " + String.join(", ", parts);
    }

    private static List<String> classNames(List<ServerClass> classes) {
        return classes.stream().map(c -> c.name() + " x" + c.count()).toList();
    }

    static double relative(double before, double now) {
        return before == now ? 0 : Math.abs(now - before) / Math.max(Math.abs(before), Double.MIN_NORMAL);
    }
}
