package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.testing.InProcessKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Server liveness on a real in-process KRaft broker and a Flink MiniCluster, with {@code cluster.liveness-timeout}
 * 2 s. Three servers warm for Fig. 1's model report every 250 ms; requests arrive at 40/s (event time = wall time
 * of sending). After a while s0 stops reporting (it dies silently) and s2 reports {@code up=false} and stops. No
 * request sent more than timeout + 1 s after s0's last report is placed on s0, none sent more than 1 s after s2's
 * {@code up=false} report on s2 (the 1 s covers the two topics' separate paths into the job: Flink does not order
 * records of different sources), and both had stages before. The control loop publishes a {@code CLUSTER_CHANGED}
 * event naming s0 as silent.
 */
final class ServerLivenessITCase {
    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    private static final long TIMEOUT = 2_000;
    private static final long SLACK = 1_000;

    private final JsonSerde<InferenceRequest> requests = new JsonSerde<>(InferenceRequest.class, 1 << 20);
    private final JsonSerde<ServerTelemetry> telemetry = new JsonSerde<>(ServerTelemetry.class, 1 << 20);
    private final JsonSerde<ModelCatalogEntry> catalog = new JsonSerde<>(ModelCatalogEntry.class, 1 << 20);
    private final JsonSerde<PlacementDecision> decisions = new JsonSerde<>(PlacementDecision.class, 1 << 20);
    private final JsonSerde<ControllerEvent> events = new JsonSerde<>(ControllerEvent.class, 1 << 20);

