package dev.nona.controller.source;

import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.InferenceRequest;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * A record read from {@code inference-requests}: the parsed request, or the dead letter it became, with where it
 * was read from (so that a later rejection, e.g. an unknown model, can still name its partition and offset).
 * Flink serialises it with {@link RequestRecordSerializer} (no Kryo, no reflection).
 *
 * @param request   the request, or {@code null} when rejected
 * @param rejected  the dead letter, or {@code null} when valid
 * @param partition the Kafka partition, or -1 when not read from Kafka
 * @param offset    the Kafka offset, or -1 when not read from Kafka
 */
@TypeInfo(RequestRecordTypeInfo.Factory.class)
public record RequestRecord(InferenceRequest request, DeadLetter rejected, int partition, long offset) {
    public RequestRecord {
        if ((request == null) == (rejected == null)) {
            throw new IllegalArgumentException("BUG: a request record holds exactly one of request and rejected");
        }
    }
}
