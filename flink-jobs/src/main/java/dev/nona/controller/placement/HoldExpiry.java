package dev.nona.controller.placement;

import dev.nona.controller.source.RequestRecord;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.DeadLetter;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.LongUnaryOperator;
import org.apache.flink.streaming.api.operators.Output;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The startup hold's clock, for the placement operator: held requests past {@code placement.hold-timeout} become
 * dead letters, and held requests the telemetry gate may admit without further input ({@link TelemetryGate#nextOpening})
 * are released, on processing-time timers so that both happen even when no further input arrives; a hold's start
 * and end are {@code REQUESTS_HELD} and {@code REQUESTS_RELEASED} events. Which requests are held and when each is
 * due is {@link StartupHold}'s, why each is held the operator's; this class only binds them to Flink's time and
 * output.
 *
 * <p>It writes through the operator's {@link Output} behind the collector Flink passes in (its
 * {@code TimestampedCollector}, one per operator), because the timer fires outside any element, where a context
 * cannot write. The timer runs on the task thread (the mailbox), like the operator's elements. Logs under the
 * placement operator's logger.
 */
final class HoldExpiry {
    private static final Logger LOG = LoggerFactory.getLogger(PlacementFunction.class);

    /** Makes a held request a dead letter with the reason (the operator's own rejection, counted as unplaced). */
    interface Rejecter {
        void reject(RequestRecord record, String reason, Consumer<DeadLetter> deadLetters);
    }

    private final StartupHold hold;
    private final ProcessingTimeService time;
    private final int subtask;
    private final Function<StartupHold.Held, StartupHold.Reason> reason;
    private final Rejecter rejecter;
    private final LongUnaryOperator nextRelease;
    private final LongConsumer release;
    private Output<?> output;
    /** The earliest processing-time timer set and not fired yet, 0 if none. */
    private long timer;

    /**
     * @param reason      why a held request is held (now)
     * @param nextRelease when, after the given time, held requests may be placed without further input
     *                    (processing time; {@link Long#MAX_VALUE} if not)
     * @param release     places the held requests that can be placed at the given time (at a timer)
     */
    HoldExpiry(StartupHold hold, ProcessingTimeService time, int subtask,
            Function<StartupHold.Held, StartupHold.Reason> reason, Rejecter rejecter, LongUnaryOperator nextRelease,
            LongConsumer release) {
        this.hold = Objects.requireNonNull(hold, "startup hold");
        this.time = Objects.requireNonNull(time, "processing time service");
        this.subtask = subtask;
        this.reason = Objects.requireNonNull(reason, "hold reason");
        this.rejecter = Objects.requireNonNull(rejecter, "rejecter");
        this.nextRelease = Objects.requireNonNull(nextRelease, "next release");
        this.release = Objects.requireNonNull(release, "release");
    }

    /** Takes the operator's output from the first collector Flink passes in. */
    void bind(Collector<?> out) {
        if (output == null) {
            if (!(out instanceof Output<?> o)) {
                throw new IllegalStateException("BUG: the placement operator's collector is not an Output: "
                        + out.getClass().getName());
            }
            output = o;
        }
    }

    /** The held requests past {@code placement.hold-timeout} become dead letters, each with its reason. */
    void expire(long now) {
        List<StartupHold.Held> expired = hold.expire(now);
        if (expired.isEmpty()) {
            return;
        }
        String last = null;
        for (StartupHold.Held held : expired) {
            last = hold.timeoutReason(reason.apply(held));
            rejecter.reject(held.record(), last, this::deadLetter);
        }
        hold.deadLettered(expired.size());
        LOG.warn("{} request(s) held for more than placement.hold-timeout ({} ms) became dead letters, e.g.: {}",
                expired.size(), hold.timeoutMillis(), last);
    }

    /** Writes a dead letter to the operator's output (at a timer, where no context can). */
    void deadLetter(DeadLetter dl) {
        output.collect(PlacementFunction.UNPLACED, new StreamRecord<>(dl));
    }

    /** Writes an event to the operator's output (at a timer, where no context can). */
    void event(ControllerEvent e) {
        output.collect(PlacementFunction.EVENTS, new StreamRecord<>(e));
    }

    /** A hold started or ended: an event; and the timer for the next held request's expiry or release. */
    void changed(long now) {
        StartupHold.Held oldest = hold.oldest();
        Map<String, Object> started = oldest == null ? null : hold.start(now, subtask, reason.apply(oldest));
        if (started != null) {
            LOG.info("Holding requests: {} (at most {} ms each)", started.get("reason"), hold.timeoutMillis());
            event(ControllerEventType.REQUESTS_HELD, started);
        }
        Map<String, Object> ended = hold.end(now, subtask);
        if (ended != null) {
            LOG.info("Holding no more requests: {}", ended);
            event(ControllerEventType.REQUESTS_RELEASED, ended);
        }
        long at = hold.isEmpty() ? Long.MAX_VALUE : Math.min(hold.nextExpiry(), nextRelease.applyAsLong(now));
        if (at != Long.MAX_VALUE && (timer == 0 || at < timer)) {
            timer = at;
            time.registerTimer(at, this::onTimer);
        }
    }

    private void event(ControllerEventType type, Map<String, Object> details) {
        event(ControllerEvent.of(type, System.currentTimeMillis(), details));
    }

    /** At the timer (the task thread): expires what is due and releases what may go, even with no further input. */
    private void onTimer(long at) {
        if (at >= timer) {
            timer = 0;
        }
        if (output == null) { // restored requests and no input yet: the next input expires them
            return;
        }
        expire(at);
        release.accept(at);
        changed(at);
    }
}