    @Test
    void silentServer_andServerReportingDown_receiveNoStagesAfterwards() throws Exception {
        ControllerConfig config = ControllerConfig.fromMap(Map.ofEntries(
                Map.entry("bootstrap.servers", KAFKA.bootstrapServers()),
                Map.entry("controller.id", "liveness-" + UUID.randomUUID()),
                Map.entry("rates.window", "1s"),
                Map.entry("watermark.out-of-orderness", "0ms"),
                Map.entry("watermark.idleness", "300ms"),
                Map.entry("checkpoint.interval", "0ms"),
                Map.entry("cluster.liveness-timeout", TIMEOUT + "ms"),
                Map.entry("flink.restart-strategy.type", "none")));
        ControllerConfig.Topics t = config.topics();
        try (Admin admin = KAFKA.admin()) {
            admin.createTopics(List.of(
                    new NewTopic(t.requests(), 1, (short) 1), new NewTopic(t.telemetry(), 1, (short) 1),
                    new NewTopic(t.catalog(), 1, (short) 1), new NewTopic(t.decisions(), 1, (short) 1),
                    new NewTopic(t.tables(), 1, (short) 1), new NewTopic(t.events(), 1, (short) 1),
                    new NewTopic(t.deadLetters(), 1, (short) 1))).all().get();
        }
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer()) {
            producer.send(new ProducerRecord<>(t.catalog(), "fig1".getBytes(),
                    catalog.serialize(TestingCluster.entry("fig1", TestingCluster.figure1())))).get();
            report(producer, t, "s0", true);
            report(producer, t, "s1", true);
            report(producer, t, "s2", true);
            var env = ControllerEnvironment.create(config);
            ControllerJob.build(env, config);
            JobClient job = env.executeAsync("liveness-it");
            try {
                // the timeline starts once the job places requests (its start-up is not part of the test)
                InferenceRequest warmUp = InferenceRequest.of("warm-up", "fig1", "tenant", System.currentTimeMillis(), null);
                producer.send(new ProducerRecord<>(t.requests(), warmUp.id().getBytes(), requests.serialize(warmUp))).get();
                awaitDecisions(t.decisions(), 1, Duration.ofSeconds(120));
                long s0LastReport = 0;
                long s2DownReport = 0;
                long start = System.currentTimeMillis();
                long nextReport = start;
                int i = 1;
                // 0-6 s all report; at 6 s s0 goes silent; at 8 s s2 reports up=false; requests until 14 s
                for (long now = start; now < start + 14_000; now = System.currentTimeMillis()) {
                    if (now >= nextReport) {
                        boolean s0Alive = now < start + 6_000;
                        boolean s2Up = now < start + 8_000;
                        if (s0Alive) {
                            report(producer, t, "s0", true);
                            s0LastReport = System.currentTimeMillis();
                        }
                        report(producer, t, "s1", true);
                        if (s2Up) {
                            report(producer, t, "s2", true);
                        } else if (s2DownReport == 0) {
                            report(producer, t, "s2", false);
                            s2DownReport = System.currentTimeMillis();
                        }
                        nextReport += 250;
                    }
                    InferenceRequest r = InferenceRequest.of("r-" + i++, "fig1", "tenant", System.currentTimeMillis(), null);
                    producer.send(new ProducerRecord<>(t.requests(), r.id().getBytes(), requests.serialize(r)));
                    Thread.sleep(25);
                }
                producer.flush();
                List<PlacementDecision> decided = awaitDecisions(t.decisions(), i, Duration.ofSeconds(60));
                final long silentFrom = s0LastReport + TIMEOUT + SLACK;
                final long downFrom = s2DownReport + SLACK;
                final long s0Last = s0LastReport;
                final long s2Down = s2DownReport;
                assertThat(decided).filteredOn(d -> d.eventTime() < s0Last).as("s0 used while it reported")
                        .anyMatch(d -> uses(d, "s0"));
                assertThat(decided).filteredOn(d -> d.eventTime() < s2Down).as("s2 used while it was up")
                        .anyMatch(d -> uses(d, "s2"));
                assertThat(decided).filteredOn(d -> d.eventTime() > silentFrom).as("requests after s0 went silent")
                        .hasSizeGreaterThan(50).noneMatch(d -> uses(d, "s0"));
                assertThat(decided).filteredOn(d -> d.eventTime() > downFrom).as("requests after s2 reported down")
                        .hasSizeGreaterThan(50).noneMatch(d -> uses(d, "s2"));
                List<ControllerEvent> changes = readAll(t.events(), events).stream()
                        .filter(e -> e.type() == ControllerEventType.CLUSTER_CHANGED).toList();
                assertThat(changes).as("events: %s", changes).anySatisfy(e -> {
                    assertThat(e.details()).containsEntry("server", "s0");
                    assertThat((String) e.details().get("reason")).startsWith("silent since");
                });
                assertThat(changes).anySatisfy(e -> assertThat(e.details()).containsEntry("server", "s2")
                        .containsEntry("reason", "reported up=false"));
            } finally {
                job.cancel().get();
            }
        }
    }

    private static boolean uses(PlacementDecision d, String server) {
        return d.stages().stream().map(StageAssignment::server).anyMatch(server::equals);
    }

    private void report(KafkaProducer<byte[], byte[]> producer, ControllerConfig.Topics t, String id, boolean up) {
        ServerTelemetry s = ServerTelemetry.of(id, up, TestingCluster.OPS_PER_SECOND, 0, List.of(new CachedModel("fig1", 1000)),
                1.0e10, System.currentTimeMillis(), 0.0);
        producer.send(new ProducerRecord<>(t.telemetry(), id.getBytes(), telemetry.serialize(s)));
    }

    private List<PlacementDecision> awaitDecisions(String topic, int expected, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<PlacementDecision> out;
        while ((out = readAll(topic, decisions)).size() < expected) {
            assertThat(System.nanoTime()).as("%s of %s decisions", out.size(), expected).isLessThan(deadline);
            Thread.sleep(500);
        }
        return out;
    }

    private static <T extends dev.nona.topics.record.TopicRecord> List<T> readAll(String topic, JsonSerde<T> serde) {
        return KAFKA.readFromStart(topic, false).stream().map(r -> serde.parse(r.value()).value()).toList();
    }
}
