package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.topics.testing.InProcessKafka;
import java.util.List;
import java.util.Map;
import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumerator.PartitionOffsetsRetrieverImpl;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Where the decision read-back starts on a fresh start, asked of a real broker through the Kafka source's own
 * offsets retriever: the first record since the job's start time, the end when there is none, the group's
 * committed offset when it has one.
 */
final class CommittedOffsetsOrSinceITCase {
    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    @Test
    void freshStart_readsFromTheFirstRecordSinceTheStartTime_committedOffsetsWin() throws Exception {
        String topic = "read-back-start";
        TopicPartition p0 = new TopicPartition(topic, 0);
        TopicPartition p1 = new TopicPartition(topic, 1);
        long now = System.currentTimeMillis();
        long since = now - 60_000;
        try (AdminClient admin = AdminClient.create(KAFKA.clientProperties());
                KafkaProducer<byte[], byte[]> producer = KAFKA.producer()) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
            for (int i = 0; i < 3; i++) { // an earlier run's decisions, ten minutes ago
                producer.send(new ProducerRecord<>(topic, 0, now - 600_000, null, new byte[] {1})).get();
            }
            for (int i = 0; i < 2; i++) {
                producer.send(new ProducerRecord<>(topic, 1, now - 600_000, null, new byte[] {1})).get();
            }
            for (int i = 0; i < 2; i++) { // this run's, written before the source first looked
                producer.send(new ProducerRecord<>(topic, 0, now, null, new byte[] {2})).get();
            }
            CommittedOffsetsOrSince start = new CommittedOffsetsOrSince(since);

            Map<TopicPartition, Long> fresh = start.getPartitionOffsets(List.of(p0, p1),
                    new PartitionOffsetsRetrieverImpl(admin, "fresh-group"));
            assertThat(fresh).containsEntry(p0, 3L) // the first of this run's
                    .containsEntry(p1, 2L); // nothing since: the end

            admin.alterConsumerGroupOffsets("restarted-group", Map.of(p1, new OffsetAndMetadata(1))).all().get();
            Map<TopicPartition, Long> restarted = start.getPartitionOffsets(List.of(p0, p1),
                    new PartitionOffsetsRetrieverImpl(admin, "restarted-group"));
            assertThat(restarted).containsEntry(p0, 3L).containsEntry(p1, 1L);
        }
    }
}
