package dev.nona.controller.sink;

import dev.nona.topics.record.TopicRecord;
import dev.nona.topics.serde.JsonSerde;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/** Writes a topic record with the topic serde: its {@link TopicRecord#key()} as key, its JSON as value. */
public final class TopicRecordSerializer<T extends TopicRecord> implements KafkaRecordSerializationSchema<T> {
    private static final long serialVersionUID = 1L;

    private final String topic;
    private final JsonSerde<T> serde;

    public TopicRecordSerializer(String topic, Class<T> type) {
        this.topic = topic;
        this.serde = new JsonSerde<>(type, Integer.MAX_VALUE);
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(T element, KafkaSinkContext context, Long timestamp) {
        // The broker stamps the write time: event times can be anything a producer sent, even 0.
        return new ProducerRecord<>(topic, null, null, serde.keyBytes(element), serde.serialize(element));
    }
}
