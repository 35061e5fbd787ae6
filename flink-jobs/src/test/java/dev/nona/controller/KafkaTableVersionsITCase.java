package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.record.SchemaVersions;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.testing.InProcessKafka;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The newest table version of one controller on a real {@code placement-tables} topic, read backwards from the end
 * of each partition: found when other controllers' tables follow it by more than a step, 0 for a controller with
 * none or a topic that does not exist.
 */
final class KafkaTableVersionsITCase {
    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    private final JsonSerde<PlacementTableRecord> tables = new JsonSerde<>(PlacementTableRecord.class, 1 << 20);

    @Test
    void newest_perController_acrossPartitions_andFarBehindOtherControllersTables() throws Exception {
        String topic = "tables-" + UUID.randomUUID();
        try (var admin = KAFKA.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
        }
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer()) {
            for (int v = 1; v <= 5; v++) {
                send(producer, topic, 0, "a", v);
            }
            for (int v = 1; v <= 3 * KafkaTableVersions.CHUNK + 7; v++) { // b's tables bury a's v5
                send(producer, topic, 0, "b", 100 + v);
            }
            send(producer, topic, 1, "c", 9);
            producer.send(new ProducerRecord<>(topic, 1, "c".getBytes(StandardCharsets.UTF_8), null)); // tombstone
            producer.flush();
        }
        assertThat(reader(topic, "a").newest()).isEqualTo(5);
        assertThat(reader(topic, "b").newest()).isEqualTo(100 + 3 * KafkaTableVersions.CHUNK + 7);
        assertThat(reader(topic, "c").newest()).as("a tombstone hides nothing older").isEqualTo(9);
        assertThat(reader(topic, "none").newest()).isZero();
        assertThat(reader("no-such-topic-" + UUID.randomUUID(), "a").newest()).isZero();
    }

    private KafkaTableVersions reader(String topic, String controllerId) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        return new KafkaTableVersions(p, topic, controllerId);
    }

    private void send(KafkaProducer<byte[], byte[]> producer, String topic, int partition, String id, long version) {
        byte[] value = tables.serialize(new PlacementTableRecord(SchemaVersions.CURRENT, id, version, 1_000, "{}"));
        producer.send(new ProducerRecord<>(topic, partition, id.getBytes(StandardCharsets.UTF_8), value));
    }
}
