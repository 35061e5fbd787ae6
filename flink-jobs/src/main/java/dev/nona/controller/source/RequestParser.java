package dev.nona.controller.source;

import dev.nona.topics.Topics;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import dev.nona.topics.serde.RecordLimits;
import java.io.Serializable;

/**
 * Parses the value of one {@code inference-requests} record with the topic serde; never throws on bad input: a
 * record that does not parse becomes a {@link DeadLetter} with the reason, the raw bytes (at most the topic's size
 * dead-letter cap of them, {@link RecordLimits#deadLetterRawBytes}) and where it was read.
 * Shared by the Kafka source and the pipeline benchmark, so both pay for the same serde.
 */
public final class RequestParser implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String topic;
    private final JsonSerde<InferenceRequest> serde;

    public RequestParser(String topic) {
        this.topic = topic;
        this.serde = JsonSerde.forTopic(Topics.INFERENCE_REQUESTS);
    }

    public RequestRecord parse(byte[] value, int partition, long offset) {
        Parsed<InferenceRequest> parsed = serde.parse(value);
        if (parsed.ok()) {
            return new RequestRecord(parsed.value(), null, partition, offset);
        }
        return new RequestRecord(null,
                DeadLetter.of(value, topic, partition, offset, parsed.reason(), System.currentTimeMillis(),
                        RecordLimits.deadLetterRawBytes(Topics.INFERENCE_REQUESTS)),
                partition, offset);
    }
}
