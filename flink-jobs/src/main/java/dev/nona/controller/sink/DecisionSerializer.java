package dev.nona.controller.sink;

import dev.nona.controller.serde.DecisionWriter;
import dev.nona.topics.record.PlacementDecision;
import java.nio.charset.StandardCharsets;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes decisions to {@code placement-decisions}: the request id as key, the value with {@link DecisionWriter}
 * (the same bytes as the topic serde, written from cached fragments).
 */
public final class DecisionSerializer implements KafkaRecordSerializationSchema<PlacementDecision> {
    private static final long serialVersionUID = 1L;

    private final String topic;
    private transient DecisionWriter writer;

    public DecisionSerializer(String topic) {
        this.topic = topic;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(PlacementDecision element, KafkaSinkContext context, Long timestamp) {
        if (writer == null) {
            writer = new DecisionWriter();
        }
        // The broker stamps the write time: event times can be anything a producer sent, even 0.
        return new ProducerRecord<>(topic, null, null, element.requestId().getBytes(StandardCharsets.UTF_8),
                writer.write(element));
    }
}
