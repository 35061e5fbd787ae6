package dev.nona.controller;

import static org.awaitility.Awaitility.await;

import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.testing.InProcessKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.core.execution.JobClient;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.awaitility.core.ConditionFactory;

/** What the ITCases on the in-process broker share: a controller config of their own, its topics, the inputs. */
final class TestingBroker {
    private static final JsonSerde<InferenceRequest> REQUESTS = new JsonSerde<>(InferenceRequest.class, 1 << 20);
    private static final JsonSerde<ServerTelemetry> TELEMETRY = new JsonSerde<>(ServerTelemetry.class, 1 << 20);
    private static final JsonSerde<ModelCatalogEntry> CATALOG = new JsonSerde<>(ModelCatalogEntry.class, 1 << 20);

    private TestingBroker() {}

    /**
     * A config with a fresh {@code controller.id} ({@code idPrefix}-uuid) and topics named after it, 1 s rate
     * windows, no restarts, and {@code keyValues} on top.
     */
    static ControllerConfig config(InProcessKafka kafka, String idPrefix, String... keyValues) {
        Map<String, String> m = new HashMap<>(Map.of(
                "bootstrap.servers", kafka.bootstrapServers(),
                "controller.id", idPrefix + "-" + UUID.randomUUID(),
                "rates.window", "1s",
                "watermark.idleness", "300ms",
                // The servers report once, at the start: on a busy machine the job can still be placing requests
                // more than the default 3 s later, and would then hold the rest for a server that never reports.
                "cluster.liveness-timeout", "10m",
                "flink.restart-strategy.type", "none"));
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        String prefix = m.get("controller.id") + "-";
        for (String topic : List.of("requests", "telemetry", "catalog", "decisions", "tables", "events", "dead-letters",
                "outcomes", "commands")) {
            m.put("topics." + topic, prefix + topic);
        }
        return ControllerConfig.fromMap(m);
    }

    /** Creates the outcomes topic with {@code partitions} partitions (the executors' side of the loop). */
    static void createOutcomesTopic(InProcessKafka kafka, ControllerConfig.Topics t, int partitions) throws Exception {
        try (Admin admin = Admin.create(kafka.clientProperties())) {
            admin.createTopics(List.of(new NewTopic(t.outcomes(), partitions, (short) 1))).all().get();
        }
    }

    /** Creates the controller's topics, except the outcomes topic (the commands topic compacted, as in production). */
    static void createTopics(InProcessKafka kafka, ControllerConfig.Topics t) throws Exception {
        createTopics(kafka, t, 2);
    }

    /**
     * As {@link #createTopics(InProcessKafka, ControllerConfig.Topics)}, the requests and decisions topics of
     * {@code partitions} partitions (1: the decisions come in the order they were made at parallelism 1).
     */
    static void createTopics(InProcessKafka kafka, ControllerConfig.Topics t, int partitions) throws Exception {
        try (Admin admin = Admin.create(kafka.clientProperties())) {
            admin.createTopics(List.of(new NewTopic(t.requests(), partitions, (short) 1),
                    new NewTopic(t.telemetry(), 1, (short) 1),
                    new NewTopic(t.catalog(), 1, (short) 1), new NewTopic(t.decisions(), partitions, (short) 1),
                    new NewTopic(t.tables(), 1, (short) 1), new NewTopic(t.events(), 1, (short) 1),
                    new NewTopic(t.deadLetters(), 1, (short) 1),
                    new NewTopic(t.commands(), 1, (short) 1).configs(Map.of("cleanup.policy", "compact")))).all().get();
        }
    }

    /** Four idle servers s0..s3 reporting at {@code now}, the fig1 catalog entry, and requests r-0.. of fig1. */
    static void sendClusterAndRequests(KafkaProducer<byte[], byte[]> producer, ControllerConfig.Topics t, int requests,
            long now) {
        sendReports(producer, t, now);
        send(producer, t.catalog(), "fig1", CATALOG.serialize(TestingCluster.entry("fig1", TestingCluster.figure1())));
        sendRequests(producer, t.requests(), "r-", requests, now);
    }

    /** A report from each of servers s0..s3, up, made at {@code now}, flushed. */
    static void sendReports(KafkaProducer<byte[], byte[]> producer, ControllerConfig.Topics t, long now) {
        for (int i = 0; i < 4; i++) {
            send(producer, t.telemetry(), "s" + i, TELEMETRY.serialize(ServerTelemetry.of("s" + i, true,
                    TestingCluster.OPS_PER_SECOND, 0, List.of(), TestingCluster.LINK_BITS_PER_SECOND, now)));
        }
        producer.flush();
    }

    /** Requests {@code prefix}0.. of fig1, one per millisecond of event time from {@code start}, flushed. */
    static void sendRequests(KafkaProducer<byte[], byte[]> producer, String topic, String prefix, int n, long start) {
        sendRequests(producer, topic, prefix, n, start, 1);
    }

    /** Requests {@code prefix}0.. of fig1, {@code spacingMillis} apart in event time from {@code start}, flushed. */
    static void sendRequests(KafkaProducer<byte[], byte[]> producer, String topic, String prefix, int n, long start,
            long spacingMillis) {
        sendRequests(producer, topic, null, prefix, n, start, spacingMillis);
    }

    /**
     * As {@link #sendRequests(KafkaProducer, String, String, int, long, long)}, to {@code partition} (in send order,
     * so in event-time order), or by key when it is {@code null}.
     */
    static void sendRequests(KafkaProducer<byte[], byte[]> producer, String topic, Integer partition, String prefix,
            int n, long start, long spacingMillis) {
        for (int i = 0; i < n; i++) {
            String id = prefix + i;
            long eventTime = start + i * spacingMillis;
            // The record's timestamp is the request's event time, as a client with a right clock gives: the job
            // bounds a request's event time by its record timestamp plus watermark.out-of-orderness, so requests
            // sent early with a later event time (to move event time past a window) would otherwise move it only
            // as far as the wall clock allows, and a fast run would wait for a window that never closes.
            producer.send(new ProducerRecord<>(topic, partition, eventTime, id.getBytes(StandardCharsets.UTF_8),
                    REQUESTS.serialize(InferenceRequest.of(id, "fig1", "acme", eventTime, 1024L))));
        }
        producer.flush();
    }

    static void send(KafkaProducer<byte[], byte[]> producer, String topic, String key, byte[] value) {
        producer.send(new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), value));
    }

    /**
     * Awaitility's wait for outputs the test reads in its own thread (a Kafka consumer is single-threaded): the
     * condition is evaluated at once and back to back, as each evaluation polls a consumer, which blocks briefly.
     */
    static ConditionFactory awaitReading(Duration atMost) {
        return await().atMost(atMost).pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ZERO);
    }

    /** {@link #awaitReading}, failing at once, with the job's failure, when the job stops. */
    static ConditionFactory awaitWhileRunning(JobClient job, Duration atMost) {
        return awaitReading(atMost).failFast("the job stopped", () -> assertRunning(job));
    }

    /** Fails with the job's failure when it has stopped. */
    static void assertRunning(JobClient job) throws Exception {
        if (job.getJobStatus().get().isGloballyTerminalState()) {
            Throwable cause = null;
            try {
                job.getJobExecutionResult().get();
            } catch (Exception e) {
                cause = e;
            }
            throw new AssertionError("the job stopped: " + job.getJobStatus().get(), cause);
        }
    }
}
