package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.DecisionPart;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.OutcomePart;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.testing.InProcessKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two server classes on a real in-process KRaft broker: two "big" servers (100 MB for model parts) and four "small"
 * ones (20 MB), all reporting the same speed. Model {@code fig1} weighs 100 MB (its tasks 10, 40, 40 and 10 MB):
 * larger than a small server, so its 40-MB tasks only ever run on a big one; model {@code chain} weighs 3 MB and
 * fits anywhere; model {@code huge} has one task of 500 MB, larger than every server. Over 10,000 requests the test
 * checks every decision: no server is given more bytes of a request than its memory, and each part's explanation
 * names its server's class; {@code huge}'s requests are dead letters naming {@code MODEL_UNPLACEABLE} and one such
 * event names the model. The test, as executor, publishes an outcome per decision with each class computing at its
 * true speed (big 2e12, small 5e11 ops/s, unlike the 1e12 both report): the {@code CALIBRATION} events must report
 * each server's effective speed as its class's.
 */
final class HeterogeneousServersITCase {
    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    private static final int REQUESTS = 10_000;
    private static final int HUGE_REQUESTS = 5;
    private static final double BIG_MEMORY = 1.0e8;
    private static final double SMALL_MEMORY = 2.0e7;
    private static final double BIG_SPEED = 2.0e12;
    private static final double SMALL_SPEED = 5.0e11;
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    private final JsonSerde<PlacementDecision> decisions = new JsonSerde<>(PlacementDecision.class, 1 << 20);
    private final JsonSerde<PlacementOutcome> outcomes = new JsonSerde<>(PlacementOutcome.class, 1 << 20);
    private final JsonSerde<ControllerEvent> events = new JsonSerde<>(ControllerEvent.class, 1 << 20);
    private final JsonSerde<DeadLetter> deadLetters = new JsonSerde<>(DeadLetter.class, 1 << 20);
    private final JsonSerde<ServerTelemetry> telemetry = new JsonSerde<>(ServerTelemetry.class, 1 << 20);
    private final JsonSerde<ModelCatalogEntry> catalog = new JsonSerde<>(ModelCatalogEntry.class, 1 << 20);
    private final JsonSerde<InferenceRequest> requests = new JsonSerde<>(InferenceRequest.class, 1 << 20);

    private static boolean big(String server) {
        return server.startsWith("big");
    }

