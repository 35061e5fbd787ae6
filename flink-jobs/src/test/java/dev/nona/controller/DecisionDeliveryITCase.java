package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.topics.testing.InProcessKafka;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The two delivery modes of {@code placement-decisions} against a real in-process KRaft broker, read as executors
 * must read them ({@code isolation.level=read_committed}): at least once, decisions are visible before any
 * checkpoint has completed; exactly once, with checkpoints every 100 ms, every request is decided exactly once.
 */
final class DecisionDeliveryITCase {
    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    /**
     * Checkpoints on, every 1,000 hours, none during the test: Flink takes the first one at a random time between
     * {@code execution.checkpointing.min-pause} and the interval ({@code CheckpointCoordinator.getRandomInitDelay}),
     * so with the minimum pause at 1,000 hours too it comes 1,000 hours after the start, not by chance within the
     * test's minute (about 2 in 100,000 with the default pause of 0; the test checks). Every decision must still
     * reach a read_committed reader.
     */
    @Test
    void atLeastOnce_decisionsVisibleToReadCommittedBeforeAnyCheckpoint() throws Exception {
        ControllerConfig config = config("decisions.delivery", "at-least-once", "checkpoint.interval", "1000h",
                "flink.execution.checkpointing.min-pause", "1000h");
        Run run = runAndRead(config, 500);
        assertThat(run.decided()).hasSize(500);
        assertThat(run.decided().values()).as("no failure: one decision per request").containsOnly(1);
        assertThat(run.completedCheckpoints()).as("checkpoints completed while the decisions were read").isZero();
    }

    @Test
    void exactlyOnce_100msCheckpoints_everyRequestDecidedExactlyOnce() throws Exception {
        ControllerConfig config = config("decisions.delivery", "exactly-once", "checkpoint.interval", "100ms");
        Run run = runAndRead(config, 3_000);
        assertThat(run.decided()).hasSize(3_000);
        assertThat(run.decided().values()).as("exactly once").containsOnly(1);
        assertThat(run.completedCheckpoints()).as("decisions are committed by checkpoints").isPositive();
    }

    /** Decisions per request id, and the checkpoints the job had completed when they were all read. */
    private record Run(Map<String, Integer> decided, long completedCheckpoints) {}

    private static ControllerConfig config(String... keyValues) {
        return TestingBroker.config(KAFKA, "delivery", keyValues);
    }

    /**
     * Runs the controller, sends the cluster, the catalog and {@code n} requests, and reads decisions with
     * read_committed until {@code n} distinct requests are decided (and one more second, which would show a
     * duplicate).
     */
    private Run runAndRead(ControllerConfig config, int n) throws Exception {
        TestingBroker.createTopics(KAFKA, config.topics());
        var env = ControllerEnvironment.create(config);
        ControllerJob.build(env, config);
        JobClient job = env.executeAsync("delivery-it");
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer();
                KafkaConsumer<byte[], byte[]> consumer = KAFKA.consumerFromStart(config.topics().decisions(), true)) {
            TestingBroker.sendClusterAndRequests(producer, config.topics(), n, System.currentTimeMillis());
            Map<String, Integer> decided = new HashMap<>();
            TestingBroker.awaitWhileRunning(job, Duration.ofSeconds(90)).until(() -> {
                poll(consumer, decided);
                return decided.size() >= n;
            });
            long completed = completedCheckpoints(job);
            // one more second of reading, which would show a duplicate
            TestingBroker.awaitReading(Duration.ofSeconds(2)).during(Duration.ofSeconds(1)).until(() -> {
                poll(consumer, decided);
                return true;
            });
            return new Run(decided, completed);
        } finally {
            job.cancel().get();
        }
    }

    /** Completed checkpoints of the job, from the MiniCluster's REST API ({@code /jobs/<id>/checkpoints}). */
    private static long completedCheckpoints(JobClient job) throws Exception {
        Configuration conf = FLINK.getClientConfiguration();
        URI uri = URI.create("http://" + conf.get(RestOptions.ADDRESS) + ":" + conf.get(RestOptions.PORT) + "/jobs/"
                + job.getJobID() + "/checkpoints");
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", uri, response.body()).isEqualTo(200);
        return new ObjectMapper().readTree(response.body()).path("counts").path("completed").asLong(-1);
    }

    private static void poll(KafkaConsumer<byte[], byte[]> consumer, Map<String, Integer> decided) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
            decided.merge(new String(r.key(), StandardCharsets.UTF_8), 1, Integer::sum);
        }
    }
}
