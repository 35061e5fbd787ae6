package dev.nona.controller.source;

import org.apache.flink.api.common.eventtime.SerializableTimestampAssigner;
import org.apache.flink.api.common.eventtime.TimestampAssigner;

/**
 * The event-time timestamp of a request on the request path: its {@code eventTime}, but never more than
 * {@code maxAheadMillis} (the allowed out-of-orderness) after the Kafka record's timestamp. A client whose clock
 * runs ahead cannot move the watermark for everyone: without the bound, one request stamped an hour in the future
 * would push the watermark an hour ahead and every later request from correct clocks would be late (uncounted by
 * the rate estimators). The request itself is still placed, and its decision still carries its own
 * {@code eventTime}; only its timestamp in the job is bounded. A request read without a record timestamp (not from
 * Kafka) keeps its event time. A rejected record gets 0, so it never moves the watermark.
 *
 * <p>The bound trusts the record timestamp: with {@code message.timestamp.type=CreateTime} (Kafka's default) it is
 * the producer's clock, so a producer whose own clock is skewed is bounded only by the broker's
 * {@code message.timestamp.after.max.ms}; {@code LogAppendTime} on {@code inference-requests} makes it the broker's.
 */
public final class RequestTimestamps implements SerializableTimestampAssigner<RequestRecord> {
    private static final long serialVersionUID = 1L;

    private final long maxAheadMillis;

    /** @param maxAheadMillis how far an event time may run ahead of its record's timestamp, {@code >= 0} */
    public RequestTimestamps(long maxAheadMillis) {
        if (maxAheadMillis < 0) {
            throw new IllegalArgumentException("max ahead (" + maxAheadMillis + " ms) must be >= 0");
        }
        this.maxAheadMillis = maxAheadMillis;
    }

    @Override
    public long extractTimestamp(RequestRecord record, long recordTimestamp) {
        if (record.request() == null) {
            return 0L;
        }
        long eventTime = record.request().eventTime();
        if (recordTimestamp == TimestampAssigner.NO_TIMESTAMP || recordTimestamp < 0) {
            return eventTime;
        }
        long bound = recordTimestamp + maxAheadMillis;
        return bound < recordTimestamp ? eventTime : Math.min(eventTime, bound); // overflow: no bound
    }
}
