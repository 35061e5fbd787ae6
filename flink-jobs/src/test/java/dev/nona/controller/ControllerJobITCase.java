package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.record.TopicRecord;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.testing.InProcessKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole controller on a Flink MiniCluster against a real in-process KRaft broker: telemetry and the catalog
 * first, then requests whose rate shifts from 5/s to 150/s, with malformed, wrong-version and unknown-model
 * records mixed in. Checks: a new table within two windows of the shift (and it is used), a decision for every
 * valid request (read_committed, exactly once), a dead letter for every bad record, and no restart.
 */
final class ControllerJobITCase {
    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    private static final long BASE = 1_700_000_000_000L; // aligned to the 1 s window
    private static final long WINDOW = 1000;
    /** How often the test reads an output topic while it waits. */
    private static final Duration POLL = Duration.ofMillis(200);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final JsonSerde<InferenceRequest> requests = new JsonSerde<>(InferenceRequest.class, 1 << 20);
    private final JsonSerde<ServerTelemetry> telemetry = new JsonSerde<>(ServerTelemetry.class, 1 << 20);
    private final JsonSerde<ModelCatalogEntry> catalog =
            new JsonSerde<>(ModelCatalogEntry.class, 1 << 20);
    private final JsonSerde<PlacementDecision> decisions = new JsonSerde<>(PlacementDecision.class, 1 << 20);
    private final JsonSerde<ControllerEvent> events = new JsonSerde<>(ControllerEvent.class, 1 << 20);
    private final JsonSerde<DeadLetter> deadLetters = new JsonSerde<>(DeadLetter.class, 1 << 20);
    private final JsonSerde<PlacementTableRecord> tables = new JsonSerde<>(PlacementTableRecord.class, 1 << 24);

