package dev.nona.controller;

import static dev.nona.controller.LivenessTesting.uses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.testing.InProcessKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
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
 * 2 s. Three servers warm for Fig. 1's model report every 250 ms. The test moves on by what the job publishes, not
 * by the clock: a batch of requests while all report uses s0 and s2; then s0 stops reporting (it dies silently) and,
 * once the job has announced it silent ({@code CLUSTER_CHANGED}, "silent since ..."), a second batch never uses s0
 * while s2 is still used; then s2 reports {@code up=false} and stops and, once the job has announced it down, a third
 * batch uses neither. No request is paced by sleeping and no slack is allowed for: the only waits are for the job's
 * outputs (decisions, events), each bounded by a timeout.
 */
final class ServerLivenessITCase {
    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    private final LivenessTesting io = new LivenessTesting(KAFKA);

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    private static final long TIMEOUT = 2_000;
    /** Requests per batch. */
    private static final int BATCH = 60;

    private final JsonSerde<ModelCatalogEntry> catalog = new JsonSerde<>(ModelCatalogEntry.class, 1 << 20);
    private final JsonSerde<PlacementDecision> decisions = new JsonSerde<>(PlacementDecision.class, 1 << 20);
    private final JsonSerde<ControllerEvent> events = new JsonSerde<>(ControllerEvent.class, 1 << 20);

    @Test
    void silentServer_andServerReportingDown_receiveNoStagesOnceTheJobHasSeenIt() throws Exception {
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
        // the servers' agents: one thread reports every 250 ms for the servers still reporting
        Set<String> reporting = ConcurrentHashMap.newKeySet();
        reporting.addAll(List.of("s0", "s1", "s2"));
        ScheduledExecutorService agents = Executors.newSingleThreadScheduledExecutor();
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer()) {
            producer.send(new ProducerRecord<>(t.catalog(), "fig1".getBytes(),
                    catalog.serialize(TestingCluster.entry("fig1", TestingCluster.figure1())))).get();
            agents.scheduleAtFixedRate(() -> reporting.forEach(id -> io.report(producer, t, id, true, System.currentTimeMillis())),
                    0, 250, TimeUnit.MILLISECONDS);
            var env = ControllerEnvironment.create(config);
            ControllerJob.build(env, config);
            JobClient job = env.executeAsync("liveness-it");
            try {
                // the timeline starts once the job places requests (its start-up is not part of the test)
                io.send(producer, t, "warm-up", 1);
                io.awaitDecisions(t.decisions(), "warm-up", 1, Duration.ofSeconds(120));

                List<PlacementDecision> allReporting = sendAndAwait(producer, t, "a-");
                assertThat(allReporting).as("s0 used while it reported").anyMatch(d -> uses(d, "s0"));
                assertThat(allReporting).as("s2 used while it was up").anyMatch(d -> uses(d, "s2"));

                // on the agents' thread, so that no report of s0 follows
                agents.submit(() -> reporting.remove("s0")).get();
                awaitClusterChanged(t, "s0", reason -> reason.startsWith("silent since"));
                List<PlacementDecision> s0Silent = sendAndAwait(producer, t, "b-");
                assertThat(s0Silent).as("requests after the job announced s0 silent").noneMatch(d -> uses(d, "s0"));
                assertThat(s0Silent).as("s2 still used while up").anyMatch(d -> uses(d, "s2"));

                agents.submit(() -> {
                    reporting.remove("s2");
                    io.report(producer, t, "s2", false, System.currentTimeMillis());
                }).get();
                awaitClusterChanged(t, "s2", "reported up=false"::equals);
                List<PlacementDecision> s2Down = sendAndAwait(producer, t, "c-");
                assertThat(s2Down).as("requests after the job announced s2 down")
                        .noneMatch(d -> uses(d, "s0")).noneMatch(d -> uses(d, "s2"));
            } finally {
                job.cancel().get();
            }
        } finally {
            agents.shutdownNow();
        }
    }

    /** Sends {@link #BATCH} requests named {@code prefix + i} and returns their decisions, once all are decided. */
    private List<PlacementDecision> sendAndAwait(KafkaProducer<byte[], byte[]> producer, ControllerConfig.Topics t,
            String prefix) {
        io.send(producer, t, prefix, BATCH);
        return io.awaitDecisions(t.decisions(), prefix, BATCH, Duration.ofSeconds(60));
    }

    /** Waits for the control loop's {@code CLUSTER_CHANGED} event naming {@code server} with a matching reason. */
    private void awaitClusterChanged(ControllerConfig.Topics t, String server, Predicate<String> reason) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> assertThat(io.readAll(t.events(), events))
                        .filteredOn(e -> e.type() == ControllerEventType.CLUSTER_CHANGED)
                        .as("CLUSTER_CHANGED events naming %s", server)
                        .anyMatch(e -> server.equals(e.details().get("server"))
                                && e.details().get("reason") instanceof String r && reason.test(r)));
    }

}
