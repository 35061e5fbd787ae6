package dev.nona.controller.placement;

import dev.nona.controller.source.RequestRecord;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.DeadLetter;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.flink.streaming.api.operators.Output;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The startup hold's clock, for the placement operator: held requests past {@code placement.hold-timeout} become
 * dead letters, on a processing-time timer so that they expire even when no further input arrives; a hold's start
 * and end are {@code REQUESTS_HELD} and {@code REQUESTS_RELEASED} events. Which requests are held and when each is
 * due is {@link StartupHold}'s; this class only binds it to Flink's time and output.
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
    private final BooleanSupplier noServerUp;
    private final Rejecter rejecter;
    private Output<?> output;
    /** The processing-time timer set for the next held request's expiry, 0 if none. */
    private long expiryTimer;

    HoldExpiry(StartupHold hold, ProcessingTimeService time, int subtask, BooleanSupplier noServerUp, Rejecter rejecter) {
        this.hold = Objects.requireNonNull(hold, "startup hold");
        this.time = Objects.requireNonNull(time, "processing time service");
        this.subtask = subtask;
        this.noServerUp = Objects.requireNonNull(noServerUp, "no-server-up check");
        this.rejecter = Objects.requireNonNull(rejecter, "rejecter");
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

    /** The held requests past {@code placement.hold-timeout} become dead letters, with the reason. */
    void expire(long now) {
        List<RequestRecord> expired = hold.expire(now);
        if (expired.isEmpty()) {
            return;
        }
        String reason = hold.timeoutReason(noServerUp.getAsBoolean());
        for (RequestRecord record : expired) {
            rejecter.reject(record, reason, dl -> output.collect(PlacementFunction.UNPLACED, new StreamRecord<>(dl)));
        }
        hold.deadLettered(expired.size());
        LOG.warn("{} request(s) held for more than placement.hold-timeout ({} ms) became dead letters: {}",
                expired.size(), hold.timeoutMillis(), reason);
    }

    /** A hold started or ended: an event; and the timer for the next held request's expiry. */
    void changed(long now) {
        Map<String, Object> started = hold.start(now, subtask, noServerUp.getAsBoolean());
        if (started != null) {
            LOG.info("Holding requests: {} (at most {} ms each)", started.get("reason"), hold.timeoutMillis());
            event(ControllerEventType.REQUESTS_HELD, started);
        }
        Map<String, Object> ended = hold.end(now, subtask);
        if (ended != null) {
            LOG.info("Holding no more requests: {}", ended);
            event(ControllerEventType.REQUESTS_RELEASED, ended);
        }
        long at = hold.nextExpiry();
        if (at != Long.MAX_VALUE && (expiryTimer == 0 || at < expiryTimer)) {
            expiryTimer = at;
            time.registerTimer(at, this::onTimer);
        }
    }

    private void event(ControllerEventType type, Map<String, Object> details) {
        output.collect(PlacementFunction.EVENTS,
                new StreamRecord<>(ControllerEvent.of(type, System.currentTimeMillis(), details)));
    }

    /** At the timer (the task thread): expires what is due, even with no further input. */
    private void onTimer(long at) {
        if (at >= expiryTimer) {
            expiryTimer = 0;
        }
        if (output == null) { // restored requests and no input yet: the next input expires them
            return;
        }
        expire(at);
        changed(at);
    }
}
