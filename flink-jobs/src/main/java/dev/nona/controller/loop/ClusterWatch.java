package dev.nona.controller.loop;

import dev.nona.controller.cluster.ClusterSnapshot;
import dev.nona.controller.cluster.ClusterTracker;
import dev.nona.controller.cluster.TelemetryClock;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.ServerTelemetry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.flink.api.common.state.MapState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster as the control loop sees it: the latest telemetry per server and the speeds learned from outcomes
 * (both checkpointed), and a {@link ClusterTracker} over them, updated per report in $O(\log N)$ and rebuilt from the
 * telemetry once after a start or a restore (every server heard at its report time). The tracker sees a server at the speed its
 * outcomes showed in place of the one it reports (a 0 stays 0).
 *
 * <p>Liveness, by report time on the telemetry stream's own clock ({@link TelemetryClock}): a server not heard from
 * within {@code cluster.liveness-timeout} is down, found by a processing-time timer at the next deadline the clock
 * can reach; a report older than the timeout when it arrives never makes a server live. When no report at all arrives
 * for longer than the timeout, one {@code TELEMETRY_STALLED} event (and {@code TELEMETRY_RESUMED} at the next report)
 * in place of every server going down. Every change of the view (up, down, silent, drained, link or speed moved) is a
 * pending cause of re-optimisation and a {@code CLUSTER_CHANGED} event naming the server and why.
 *
 * <p>Logs as the control loop. Not thread safe: used by the task thread, except the counts, which a metric reporter
 * may read.
 */
final class ClusterWatch {
    private static final Logger LOG = LoggerFactory.getLogger(ControlLoopFunction.class);

    private final ControlLoopSettings settings;
    private final MapState<String, ServerTelemetry> servers;
    private final MapState<String, Double> learnedSpeeds;
    private final Callable<Set<String>> drained;
    private final PendingCauses pending;
    private volatile ClusterTracker tracker; // volatile: the metric reporter reads its counts
    private final TelemetryClock clock;
    /** Since when (processing time) the telemetry stream is announced stalled, 0 if it is not. */
    private long stalledSince;
    /** The processing-time timer set for the next liveness deadline, 0 if none. */
    private long livenessTimer;

    /** @param drained the servers drained by an operator's command (read when the view is built) */
    ClusterWatch(ControlLoopSettings settings, MapState<String, ServerTelemetry> servers,
            MapState<String, Double> learnedSpeeds, Callable<Set<String>> drained, PendingCauses pending) {
        this.settings = Objects.requireNonNull(settings, "control loop settings");
        this.servers = Objects.requireNonNull(servers, "servers state");
        this.learnedSpeeds = Objects.requireNonNull(learnedSpeeds, "learned speeds state");
        this.drained = Objects.requireNonNull(drained, "drained servers");
        this.pending = Objects.requireNonNull(pending, "pending causes");
        this.clock = new TelemetryClock(settings.livenessTimeout().toMillis());
    }

    /**
     * A server's status: kept unless older (by event time) than the one held, so the newest wins in any order, and
     * unless it is stale (older than the liveness timeout when it arrives) for a server not live now.
     */
    void report(ServerTelemetry status, LoopIo io) throws Exception {
        report(status, TelemetryClock.NO_PARTITION, io);
    }

    /** As {@link #report(ServerTelemetry, LoopIo)}, read from {@code cluster-telemetry} partition {@code partition}. */
    void report(ServerTelemetry status, int partition, LoopIo io) throws Exception {
        long now = io.now();
        long made = TelemetryClock.reportTime(status.eventTime(), now);
        ServerTelemetry before = servers.get(status.serverId());
        if (tracker == null && before != null) {
            tracker(io); // after a restore: whether the server is live now is the rebuilt view's to say
        }
        boolean liveNow = tracker != null && tracker.isLive(status.serverId());
        boolean applies = (before == null || before.eventTime() <= status.eventTime())
                && clock.applies(made, now, liveNow);
        if (applies) {
            servers.put(status.serverId(), status);
        }
        ClusterTracker view = tracker(io);
        clock.observe(status.serverId(), partition, made, now, liveNow);
        resumed(now, io);
        if (applies) {
            changed(view.report(calibrated(status), made), io);
        }
        scheduleLiveness(io);
    }

    /**
     * The speed a server's outcomes showed ({@code ops}, ops/s) replaces the reported one; nothing for a server not
     * heard from, one reporting 0, or a speed not finite and positive.
     *
     * @return the cause of re-optimisation if it moved by more than {@code drift.threshold} from the one in use,
     *         else {@code null}
     */
    String learn(String serverId, double ops, LoopIo io) throws Exception {
        ServerTelemetry reported = servers.get(serverId);
        if (reported == null || reported.opsPerSecond() == 0 || !(ops > 0) || Double.isInfinite(ops)) {
            return null;
        }
        Double before = learnedSpeeds.get(serverId);
        double inUse = before != null ? before : reported.opsPerSecond();
        learnedSpeeds.put(serverId, ops);
        String moved = Math.abs(ops / inUse - 1) > settings.drift().threshold()
                ? String.format(Locale.ROOT, "server %s runs at %.4g ops/s (reports %.4g)", serverId, ops,
                        reported.opsPerSecond())
                : null;
        changed(tracker(io).recalibrate(serverId, ops), io);
        return moved;
    }