    @Test
    void rateShift_newTableWithinTwoWindows_everyValidRequestDecided_badRecordsDeadLettered_noRestart() throws Exception {
        ControllerConfig config = ControllerConfig.fromMap(Map.ofEntries(
                Map.entry("bootstrap.servers", KAFKA.bootstrapServers()),
                Map.entry("controller.id", "it-" + UUID.randomUUID()),
                Map.entry("rates.window", "1s"),
                Map.entry("watermark.out-of-orderness", "0ms"),
                Map.entry("watermark.idleness", "300ms"),
                Map.entry("drift.threshold", "0.5"),
                Map.entry("drift.windows", "2"),
                Map.entry("drift.debounce", "0ms"),
                Map.entry("checkpoint.interval", "300ms"),
                Map.entry("decisions.delivery", "exactly-once"),
                Map.entry("cluster.liveness-timeout", "10m"), // the servers report once, at the start
                // the uniform-mapping model's table for Fig. 1 changes with the rate shift below (it splits at the higher
                // rate); the default model (controller-mapping) keeps Fig. 1 whole on 4 servers at 10 Gbit/s at every rate
                Map.entry("solver.cost-model", "server-queueing"),
                Map.entry("flink.restart-strategy.type", "none")));
        createTopics(config.topics());
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer()) {
            for (int i = 0; i < 4; i++) {
                send(producer, config.topics().telemetry(), "s" + i, telemetry.serialize(ServerTelemetry.of("s" + i, true,
                        TestingCluster.OPS_PER_SECOND, 0, List.of(), 1.0e10, System.currentTimeMillis())));
                // made now: a report older than cluster.liveness-timeout when it arrives never marks a server up
            }
            send(producer, config.topics().telemetry(), "s9", "{\"schemaVersion\":1,\"serverId\":\"s9\"}".getBytes(StandardCharsets.UTF_8));
            send(producer, config.topics().catalog(), "fig1",
                    catalog.serialize(TestingCluster.entry("fig1", TestingCluster.figure1())));
            producer.flush();

            var env = ControllerEnvironment.create(config);
            ControllerJob.build(env, config);
            JobClient job = env.executeAsync("controller-it");
            try {
                // The control loop has both the servers and the catalog before the first request is sent. The catalog
                // comes from its own source: CLUSTER_CHANGED says nothing about it, and a catalog that reached the
                // control loop after the first windows closed would make a later window (150/s) the baseline, so no
                // drift. CATALOG_UPDATED is emitted by the operator that closes the windows: the requests sent after
                // it is read reach it after the catalog.
                awaitEvent(config, e -> e.type() == ControllerEventType.CLUSTER_CHANGED, Duration.ofSeconds(60));
                awaitEvent(config, e -> e.type() == ControllerEventType.CATALOG_UPDATED, Duration.ofSeconds(60));

                Set<String> valid = new HashSet<>();
                valid.addAll(sendRequests(producer, config, 0, 4, 5));     // 5/s in windows 0..3
                valid.addAll(sendRequests(producer, config, 4, 10, 150));  // 150/s in windows 4..9
                sendBadRequests(producer, config);
                producer.flush();

                // The table solved for the shifted rates: the first one published after a rate drift. Tables published
                // before it (the first solve, or one replacing a fallback) depend on how the first windows raced the
                // catalog and telemetry, so the test does not assume its version number.
                await().atMost(Duration.ofSeconds(30)).pollInterval(POLL).untilAsserted(() -> {
                    List<ControllerEvent> seen = readAll(config.topics().events(), events, false);
                    assertThat(shiftTable(seen)).as("a table published after the rate drift; events: %s", seen).isNotNull();
                });
                List<ControllerEvent> ev = readAll(config.topics().events(), events, false);
                ControllerEvent drift = ev.stream().filter(this::isShiftDrift).findFirst().orElseThrow();
                assertThat(((Number) drift.details().get("windowEnd")).longValue())
                        .as("drift detected at the end of the second window after the shift (drift.windows=2, windows of"
                                + " %s ms from %s); events: %s", WINDOW, BASE + 4 * WINDOW, ev)
                        .isEqualTo(BASE + 6 * WINDOW);
                ControllerEvent published = shiftTable(ev);
                long shiftVersion = ((Number) published.details().get("tableVersion")).longValue();
                long replaced = ((Number) published.details().get("currentTableVersion")).longValue();
                boolean replacedFallback = ev.stream().anyMatch(e -> e.type() == ControllerEventType.FALLBACK
                        && ((Number) e.details().get("tableVersion")).longValue() == replaced);
                assertThat(replacedFallback).as("the shift table replaces the table solved at 5/s, not a fallback (v%s);"
                        + " events: %s", replaced, ev).isFalse();
                // safe hot-swap: the table it replaces is infeasible at the new rates (any feasible table is safer, and
                // it has no objective there), or the new one is predicted better
                assertThat(published.details()).as("safe hot-swap; events: %s", ev).satisfiesAnyOf(
                        d -> assertThat(d).containsEntry("currentFeasible", false).doesNotContainKey("currentObjective"),
                        d -> {
                            assertThat(d).containsEntry("currentFeasible", true);
                            assertThat((Double) d.get("candidateObjective")).as("candidate objective")
                                    .isLessThan((Double) d.get("currentObjective"));
                        });

                // After the new table: one more window of requests at a time, until a decision names the new table (the
                // broadcast reaches the placement operator asynchronously to the event we read; at most 10 windows).
                Map<String, PlacementDecision> decided = Map.of();
                for (int w = 10; w < 20 && decided.values().stream().noneMatch(d -> d.tableVersion() == shiftVersion); w++) {
                    valid.addAll(sendRequests(producer, config, w, w + 1, 150));
                    producer.flush();
                    decided = awaitDecisions(config, valid.size(), Duration.ofSeconds(60));
                }
                assertThat(decided.keySet()).containsExactlyInAnyOrderElementsOf(valid);
                assertThat(decided.values()).allSatisfy(d ->
                        assertThat(d.stages()).extracting(s -> s.task()).containsExactlyInAnyOrder("t1", "t2", "t3", "t4"));
                // every decision explains itself: its parts are its servers, and its JCT is the table's plus its wait
                assertThat(decided.values()).allSatisfy(d -> {
                    assertThat(d.explanation()).isNotNull();
                    assertThat(d.explanation().parts()).extracting(p -> p.server()).containsExactlyInAnyOrderElementsOf(
                            d.stages().stream().map(s -> s.server()).distinct().toList());
                    assertThat(d.explanation().parts().stream().mapToInt(p -> p.stages()).sum()).isEqualTo(4);
                    assertThat(d.predictedJctSeconds()) // rounded to microseconds
                            .isCloseTo(d.explanation().tableJctSeconds() + d.explanation().waitSeconds(), within(5e-7));
                    if (d.fallback()) { // one server, no triplet drawn
                        assertThat(d.explanation().parts()).hasSize(1);
                        assertThat(d.explanation().choices()).isEmpty();
                        assertThat(d.explanation().choiceProbability()).isEqualTo(1.0);
                    }
                });
                assertThat(decided.values()).filteredOn(d -> d.tableVersion() == shiftVersion)
                        .allSatisfy(d -> assertThat(d.explanation().choices()).isNotEmpty());
                assertThat(decided.values()).filteredOn(d -> d.tableVersion() == shiftVersion)
                        .as("the new table (v%s) is used; versions used: %s; events: %s", shiftVersion,
                                decided.values().stream().map(PlacementDecision::tableVersion).distinct().sorted().toList(), ev)
                        .isNotEmpty();

                List<DeadLetter> dead = awaitDeadLetters(config, 4, Duration.ofSeconds(30));
                assertThat(dead).extracting(DeadLetter::reason).anySatisfy(r -> assertThat(r).contains("malformed JSON"));
                assertThat(dead).extracting(DeadLetter::reason).anySatisfy(r -> assertThat(r).contains("schemaVersion"));
                assertThat(dead).extracting(DeadLetter::reason)
                        .anySatisfy(r -> assertThat(r).isEqualTo("model 'nosuchmodel' is not in the model catalog"));
                assertThat(dead).filteredOn(d -> d.sourceTopic().equals(config.topics().telemetry())).hasSize(1);
                assertThat(dead).allSatisfy(d -> assertThat(d.offset()).isNotNegative());

                List<PlacementTableRecord> published2 = readAll(config.topics().tables(), tables, false).stream()
                        .filter(t -> t.version() == shiftVersion).toList();
                JsonNode table2 = published2.get(0).tableTree();
                assertThat(table2.get("rates").get("fig1").asDouble()).isEqualTo(150.0);

                assertThat(job.getJobStatus().get()).as("bad input never restarts the job").isEqualTo(JobStatus.RUNNING);
            } finally {
                job.cancel().get();
            }
        }
    }

    private boolean isTablePublished(ControllerEvent e) {
        return e.type() == ControllerEventType.TABLE_PUBLISHED;
    }

    /** A rate drift seen at the end of a window after the shift (windows 4.. run at 150/s). */
    private boolean isShiftDrift(ControllerEvent e) {
        return e.type() == ControllerEventType.DRIFT_DETECTED && "rate".equals(e.details().get("cause"))
                && ((Number) e.details().get("windowEnd")).longValue() > BASE + 4 * WINDOW;
    }

    /** The first table published for a rate drift after the shift's rate drift, or null if there is none yet. */
    private ControllerEvent shiftTable(List<ControllerEvent> ev) {
        boolean drifted = false;
        for (ControllerEvent e : ev) {
            drifted |= isShiftDrift(e);
            // a solve started before the drift (e.g. for the catalog) may still publish after it: skip that one
            if (drifted && isTablePublished(e) && String.valueOf(e.details().get("cause")).contains("rate")) {
                return e;
            }
        }
        return null;
    }

    private Set<String> sendRequests(KafkaProducer<byte[], byte[]> producer, ControllerConfig config, int fromWindow,
            int toWindow, int perWindow) {
        Set<String> ids = new HashSet<>();
        for (int w = fromWindow; w < toWindow; w++) {
            for (int i = 0; i < perWindow; i++) {
                String id = "r-" + w + "-" + i;
                long t = BASE + w * WINDOW + i * (WINDOW / perWindow);
                send(producer, config.topics().requests(), id, requests.serialize(InferenceRequest.of(id, "fig1", "acme", t, 1024L)));
                ids.add(id);
            }
        }
        return ids;
    }

    private void sendBadRequests(KafkaProducer<byte[], byte[]> producer, ControllerConfig config) {
        String topic = config.topics().requests();
        send(producer, topic, "bad-1", "{not json".getBytes(StandardCharsets.UTF_8));
        send(producer, topic, "bad-2", ("{\"schemaVersion\":99,\"id\":\"x\",\"model\":\"fig1\",\"tenant\":\"t\",\"eventTime\":"
                + (BASE + 5000) + "}").getBytes(StandardCharsets.UTF_8));
        send(producer, topic, "bad-3", requests.serialize(InferenceRequest.of("bad-3", "nosuchmodel", "acme", BASE + 5000, null)));
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, String key, byte[] value) {
        producer.send(new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), value));
    }

    private void awaitEvent(ControllerConfig config, Predicate<ControllerEvent> done, Duration timeout) {
        await().atMost(timeout).pollInterval(POLL).untilAsserted(() -> assertThat(readAll(config.topics().events(), events, false))
                .as(() -> "no such event within " + timeout + "; decisions so far (uncommitted): "
                        + readAll(config.topics().decisions(), decisions, false).size() + "; dead letters: "
                        + readAll(config.topics().deadLetters(), deadLetters, false))
                .anyMatch(done));
    }

    /** The committed decisions by request id, once there are at least {@code expected}; each request decided once. */
    private Map<String, PlacementDecision> awaitDecisions(ControllerConfig config, int expected, Duration timeout) {
        List<PlacementDecision> all = await().atMost(timeout).pollInterval(POLL)
                .until(() -> readAll(config.topics().decisions(), decisions, true), d -> d.size() >= expected);
        Map<String, PlacementDecision> byId = new HashMap<>();
        all.forEach(d -> assertThat(byId.put(d.requestId(), d)).as("exactly once: " + d.requestId()).isNull());
        return byId;
    }

    private List<DeadLetter> awaitDeadLetters(ControllerConfig config, int expected, Duration timeout) {
        return await().atMost(timeout).pollInterval(POLL)
                .until(() -> readAll(config.topics().deadLetters(), deadLetters, false), d -> d.size() >= expected);
    }

    private static <T extends TopicRecord> List<T> readAll(String topic, JsonSerde<T> serde,
            boolean readCommitted) {
        List<T> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : KAFKA.readFromStart(topic, readCommitted)) {
            var parsed = serde.parse(r.value());
            assertThat(parsed.ok()).as("output on %s parses: %s", topic, parsed).isTrue();
            out.add(parsed.value());
        }
        return out;
    }

    private static void createTopics(ControllerConfig.Topics t) throws Exception {
        try (Admin admin = KAFKA.admin()) {
            admin.createTopics(List.of(
                    // One partition: the test replays ten seconds of event time in a burst. With two, a partition
                    // marked idle (watermark.idleness) does not hold back the watermark, so the other's records ran it
                    // past requests still queued in the first; those were late, not counted, and a window short of
                    // requests drifted one window early. Production event times advance with the clock.
                    new NewTopic(t.requests(), 1, (short) 1), new NewTopic(t.telemetry(), 1, (short) 1),
                    new NewTopic(t.catalog(), 1, (short) 1), new NewTopic(t.decisions(), 2, (short) 1),
                    new NewTopic(t.tables(), 1, (short) 1), new NewTopic(t.events(), 1, (short) 1),
                    new NewTopic(t.deadLetters(), 1, (short) 1))).all().get();
        }
    }
}
