package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.topics.testing.InProcessKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.apache.flink.core.execution.JobClient;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code control.slot-sharing-group} on the embedded default (the job's own MiniCluster, as {@code bin/nona run}
 * starts it, not a shared test cluster): the job needs a slot more than its parallelism and gets it, so it runs and
 * decides every request. Without the extra slot the job would wait for a slot that never comes.
 */
final class ControlSlotSharingGroupITCase {
    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    @Test
    void embedded_withTheControlLoopInItsOwnSlot_decidesEveryRequest() throws Exception {
        ControllerConfig config = TestingBroker.config(KAFKA, "slot-group", "control.slot-sharing-group", "control");
        TestingBroker.createTopics(KAFKA, config.topics());
        var env = ControllerEnvironment.create(config);
        ControllerJob.build(env, config);
        JobClient job = env.executeAsync("slot-group-it");
        int n = 200;
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer();
                KafkaConsumer<byte[], byte[]> consumer = KAFKA.consumerFromStart(config.topics().decisions(), true)) {
            TestingBroker.sendClusterAndRequests(producer, config.topics(), n, System.currentTimeMillis());
            Set<String> decided = new HashSet<>();
            TestingBroker.awaitWhileRunning(job, Duration.ofSeconds(90)).until(() -> {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    decided.add(new String(r.key(), StandardCharsets.UTF_8));
                }
                return decided.size() >= n;
            });
            assertThat(decided).hasSize(n);
        } finally {
            job.cancel().get();
        }
    }
}