    /** The servers drained by an operator leave the view (and come back when no longer drained). */
    void setDrained(Set<String> serverIds, LoopIo io) throws Exception {
        for (ClusterTracker.Change change : tracker(io).setDrained(serverIds)) {
            changed(change, io);
        }
    }

    /**
     * At a processing-time timer: servers past their liveness deadline on the telemetry clock go down, or the stream
     * is announced stalled; the next deadline gets a timer.
     */
    void expire(LoopIo io) throws Exception {
        for (ClusterTracker.Change change : tracker(io).expire(clock.clock(io.now()))) {
            changed(change, io);
        }
        if (stalledSince == 0 && clock.isStalled(io.now())) {
            stalledSince = io.now();
            LOG.warn("No telemetry for more than cluster.liveness-timeout ({} ms): the {} servers last known live stay "
                    + "live until reports resume", clock.timeoutMillis(), tracker.liveCount());
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("lastReportTime", clock.progress());
            details.put("timeoutMillis", clock.timeoutMillis());
            details.put("servers", tracker.liveCount());
            io.event(ControllerEventType.TELEMETRY_STALLED, details);
        }
        if (livenessTimer <= io.now()) {
            livenessTimer = 0;
        }
        scheduleLiveness(io);
    }

    /** The cluster to solve for, or {@code null} if it is not usable (no live server). */
    ClusterSnapshot snapshot(LoopIo io) throws Exception {
        return tracker(io).usable() ? tracker.snapshot() : null;
    }

    int liveCount() {
        ClusterTracker t = tracker;
        return t == null ? 0 : t.liveCount();
    }

    int silentCount() {
        ClusterTracker t = tracker;
        return t == null ? 0 : t.silentCount();
    }

    int drainedCount() {
        ClusterTracker t = tracker;
        return t == null ? 0 : t.drainedCount();
    }

    /**
     * The view, built from the telemetry state on first use (after a start or a restore): each server heard at its
     * report time, the restore as their arrival.
     */
    private ClusterTracker tracker(LoopIo io) throws Exception {
        if (tracker == null) {
            ClusterTracker built = new ClusterTracker(settings.defaultLinkBitsPerSecond(), settings.drift().threshold(),
                    settings.livenessTimeout().toMillis());
            long now = io.now();
            built.setDrained(drained.call()); // applied before the restore: no change to report
            List<ServerTelemetry> reports = TelemetryClock.inReportOrder(servers.values());
            for (ServerTelemetry s : reports) {
                built.report(calibrated(s), TelemetryClock.reportTime(s.eventTime(), now));
            }
            clock.restore(reports, now);
            built.expire(clock.clock(now)); // silent before the restore: announced then, not again
            tracker = built;
            livenessTimer = 0;
            scheduleLiveness(io);
        }
        return tracker;
    }

    /** The status with the speed the server's outcomes showed in place of the reported one (a 0 stays 0). */
    private ServerTelemetry calibrated(ServerTelemetry status) throws Exception {
        Double learned = learnedSpeeds.get(status.serverId());
        return learned == null || status.opsPerSecond() == 0 ? status : status.withOpsPerSecond(learned);
    }

    /** Reports arrive again after a stall: say so once. */
    private void resumed(long now, LoopIo io) {
        if (stalledSince == 0) {
            return;
        }
        LOG.info("Telemetry resumed after {} ms", now - stalledSince);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("stalledForMillis", now - stalledSince);
        details.put("servers", tracker.liveCount());
        stalledSince = 0;
        io.event(ControllerEventType.TELEMETRY_RESUMED, details);
    }

    /**
     * A processing-time timer at the next liveness deadline the telemetry clock can reach, or else when the stream
     * counts as stalled, unless one is set for it or earlier.
     */
    private void scheduleLiveness(LoopIo io) {
        long deadline = Math.min(clock.reaches(tracker.nextDeadline()),
                stalledSince == 0 ? clock.stallAt() : Long.MAX_VALUE);
        if (deadline != Long.MAX_VALUE && (livenessTimer == 0 || deadline < livenessTimer || livenessTimer <= io.now())) {
            livenessTimer = deadline;
            io.processingTimer(deadline);
        }
    }

    private void changed(ClusterTracker.Change change, LoopIo io) throws Exception {
        if (change == null) {
            return;
        }
        pending.markPending(change.description());
        LOG.info("Cluster changed: {} ({} servers live)", change.description(), tracker.liveCount());
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("change", change.description());
        details.put("servers", tracker.liveCount());
        details.put("linkBitsPerSecond", tracker.linkBitsPerSecond());
        if (change.server() != null) {
            details.put("server", change.server());
            details.put("reason", change.reason());
        }
        io.event(ControllerEventType.CLUSTER_CHANGED, details);
    }
}
