package dev.nona.controller.cluster;

import dev.nona.placement.ServerLiveness;
import dev.nona.topics.record.ServerTelemetry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The control loop's view of the cluster, kept up to date report by report: which servers are live (latest report
 * up with a compute rate above 0, and heard within the liveness timeout, {@link ServerLiveness}), the sum of their
 * compute rates and the smallest link capacity among them. A report costs $O(\log N)$ (the link capacities are a
 * sorted multiset), a check for silent servers $O(1)$ plus the servers found silent; the {@link ClusterSnapshot}
 * the optimiser needs is built only when a solve asks for it ({@link #snapshot}, $O(N \log N)$).
 *
 * <p>A change worth a re-optimisation ({@link Change}) is a server becoming live or not live (with the reason:
 * reported {@code up=false}, reported {@code opsPerSecond} 0, or silent since its last report), or a relative change
 * of the mean compute rate $\nu$ or the bottleneck link $\mu$ beyond the threshold since the last change. Not
 * thread-safe.
 */
public final class ClusterTracker {
    /** A change of the cluster: what to log and publish; {@code server} and {@code reason} when it is about one server. */
    public record Change(String description, String server, String reason) {}

    private final double defaultLinkBitsPerSecond;
    private final double threshold;
    private final ServerLiveness liveness;
    private final Map<String, Integer> index = new HashMap<>();
    private final List<ServerTelemetry> latest = new ArrayList<>();
    private boolean[] live = new boolean[0];
    /** Servers that went silent and have not reported since. */
    private boolean[] silent = new boolean[0];
    /** Servers an operator drained (they do not count in the view), by index; and their ids, known or not. */
    private boolean[] drained = new boolean[0];
    private final Set<String> drainedIds = new HashSet<>();
    private volatile int drainedCount;
    // volatile: the controller's metrics read the counts from the reporter's thread
    private volatile int liveCount;
    private volatile int silentCount;
    private double liveOps;
    /** Link capacities reported by live servers, with their counts. */
    private final TreeMap<Double, Integer> links = new TreeMap<>();
    private boolean seen;
    private double baseOps;
    private double baseLink;

    /**
     * @param defaultLinkBitsPerSecond $\mu$ while no live server reports one
     * @param threshold                relative change of $\nu$ or $\mu$ that counts, {@code > 0}
     * @param livenessTimeoutMillis    a server unheard for longer is not live, {@code > 0}
     */
    public ClusterTracker(double defaultLinkBitsPerSecond, double threshold, long livenessTimeoutMillis) {
        this.defaultLinkBitsPerSecond = defaultLinkBitsPerSecond;
        this.threshold = threshold;
        this.liveness = new ServerLiveness(livenessTimeoutMillis);
    }

    /**
     * The latest report of a server, heard at {@code now} (the liveness clock, epoch ms: see {@link TelemetryClock}); an older one (by event time)
     * than the one held is ignored. Returns the change it makes, or null.
     */
    public Change report(ServerTelemetry report, long now) {
        Integer known = index.get(report.serverId());
        int s;
        boolean wasLive = false;
        if (known == null) {
            s = latest.size();
            index.put(report.serverId(), s);
            latest.add(report);
            if (s >= live.length) {
                live = Arrays.copyOf(live, Math.max(4, 2 * s));
                silent = Arrays.copyOf(silent, live.length);
                drained = Arrays.copyOf(drained, live.length);
            }
            drained[s] = drainedIds.contains(report.serverId());
        } else {
            s = known;
            if (latest.get(s).eventTime() > report.eventTime()) {
                return null;
            }
            wasLive = live[s];
            if (silent[s]) {
                silent[s] = false;
                silentCount--;
            }
            leave(s);
            latest.set(s, report);
        }
        boolean usable = report.up() && report.opsPerSecond() > 0;
        if (usable) {
            liveness.heard(s, now);
            if (!drained[s]) {
                join(s);
            }
        } else {
            liveness.forget(s);
        }
        if (!seen) {
            if (liveCount == 0) {
                return null;
            }
            seen = true;
            rebase();
            return new Change("cluster: first view, " + liveCount + " servers up", null, null);
        }
        if (live[s] && !wasLive) {
            rebase();
            return new Change("cluster: server " + report.serverId() + " up", report.serverId(), "reported up");
        }
        if (!live[s] && wasLive) {
            String reason = !report.up() ? "reported up=false" : "reported opsPerSecond 0";
            rebase();
            return new Change("cluster: server " + report.serverId() + " down (" + reason + ")", report.serverId(), reason);
        }
        return rateChange();
    }

    /**
     * Replaces the compute speed of a known server's latest report, e.g. by the speed its outcomes showed, without
     * counting it as heard (its liveness is unchanged). A server that is down or reported 0 ops/s keeps its report.
     *
     * @return the cluster change it makes (the live servers' mean compute rate moved past the threshold), or null
     */
    public Change recalibrate(String serverId, double opsPerSecond) {
        Integer known = index.get(serverId);
        if (known == null) {
            return null;
        }
        int s = known;
        ServerTelemetry r = latest.get(s);
        if (!r.up() || r.opsPerSecond() == 0 || r.opsPerSecond() == opsPerSecond) {
            return null;
        }
        boolean wasLive = live[s];
        leave(s);
        latest.set(s, r.withOpsPerSecond(opsPerSecond));
        if (wasLive) {
            join(s);
        }
        return seen ? rateChange() : null;
    }

    /** The servers silent at {@code now} (the liveness clock, see {@link TelemetryClock}): one change each, in the order they went silent. */
    public List<Change> expire(long now) {
        List<Change> changes = new ArrayList<>();
        liveness.expire(now, s -> {
            leave(s);
            if (!silent[s]) {
                silent[s] = true;
                silentCount++;
            }
            String id = latest.get(s).serverId();
            String reason = "silent since " + Instant.ofEpochMilli(liveness.heardAt(s)) + ": no report for more than "
                    + liveness.timeoutMillis() + " ms (cluster.liveness-timeout)";
            changes.add(new Change("cluster: server " + id + " down (" + reason + ")", id, reason));
        });
        if (!changes.isEmpty()) {
            rebase();
        }
        return changes;
    }

    /**
     * The servers an operator drained: they leave the view (the solve does not count them) until a later call
     * leaves them out; ids not known yet are drained when they first report. One change per server that left or
     * rejoined the view.
     */
    public List<Change> setDrained(Set<String> serverIds) {
        Set<String> all = new TreeSet<>(drainedIds);
        all.addAll(serverIds);
        drainedIds.clear();
        drainedIds.addAll(serverIds);
        drainedCount = drainedIds.size();
        List<Change> changes = new ArrayList<>();
        for (String id : all) {
            Integer known = index.get(id);
            boolean d = drainedIds.contains(id);
            if (known == null || drained[known] == d) {
                continue;
            }
            int s = known;
            drained[s] = d;
            ServerTelemetry r = latest.get(s);
            if (d && live[s]) {
                leave(s);
                changes.add(new Change("cluster: server " + id + " drained (operator command)", id, "drained"));
            } else if (!d && !silent[s] && r.up() && r.opsPerSecond() > 0) {
                join(s);
                changes.add(new Change("cluster: server " + id + " undrained (operator command)", id, "undrained"));
            }
        }
        if (!changes.isEmpty()) {
            rebase();
        }
        return changes;
    }

    /** Servers drained by an operator (whether they report or not). */
    public int drainedCount() {
        return drainedCount;
    }

    /** When the next server goes silent if no report comes first (the liveness clock), or {@link Long#MAX_VALUE}. */
    public long nextDeadline() {
        return liveness.nextDeadline();
    }

    /** Whether server {@code serverId} is live now (known, reported up above 0 ops/s, heard, not drained). */
    public boolean isLive(String serverId) {
        Integer s = index.get(serverId);
        return s != null && live[s];
    }

    public int liveCount() {
        return liveCount;
    }

    /** Servers whose last report said up but that have not reported within the liveness timeout. */
    public int silentCount() {
        return silentCount;
    }

    /** $\nu$: mean compute rate of the live servers, 0 when none. */
    public double opsPerSecond() {
        return liveCount == 0 ? 0 : liveOps / liveCount;
    }

    /** $\mu$: the smallest link capacity a live server reports, else the default. */
    public double linkBitsPerSecond() {
        return links.isEmpty() ? defaultLinkBitsPerSecond : links.firstKey();
    }

    /** True when a solve is possible: a live server. */
    public boolean usable() {
        return liveCount > 0;
    }

    /** The cluster as the optimiser sees it ($O(N \log N)$: once per solve). */
    public ClusterSnapshot snapshot() {
        List<String> up = new ArrayList<>(liveCount);
        List<ServerTelemetry> upReports = new ArrayList<>(liveCount);
        for (int s = 0; s < latest.size(); s++) {
            if (live[s]) {
                up.add(latest.get(s).serverId());
                upReports.add(latest.get(s));
            }
        }
        return new ClusterSnapshot(up, opsPerSecond(), linkBitsPerSecond(), ClusterSnapshot.classesOf(upReports));
    }

    private void join(int s) {
        ServerTelemetry r = latest.get(s);
        live[s] = true;
        liveCount++;
        liveOps += r.opsPerSecond();
        if (r.linkBitsPerSecond() != null) {
            links.merge(r.linkBitsPerSecond(), 1, Integer::sum);
        }
    }

    private void leave(int s) {
        if (!live[s]) {
            return;
        }
        ServerTelemetry r = latest.get(s);
        live[s] = false;
        liveCount--;
        liveOps -= r.opsPerSecond();
        if (liveCount == 0) {
            liveOps = 0;
        }
        if (r.linkBitsPerSecond() != null) {
            links.computeIfPresent(r.linkBitsPerSecond(), (k, c) -> c == 1 ? null : c - 1);
        }
    }

    private Change rateChange() {
        List<String> parts = new ArrayList<>();
        if (ClusterSnapshot.relative(baseLink, linkBitsPerSecond()) > threshold) {
            parts.add("link capacity " + baseLink + " -> " + linkBitsPerSecond() + " bits/s");
        }
        if (ClusterSnapshot.relative(baseOps, opsPerSecond()) > threshold) {
            parts.add("compute rate " + baseOps + " -> " + opsPerSecond() + " ops/s");
        }
        if (parts.isEmpty()) {
            return null;
        }
        rebase();
        return new Change("cluster: " + String.join(", ", parts), null, null);
    }

    private void rebase() {
        baseOps = opsPerSecond();
        baseLink = linkBitsPerSecond();
    }
}
