package dev.nona.controller.placement;

import dev.nona.controller.cluster.TelemetryClock;
import java.util.Objects;

/**
 * When the placement operator may place a request: once the liveness clock ({@link TelemetryClock}) has reached the
 * request's time, or while telemetry is stalled with requests flowing. Until then the request is held
 * ({@link StartupHold}, bounded by {@code placement.hold-timeout}).
 *
 * <p>A request's time $t$ is when it was made, its {@code eventTime}, but never later than its arrival
 * ({@link #requestTime}). Placing it only at a clock $c \ge t$ means a server silent since before $t - T$ (timeout
 * $T$, {@code cluster.liveness-timeout}) is never chosen for it: placement stops using every server heard last before
 * $c - T$ before it places ({@code LiveServers.expireSilent} at $c$), and $c - T \ge t - T$. That is within the rule
 * the controller promises, no stage on a server silent for longer than $T$ + 1 s, by report time. While reports flow
 * the clock is the processing time, $c = now \ge t$, and no request waits; when the controller reads requests ahead
 * of telemetry (after a broker outage, or a restore, the requests' backlog may come first) a request waits until
 * the reports made up to its time have been read.
 *
 * <p>When no report at all arrives the clock stops, and a request would wait for the hold timeout. So while the
 * telemetry stream is stalled and requests keep arriving, placement goes on with the servers last known live (the
 * documented stall rule): stalled here means no report arrived for longer than $T$ while requests flowed, that is
 * since the later of the last report's arrival and the start of the current run of requests (a gap between requests
 * longer than $T/2$ ends a run). After a broker outage the requests arrive again together with the telemetry; a new
 * run starts with them and they wait for the reports, instead of being placed on the servers known before the
 * outage, one of which may have fallen silent just before it.
 *
 * <p>Not thread safe: one per operator instance, with its clock.
 */
final class TelemetryGate {
    private final TelemetryClock clock;
    private long lastRequest = Long.MIN_VALUE;
    /** When the current run of requests started (processing time), {@link Long#MIN_VALUE} before any request. */
    private long runStart = Long.MIN_VALUE;

    TelemetryGate(TelemetryClock clock) {
        this.clock = Objects.requireNonNull(clock, "telemetry clock");
    }

    /** When a request was made: its {@code eventTime}, but never later than its arrival. */
    static long requestTime(long eventTimeMillis, long arrivalMillis) {
        return Math.min(eventTimeMillis, arrivalMillis);
    }

    /** A request arrived at {@code now} (processing time). */
    void requestArrived(long nowMillis) {
        if (lastRequest == Long.MIN_VALUE || nowMillis - lastRequest > clock.graceMillis()) {
            runStart = nowMillis;
        }
        lastRequest = Math.max(lastRequest, nowMillis);
    }

    /** Whether a request made at {@code requestTime} may be placed at {@code now}. */
    boolean admits(long requestTime, long nowMillis) {
        return clock.clock(nowMillis) >= requestTime || stalled(nowMillis);
    }

    /** Whether telemetry is stalled while requests flow: no report for longer than the timeout, nor since the run. */
    boolean stalled(long nowMillis) {
        return clock.isStalled(nowMillis) && runStart != Long.MIN_VALUE
                && nowMillis - runStart > clock.timeoutMillis();
    }

    /**
     * When, after {@code now}, a held request may be admitted without further input (processing time): when the clock
     * may move on, or when the stream counts as stalled; {@link Long#MAX_VALUE} if neither can happen without input
     * (or the stall is on already: what is still held then waits for something else).
     */
    long nextOpening(long nowMillis) {
        clock.clock(nowMillis); // what turned idle by now has
        long stall = clock.stallAt();
        if (stall != Long.MAX_VALUE && runStart != Long.MIN_VALUE) {
            stall = Math.max(stall, runStart + clock.timeoutMillis() + 1);
        }
        return Math.min(after(clock.nextChange(), nowMillis), after(stall, nowMillis));
    }

    private static long after(long at, long nowMillis) {
        return at > nowMillis ? at : Long.MAX_VALUE;
    }
}
