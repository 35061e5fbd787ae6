package dev.nona.controller;

import static dev.nona.controller.LivenessTesting.uses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.testing.InProcessKafka;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Liveness by report time and the bounded startup hold, on a real in-process KRaft broker and a Flink MiniCluster
 * ({@code cluster.liveness-timeout} 2 s, {@code placement.hold-timeout} 3 s): a dead server's reports delivered 20 s
 * late (produced with record timestamps and {@code eventTime} 20 s old, as a producer's buffer delivers them after a
 * broker outage) do not revive it, also across a restore from a checkpoint; a 10 s telemetry backlog delivered at once marks no live server down; with no
 * server up, every request is dead-lettered within the hold timeout. The tests move on by what the job publishes;
 * the only waits are for its outputs, or for the wall clock to pass a point (the backlog's 10 s), each bounded.
 */
final class ReportTimeLivenessITCase {
    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    private final LivenessTesting io = new LivenessTesting(KAFKA);

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    private static final long TIMEOUT = 2_000;
    private static final long HOLD_TIMEOUT = 3_000;
    private static final int BATCH = 60;

    private final JsonSerde<InferenceRequest> requests = new JsonSerde<>(InferenceRequest.class, 1 << 20);
    private final JsonSerde<ModelCatalogEntry> catalog = new JsonSerde<>(ModelCatalogEntry.class, 1 << 20);
    private final JsonSerde<PlacementDecision> decisions = new JsonSerde<>(PlacementDecision.class, 1 << 20);
    private final JsonSerde<ControllerEvent> events = new JsonSerde<>(ControllerEvent.class, 1 << 20);
    private final JsonSerde<DeadLetter> deadLetters = new JsonSerde<>(DeadLetter.class, 1 << 22);

    /**
     * s0, s1 and s7 report every 250 ms; then s7 dies. Once the job has announced s7 silent, s7's reports made
     * 20 s before keep arriving (every 250 ms), and s9, a new server, reports after the first of them: once s9 is
     * announced up and used, no request goes to s7 and the job never announces s7 up again.
     */
    @Test
    void deadServersReports_delivered20sLate_doNotReviveIt() throws Exception {
        ControllerConfig config = config("late");
        ControllerConfig.Topics t = createTopics(config);
        Set<String> reporting = ConcurrentHashMap.newKeySet();
        reporting.addAll(List.of("s0", "s1", "s7"));
        Set<String> late = ConcurrentHashMap.newKeySet();
        ScheduledExecutorService agents = Executors.newSingleThreadScheduledExecutor();
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer()) {
            sendCatalog(producer, t);
            agents.scheduleAtFixedRate(() -> {
                long now = System.currentTimeMillis();
                reporting.forEach(id -> io.report(producer, t, id, true, now));
                late.forEach(id -> io.report(producer, t, id, true, now - 20_000));
            }, 0, 250, TimeUnit.MILLISECONDS);
            JobClient job = start(config);
            try {
                io.send(producer, t, "warm-up", 1);
                io.awaitDecisions(t.decisions(), "warm-up", 1, Duration.ofSeconds(120));
                agents.submit(() -> reporting.remove("s7")).get(); // s7 dies
                awaitEvent(t, e -> isChange(e, "s7") && reason(e).startsWith("silent since"));
                agents.submit(() -> late.add("s7")).get();
                agents.submit(() -> reporting.add("s9")).get(); // after a late report of s7 on the same partition
                awaitEvent(t, e -> isChange(e, "s9") && "reported up".equals(reason(e)));
                List<PlacementDecision> after = await().atMost(Duration.ofSeconds(60)).until(() -> {
                    io.send(producer, t, "b-" + UUID.randomUUID() + "-", BATCH);
                    return io.readAll(t.decisions(), decisions).stream().filter(d -> d.requestId().startsWith("b-")).toList();
                }, out -> out.stream().anyMatch(d -> uses(d, "s9")));
                assertThat(after).as("requests once the placement operator has seen s9 (and s7's late reports before)")
                        .noneMatch(d -> uses(d, "s7"));
                assertThat(io.readAll(t.events(), events)).as("s7 never announced up again")
                        .noneMatch(e -> isChange(e, "s7") && "reported up".equals(reason(e)));
            } finally {
                job.cancel().get();
            }
        } finally {
            agents.shutdownNow();
        }
    }

    /**
     * As the late reports above, across a restore from a checkpoint: s7 dies and is announced silent, checkpoints
     * complete, the only TaskManager is terminated and a new one started, and from then on s7's reports made 20 s
     * before keep arriving. The restored job places requests, none on s7, and never announces s7 up again.
     */
    @Test
    void deadServerStaysDead_acrossARestoreFromACheckpoint(@InjectMiniCluster MiniCluster cluster) throws Exception {
        ControllerConfig config = config("restore", "checkpoint.interval", "300ms",
                "flink.restart-strategy.type", "fixed-delay", "flink.restart-strategy.fixed-delay.attempts", "10",
                "flink.restart-strategy.fixed-delay.delay", "1s");
        ControllerConfig.Topics t = createTopics(config);
        Set<String> reporting = ConcurrentHashMap.newKeySet();
        reporting.addAll(List.of("s0", "s1", "s7"));
        Set<String> late = ConcurrentHashMap.newKeySet();
        ScheduledExecutorService agents = Executors.newSingleThreadScheduledExecutor();
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer()) {
            sendCatalog(producer, t);
            agents.scheduleAtFixedRate(() -> {
                long now = System.currentTimeMillis();
                reporting.forEach(id -> io.report(producer, t, id, true, now));
                late.forEach(id -> io.report(producer, t, id, true, now - 20_000));
            }, 0, 250, TimeUnit.MILLISECONDS);
            JobClient job = start(config);
            try {
                JobID id = job.getJobID();
                io.send(producer, t, "warm-up", 1);
                io.awaitDecisions(t.decisions(), "warm-up", 1, Duration.ofSeconds(120));
                agents.submit(() -> reporting.remove("s7")).get();
                awaitEvent(t, e -> isChange(e, "s7") && reason(e).startsWith("silent since"));
                long completed = completedCheckpoints(cluster, id);
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                        .until(() -> completedCheckpoints(cluster, id) >= completed + 2);
                cluster.terminateTaskManager(0).get();
                cluster.startTaskManager();
                agents.submit(() -> late.add("s7")).get();
                List<PlacementDecision> after = sendAndAwait(producer, t, "z-");
                assertThat(after).as("placed by the restored job").isNotEmpty().noneMatch(d -> uses(d, "s7"));
                assertThat(io.readAll(t.events(), events)).as("s7 never announced up again")
                        .noneMatch(e -> isChange(e, "s7") && "reported up".equals(reason(e)));
            } finally {
                job.cancel().get();
            }
        } finally {
            agents.shutdownNow();
        }
    }

    private static long completedCheckpoints(MiniCluster cluster, JobID id) throws Exception {
        var stats = cluster.getExecutionGraph(id).get().getCheckpointStatsSnapshot();
        return stats == null ? 0 : stats.getCounts().getNumberOfCompletedCheckpoints();
    }

    /**
     * s0, s1 and s2 report every 250 ms; then their reports stop reaching the job for 10 s and arrive at once (made
     * over those 10 s, with their timestamps), and the servers go on reporting. The job announces one stall and its
     * end and never a live server down; requests sent during the stall are placed on the servers last known live.
     */
    @Test
    void telemetryBacklogOf10s_doesNotMarkLiveServersDown() throws Exception {
        ControllerConfig config = config("backlog");
        ControllerConfig.Topics t = createTopics(config);
        List<String> servers = List.of("s0", "s1", "s2");
        Set<String> reporting = ConcurrentHashMap.newKeySet();
        reporting.addAll(servers);
        ScheduledExecutorService agents = Executors.newSingleThreadScheduledExecutor();
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer()) {
            sendCatalog(producer, t);
            agents.scheduleAtFixedRate(() -> {
                long now = System.currentTimeMillis();
                reporting.forEach(id -> io.report(producer, t, id, true, now));
            }, 0, 250, TimeUnit.MILLISECONDS);
            JobClient job = start(config);
            try {
                io.send(producer, t, "warm-up", 1);
                io.awaitDecisions(t.decisions(), "warm-up", 1, Duration.ofSeconds(120));
                long stop = agents.submit(() -> {
                    reporting.clear();
                    return System.currentTimeMillis();
                }).get();
                awaitEvent(t, e -> e.type() == ControllerEventType.TELEMETRY_STALLED);
                List<PlacementDecision> during = sendAndAwait(producer, t, "during-");
                assertThat(during.stream().flatMap(d -> d.stages().stream()).map(StageAssignment::server))
                        .as("placed on the servers last known live during the stall").isNotEmpty()
                        .allMatch(servers::contains);
                await().atMost(Duration.ofSeconds(20)).until(() -> System.currentTimeMillis() >= stop + 10_000);
                agents.submit(() -> {
                    for (long at = stop + 250; at <= stop + 10_000; at += 250) {
                        for (String id : servers) {
                            io.report(producer, t, id, true, at);
                        }
                    }
                    producer.flush();
                    reporting.addAll(servers);
                }).get();
                awaitEvent(t, e -> e.type() == ControllerEventType.TELEMETRY_RESUMED);
                List<PlacementDecision> afterwards = sendAndAwait(producer, t, "after-");
                assertThat(afterwards.stream().flatMap(d -> d.stages().stream()).map(StageAssignment::server))
                        .allMatch(servers::contains);
                List<ControllerEvent> all = io.readAll(t.events(), events);
                assertThat(all).as("no live server announced down").noneMatch(e -> e.type() == ControllerEventType.CLUSTER_CHANGED
                        && e.details().get("server") != null && reason(e).startsWith("silent since"));
                assertThat(all).filteredOn(e -> e.type() == ControllerEventType.TELEMETRY_STALLED).hasSize(1);
                assertThat(all).filteredOn(e -> e.type() == ControllerEventType.TELEMETRY_RESUMED).hasSize(1);
                assertThat(KAFKA.readFromStart(t.deadLetters(), false)).isEmpty();
            } finally {
                job.cancel().get();
            }
        } finally {
            agents.shutdownNow();
        }
    }

    /**
     * No server ever reports. Once the job holds a first request ({@code REQUESTS_HELD}), 49 more are sent: all 50
     * become dead letters naming the hold timeout within the hold timeout of being sent (plus the path's slack), none
     * gets a decision, and the hold ends with {@code REQUESTS_RELEASED} counting 50 dead letters.
     */
    @Test
    void noServerUp_everyRequestIsDeadLetteredWithinTheHoldTimeout() throws Exception {
        ControllerConfig config = config("hold");
        ControllerConfig.Topics t = createTopics(config);
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer()) {
            sendCatalog(producer, t);
            JobClient job = start(config);
            try {
                io.send(producer, t, "first", 1);
                awaitEvent(t, e -> e.type() == ControllerEventType.REQUESTS_HELD, Duration.ofSeconds(120));
                io.send(producer, t, "held-", 49);
                List<DeadLetter> letters = await().atMost(Duration.ofMillis(HOLD_TIMEOUT + 5_000))
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> io.readAll(t.deadLetters(), deadLetters), out -> out.size() >= 50);
                assertThat(letters).hasSize(50).allSatisfy(dl -> assertThat(dl.reason()).isEqualTo(
                        "held for more than placement.hold-timeout (3000 ms) while no server is up (no telemetry yet, "
                                + "or every server is down)"));
                assertThat(letters.stream().map(dl -> requests.parse(dl.raw()).value().id()).distinct()).hasSize(50);
                assertThat(io.readAll(t.decisions(), decisions)).isEmpty();
                awaitEvent(t, e -> e.type() == ControllerEventType.REQUESTS_RELEASED
                        && ((Number) e.details().get("deadLettered")).intValue() == 50
                        && ((Number) e.details().get("placed")).intValue() == 0);
            } finally {
                job.cancel().get();
            }
        }
    }

    private static ControllerConfig config(String name, String... keyValues) {
        Map<String, String> m = new HashMap<>(Map.ofEntries(
                Map.entry("bootstrap.servers", KAFKA.bootstrapServers()),
                Map.entry("controller.id", name + "-" + UUID.randomUUID()),
                Map.entry("rates.window", "1s"),
                Map.entry("watermark.out-of-orderness", "0ms"),
                Map.entry("watermark.idleness", "300ms"),
                Map.entry("checkpoint.interval", "0ms"),
                Map.entry("cluster.liveness-timeout", TIMEOUT + "ms"),
                Map.entry("placement.hold-timeout", HOLD_TIMEOUT + "ms"),
                Map.entry("flink.restart-strategy.type", "none")));
        for (String topic : List.of("requests", "telemetry", "catalog", "decisions", "tables", "events", "dead-letters")) {
            m.put("topics." + topic, name + "-" + topic);
        }
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return ControllerConfig.fromMap(m);
    }

    private static ControllerConfig.Topics createTopics(ControllerConfig config) throws Exception {
        ControllerConfig.Topics t = config.topics();
        try (Admin admin = KAFKA.admin()) {
            admin.createTopics(List.of(
                    new NewTopic(t.requests(), 1, (short) 1), new NewTopic(t.telemetry(), 1, (short) 1),
                    new NewTopic(t.catalog(), 1, (short) 1), new NewTopic(t.decisions(), 1, (short) 1),
                    new NewTopic(t.tables(), 1, (short) 1), new NewTopic(t.events(), 1, (short) 1),
                    new NewTopic(t.deadLetters(), 1, (short) 1))).all().get();
        }
        return t;
    }

    private static JobClient start(ControllerConfig config) throws Exception {
        var env = ControllerEnvironment.create(config);
        ControllerJob.build(env, config);
        return env.executeAsync(config.controllerId());
    }

    private void sendCatalog(KafkaProducer<byte[], byte[]> producer, ControllerConfig.Topics t) throws Exception {
        producer.send(new ProducerRecord<>(t.catalog(), "fig1".getBytes(),
                catalog.serialize(TestingCluster.entry("fig1", TestingCluster.figure1())))).get();
    }
    private List<PlacementDecision> sendAndAwait(KafkaProducer<byte[], byte[]> producer, ControllerConfig.Topics t,
            String prefix) {
        io.send(producer, t, prefix, BATCH);
        return io.awaitDecisions(t.decisions(), prefix, BATCH, Duration.ofSeconds(60));
    }

    private void awaitEvent(ControllerConfig.Topics t, Predicate<ControllerEvent> which) {
        awaitEvent(t, which, Duration.ofSeconds(30));
    }

    private void awaitEvent(ControllerConfig.Topics t, Predicate<ControllerEvent> which,
            Duration timeout) {
        await().atMost(timeout).pollInterval(Duration.ofMillis(250))
                .until(() -> io.readAll(t.events(), events).stream().anyMatch(which));
    }

    private static boolean isChange(ControllerEvent e, String server) {
        return e.type() == ControllerEventType.CLUSTER_CHANGED && server.equals(e.details().get("server"));
    }

    private static String reason(ControllerEvent e) {
        return e.details().get("reason") instanceof String r ? r : "";
    }

}