    @Test
    void twoClasses_noPartWhereItDoesNotFit_unplaceableModelDeadLettered_perClassSpeedsLearned() throws Exception {
        ControllerConfig config = TestingBroker.config(KAFKA, "hetero");
        TestingBroker.createTopics(KAFKA, config.topics());
        TestingBroker.createOutcomesTopic(KAFKA, config.topics(), 2);
        var env = ControllerEnvironment.create(config);
        ControllerJob.build(env, config);
        JobClient job = env.executeAsync("heterogeneous-servers-it");
        Map<String, Map<String, double[]>> tasks = new HashMap<>(); // model -> task -> {ops, bytes}
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer();
                KafkaConsumer<byte[], byte[]> decided = KAFKA.consumerFromStart(config.topics().decisions(), false);
                KafkaConsumer<byte[], byte[]> eventReader = KAFKA.consumerFromStart(config.topics().events(), false);
                KafkaConsumer<byte[], byte[]> deadReader = KAFKA.consumerFromStart(config.topics().deadLetters(), false)) {
            long start = System.currentTimeMillis() - 60_000; // event times in the past: every window can close
            for (int i = 0; i < 6; i++) {
                String id = (i < 2 ? "big" : "small") + i;
                ServerTelemetry s = ServerTelemetry.of(id, true, TestingCluster.OPS_PER_SECOND, 0, List.of(),
                        TestingCluster.LINK_BITS_PER_SECOND, start, 0.0).withClass(i < 2 ? "big" : "small",
                        i < 2 ? BIG_MEMORY : SMALL_MEMORY);
                producer.send(new ProducerRecord<>(config.topics().telemetry(), null, start, id.getBytes(), telemetry.serialize(s)));
            }
            ModelCatalogEntry fig1 = ModelCatalogEntry.of("fig1", new CatalogDag("fig1",
                    List.of(new CatalogTask("t1", 1e9, 1e7), new CatalogTask("t2", 1e10, 4e7),
                            new CatalogTask("t3", 1e10, 4e7), new CatalogTask("t4", 1e9, 1e7)),
                    TestingCluster.figure1().edges()));
            ModelCatalogEntry chain = ModelCatalogEntry.of("chain", TestingCluster.chain(), 3e6);
            ModelCatalogEntry huge = ModelCatalogEntry.of("huge", new CatalogDag("huge",
                    List.of(new CatalogTask("h", 1e9, 5e8)), List.<CatalogEdge>of()));
            for (ModelCatalogEntry e : List.of(fig1, chain, huge)) {
                TestingBroker.send(producer, config.topics().catalog(), e.model(), catalog.serialize(e));
            }
            producer.flush();
            // Catalog entries reach placement in their own time (each model's entry is keyed by its name, so they
            // may come through different partitions): until a model is in the catalog there, a request of it is a
            // dead letter "not in the model catalog". Probe until each placeable model has a decision and the
            // unplaceable one a MODEL_UNPLACEABLE dead letter; without the latter, the first huge request could come
            // before its entry and be dead-lettered for the catalog instead (4 of 5 in one run).
            Map<String, PlacementDecision> first = new LinkedHashMap<>();
            int[] probe = {0};
            boolean[] hugeKnown = {false};
            TestingBroker.awaitWhileRunning(job, TIMEOUT).until(() -> {
                for (String model : List.of("fig1", "chain", "huge")) {
                    boolean known = model.equals("huge") ? hugeKnown[0]
                            : first.values().stream().anyMatch(d -> d.model().equals(model));
                    if (!known) {
                        String id = "probe-" + probe[0]++;
                        producer.send(new ProducerRecord<>(config.topics().requests(), null, start, id.getBytes(StandardCharsets.UTF_8),
                                requests.serialize(InferenceRequest.of(id, model, "acme", start, null))));
                    }
                }
                producer.flush();
                for (ConsumerRecord<byte[], byte[]> r : decided.poll(Duration.ofMillis(500))) {
                    PlacementDecision d = decisions.parse(r.value()).value();
                    first.putIfAbsent(d.requestId(), d);
                }
                for (ConsumerRecord<byte[], byte[]> r : deadReader.poll(Duration.ofMillis(100))) {
                    hugeKnown[0] |= deadLetters.parse(r.value()).value().reason().startsWith("MODEL_UNPLACEABLE");
                }
                return hugeKnown[0] && first.values().stream().map(PlacementDecision::model).distinct().count() == 2;
            });
            tasks.put("fig1", Map.of("t1", new double[] {1e9, 1e7}, "t2", new double[] {1e10, 4e7},
                    "t3", new double[] {1e10, 4e7}, "t4", new double[] {1e9, 1e7}));
            tasks.put("chain", Map.of("a", new double[] {1e9, 0.75e6}, "b", new double[] {2e9, 1.5e6},
                    "c", new double[] {1e9, 0.75e6}));
            for (int i = 0; i < REQUESTS; i++) {
                String model = i % 2 == 0 ? "fig1" : "chain";
                long t = start + i * 5L; // 200 requests/s of event time
                String id = "r-" + i;
                producer.send(new ProducerRecord<>(config.topics().requests(), null, t, id.getBytes(StandardCharsets.UTF_8),
                        requests.serialize(InferenceRequest.of(id, model, "acme", t, null))));
                if (i % 2_000 == 0 && i / 2_000 < HUGE_REQUESTS) {
                    String h = "huge-" + i;
                    producer.send(new ProducerRecord<>(config.topics().requests(), null, t, h.getBytes(StandardCharsets.UTF_8),
                            requests.serialize(InferenceRequest.of(h, "huge", "acme", t, null))));
                }
            }
            producer.flush();

            int probes = first.size();
            TestingBroker.awaitWhileRunning(job, TIMEOUT).untilAsserted(() -> {
                for (ConsumerRecord<byte[], byte[]> r : decided.poll(Duration.ofMillis(200))) {
                    PlacementDecision d = decisions.parse(r.value()).value();
                    first.putIfAbsent(d.requestId(), d);
                }
                assertThat(first.keySet().stream().filter(id -> id.startsWith("r-")).count()).isGreaterThanOrEqualTo(REQUESTS);
            });
            assertThat(first.keySet().stream().filter(id -> id.startsWith("r-")).count()).isEqualTo(REQUESTS);
            assertThat(first).hasSizeGreaterThanOrEqualTo(REQUESTS + probes);

            int tooSmall = 0;
            int partsOnSmall = 0;
            for (PlacementDecision d : first.values()) {
                Map<String, Double> bytesOn = new HashMap<>();
                for (StageAssignment s : d.stages()) {
                    bytesOn.merge(s.server(), tasks.get(d.model()).get(s.task())[1], Double::sum);
                }
                for (Map.Entry<String, Double> e : bytesOn.entrySet()) {
                    tooSmall += e.getValue() > (big(e.getKey()) ? BIG_MEMORY : SMALL_MEMORY) ? 1 : 0;
                    partsOnSmall += big(e.getKey()) ? 0 : 1;
                }
                for (DecisionPart p : d.explanation().parts()) {
                    assertThat(p.serverClass()).as("the class of %s", p.server()).isEqualTo(big(p.server()) ? "big" : "small");
                    assertThat(p.coldStart()).isEqualTo(!p.warm());
                }
            }
            System.out.printf("HeterogeneousServersITCase: %d decisions, %d parts on small servers, %d on a server too "
                    + "small for them%n", first.size(), partsOnSmall, tooSmall);
            assertThat(tooSmall).as("stages on a server whose memory cannot hold their part").isZero();
            assertThat(partsOnSmall).as("the small servers run what fits them").isPositive();

            // the unplaceable model: its requests are dead letters, one event names it
            List<DeadLetter> unplaceable = new ArrayList<>();
            TestingBroker.awaitWhileRunning(job, TIMEOUT).untilAsserted(() -> {
                for (ConsumerRecord<byte[], byte[]> r : deadReader.poll(Duration.ofMillis(200))) {
                    DeadLetter d = deadLetters.parse(r.value()).value();
                    String id = requests.parse(Base64.getDecoder().decode(d.rawBase64())).value().id();
                    if (id.startsWith("huge-")) { // not a probe's
                        unplaceable.add(d);
                    }
                }
                assertThat(unplaceable).hasSize(HUGE_REQUESTS);
            });
            assertThat(unplaceable).allSatisfy(d -> assertThat(d.reason()).isEqualTo("MODEL_UNPLACEABLE: model 'huge': "
                    + "task 'h' needs 500000000 bytes, more than the memory of every up server (largest 100000000 bytes)"));

            // the executor: each class at its true speed
            for (PlacementDecision d : first.values()) {
                TestingBroker.send(producer, config.topics().outcomes(), d.requestId(),
                        outcomes.serialize(outcomeOf(d, tasks.get(d.model()))));
            }
            producer.flush();
            Map<String, Double> learned = new HashMap<>();
            List<ControllerEvent> unplaceableEvents = new ArrayList<>();
            TestingBroker.awaitWhileRunning(job, TIMEOUT).until(() -> {
                for (ConsumerRecord<byte[], byte[]> r : eventReader.poll(Duration.ofMillis(200))) {
                    ControllerEvent e = events.parse(r.value()).value();
                    if (e.type() == ControllerEventType.MODEL_UNPLACEABLE) {
                        unplaceableEvents.add(e);
                    }
                    if (e.type() == ControllerEventType.CALIBRATION) {
                        e.details().forEach((k, v) -> {
                            if (k.startsWith("server.") && k.endsWith(".effectiveOpsPerSecond")) {
                                learned.put(k.substring(7, k.length() - 22), ((Number) v).doubleValue());
                            }
                        });
                    }
                }
                return learned.keySet().stream().anyMatch(HeterogeneousServersITCase::big)
                        && learned.keySet().stream().anyMatch(s -> !big(s)) && !unplaceableEvents.isEmpty();
            });
            System.out.printf("HeterogeneousServersITCase: learned speeds %s; %s%n", learned, unplaceableEvents.get(0).details());
            learned.forEach((server, speed) -> assertThat(speed).as(server)
                    .isCloseTo(big(server) ? BIG_SPEED : SMALL_SPEED, within((big(server) ? BIG_SPEED : SMALL_SPEED) * 0.01)));
            assertThat(unplaceableEvents.get(0).details()).containsEntry("model", "huge").containsEntry("task", "h");
        } finally {
            job.cancel().get();
        }
    }

    /** An ok outcome: one part per server of the decision, computing at its class's true speed. */
    private static PlacementOutcome outcomeOf(PlacementDecision d, Map<String, double[]> tasks) {
        Map<String, Double> opsOn = new LinkedHashMap<>();
        for (StageAssignment s : d.stages()) {
            opsOn.merge(s.server(), tasks.get(s.task())[0], Double::sum);
        }
        long at = d.eventTime();
        double total = 0;
        List<OutcomePart> parts = new ArrayList<>();
        for (Map.Entry<String, Double> e : opsOn.entrySet()) {
            double compute = e.getValue() / (big(e.getKey()) ? BIG_SPEED : SMALL_SPEED);
            long end = at + (long) Math.ceil(compute * 1000);
            parts.add(new OutcomePart(e.getKey(), at, end, false, null, compute));
            total += compute;
            at = end;
        }
        return PlacementOutcome.ok(d.requestId(), d.model(), d.tableVersion(), parts, 0, at, total);
    }
}
