package dev.nona.controller.cluster;

import dev.nona.topics.record.ServerTelemetry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The clock server liveness is judged on, kept by the telemetry stream itself: one rule for the control loop
 * ({@code loop.ClusterWatch}) and the placement operator.
 *
 * <ul>
 *   <li>A report's time is when it was made, its {@code eventTime}, but never later than its arrival:
 *       {@link #reportTime}. A report older than the liveness timeout when it arrives is <em>stale</em>
 *       ({@link #isStale}): it never makes a server live (a server already live is still heard at its time).
 *   <li>The stream's progress $P$ is the newest report time seen. Silence is judged on
 *       {@link #clock}$(now) = \min(now, P + g)$ with the grace $g$ = half the timeout: while reports flow the clock
 *       is the processing time; when the controller is behind on telemetry, or no telemetry arrives at all, it runs
 *       at most $g$ past the newest report, so no live server is declared silent because the controller is catching
 *       up or the whole stream stopped. A server is silent when the stream has moved on past its last report by
 *       more than the timeout; this assumes servers report at least twice per timeout (the default: once a second
 *       against 3 s).
 *   <li>When no report at all arrived for longer than the timeout (processing time since the last arrival) the
 *       stream is stalled ({@link #isStalled}): the control loop says so once ({@code TELEMETRY_STALLED}) and
 *       placement keeps using the servers last known live.
 * </ul>
 *
 * <p>Until the first report the clock is the processing time. Not thread safe; transient: after a restore the caller
 * applies the checkpointed reports {@link #inReportOrder}, each at its report time and arriving at the restore, so a
 * server silent before the restore is silent after it.
 */
public final class TelemetryClock {
    private final long timeoutMillis;
    private long progress = Long.MIN_VALUE;
    private long lastArrival = Long.MIN_VALUE;

    /** @param timeoutMillis {@code cluster.liveness-timeout}, {@code > 0} */
    public TelemetryClock(long timeoutMillis) {
        if (timeoutMillis <= 0) {
            throw new IllegalArgumentException("cluster.liveness-timeout (" + timeoutMillis + " ms) must be > 0");
        }
        this.timeoutMillis = timeoutMillis;
    }

    /** When a report was made: its {@code eventTime}, but never later than its arrival. */
    public static long reportTime(long eventTimeMillis, long arrivalMillis) {
        return Math.min(eventTimeMillis, arrivalMillis);
    }

    /** The reports oldest first (by {@code eventTime}), the order a rebuilt view takes them in. */
    public static List<ServerTelemetry> inReportOrder(Iterable<ServerTelemetry> reports) {
        List<ServerTelemetry> out = new ArrayList<>();
        reports.forEach(out::add);
        out.sort(Comparator.comparingLong(ServerTelemetry::eventTime));
        return out;
    }

    /** Whether a report made at {@code reportTime} is older than the liveness timeout at {@code arrival}. */
    public boolean isStale(long reportTime, long arrivalMillis) {
        return arrivalMillis - reportTime > timeoutMillis;
    }

    /**
     * Whether a report made at {@code reportTime} and arriving at {@code arrival} is applied: a timely one always; a
     * stale one only to a server live now (it may keep a live server heard, never make one live).
     */
    public boolean applies(long reportTime, long arrivalMillis, boolean liveNow) {
        return liveNow || !isStale(reportTime, arrivalMillis);
    }

    /**
     * A report made at {@code reportTime} arrived at {@code arrival} (stale or not): the stream's progress moves to
     * it if newer.
     */
    public void observe(long reportTime, long arrivalMillis) {
        progress = Math.max(progress, reportTime);
        lastArrival = Math.max(lastArrival, arrivalMillis);
    }

    /** The time silence is judged at: $\min(now, P + g)$, or {@code now} before any report. */
    public long clock(long nowMillis) {
        return progress == Long.MIN_VALUE ? nowMillis : Math.min(nowMillis, progress + graceMillis());
    }

    /**
     * Whether no report arrived for longer than the timeout (processing time; false before any report). A controller
     * catching up on a backlog is behind, not stalled: reports arrive.
     */
    public boolean isStalled(long nowMillis) {
        return lastArrival != Long.MIN_VALUE && nowMillis - lastArrival > timeoutMillis;
    }

    /** When the stream counts as stalled if no report arrives before ({@link Long#MAX_VALUE} before any report). */
    public long stallAt() {
        return lastArrival == Long.MIN_VALUE ? Long.MAX_VALUE : lastArrival + timeoutMillis + 1;
    }

    /**
     * When the clock reaches {@code deadline} if no report arrives before: {@code deadline} itself if the clock can
     * get there, else {@link Long#MAX_VALUE} (only a report moves it further).
     */
    public long reaches(long deadline) {
        return deadline == Long.MAX_VALUE || progress != Long.MIN_VALUE && deadline > progress + graceMillis()
                ? Long.MAX_VALUE : deadline;
    }

    /** The newest report time seen ({@link Long#MIN_VALUE} if none). */
    public long progress() {
        return progress;
    }

    public long timeoutMillis() {
        return timeoutMillis;
    }

    private long graceMillis() {
        return timeoutMillis / 2;
    }
}
