package dev.nona.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.local.KafkaRelayJob;
import dev.nona.local.LocalFlinkCluster;
import dev.nona.local.LocalKafkaBroker;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.JobID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exactly once through failure on a real multi-process Flink session cluster (a JobManager and two
 * TaskManagers, each its own JVM) and a real KRaft broker in its own JVM: a stateful relay job with a
 * transactional Kafka sink, 100,000 records, and mid-stream a {@code kill -9} of a TaskManager, or a broker
 * restart. A read_committed reader must see every record once: lost 0, duplicates 0, per-key state intact.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class ExactlyOnceFailoverIT {

    private static final Logger LOG = LoggerFactory.getLogger(ExactlyOnceFailoverIT.class);
    private static final int RECORDS = 100_000;
    private static final int KEYS = 64;
    private static final int RATE = 8_000;

    private LocalKafkaBroker broker;
    private LocalFlinkCluster flink;

    @BeforeAll
    void startBrokerAndCluster() {
        broker = LocalKafkaBroker.builder().build().start();
        flink = LocalFlinkCluster.builder().taskManagers(2).slotsPerTaskManager(2).build().start();
    }

    @AfterAll
    void stopAll() {
        if (flink != null) {
            flink.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void exactlyOnce_killNineOfTaskManagerMidStream_noLossNoDuplicates() throws Exception {
        JobID job = startRelay("tm-kill");
        try (PacedProducer producer = new PacedProducer(broker.bootstrapServers(), "tm-kill-in", RECORDS, KEYS, RATE).start()) {
            producer.awaitSent(RECORDS / 3);
            long killedAt = System.nanoTime();
            flink.killTaskManager(0);
            awaitRestarted(job);
            flink.awaitRunning(job, Duration.ofSeconds(90));
            LOG.info("job running again {} ms after kill -9, {} records sent so far",
                    (System.nanoTime() - killedAt) / 1_000_000, producer.sent());
            producer.join();
        }
        RelayOutputCheck check = readOutput("tm-kill-out");
        flink.cancel(job);
        flink.addTaskManager();

        assertThat(flink.rest().jobMetric(job.toHexString(), "numRestarts").orElse(0.0)).isGreaterThanOrEqualTo(1.0);
        assertExactlyOnce(check);
    }

    @Test
    void exactlyOnce_brokerRestartMidStream_noLossNoDuplicates() throws Exception {
        JobID job = startRelay("broker-restart");
        try (PacedProducer producer =
                new PacedProducer(broker.bootstrapServers(), "broker-restart-in", RECORDS, KEYS, RATE).start()) {
            producer.awaitSent(RECORDS / 2);
            long stoppedAt = System.nanoTime();
            broker.stop();
            Thread.sleep(2_000);
            broker.start();
            LOG.info("broker back {} ms after stop, {} records sent so far",
                    (System.nanoTime() - stoppedAt) / 1_000_000, producer.sent());
            producer.join();
        }
        RelayOutputCheck check = readOutput("broker-restart-out");
        flink.cancel(job);

        assertThat(broker.starts()).isGreaterThanOrEqualTo(2);
        assertExactlyOnce(check);
    }

    private JobID startRelay(String name) {
        KafkaTestClients.createTopics(broker.bootstrapServers(), 2, name + "-in", name + "-out");
        JobID job = flink.submit(JobJar.path(), KafkaRelayJob.class.getName(), 2,
                "--bootstrap", broker.bootstrapServers(), "--input", name + "-in", "--output", name + "-out",
                "--group", name, "--checkpoint-interval-ms", "1000");
        flink.awaitRunning(job, Duration.ofSeconds(60));
        return job;
    }

    private void awaitRestarted(JobID job) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (flink.rest().jobMetric(job.toHexString(), "numRestarts").orElse(0.0) < 1.0
                && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
    }

    private RelayOutputCheck readOutput(String topic) {
        List<ConsumerRecord<String, String>> out =
                KafkaTestClients.readAll(broker.bootstrapServers(), topic, RECORDS, Duration.ofSeconds(120));
        RelayOutputCheck check = RelayOutputCheck.of(out, RECORDS);
        LOG.info("{}: {} records read_committed, lost {}, duplicates {}, broken sequences {}", topic,
                check.records(), check.lost(), check.duplicates(), check.brokenSequences().size());
        return check;
    }

    private static void assertExactlyOnce(RelayOutputCheck check) {
        assertThat(check.lost()).as("lost records").isZero();
        assertThat(check.duplicates()).as("duplicate records").isZero();
        assertThat(check.records()).isEqualTo(RECORDS);
        assertThat(check.brokenSequences()).as("keys whose state-kept sequence broke").isEmpty();
    }
}
