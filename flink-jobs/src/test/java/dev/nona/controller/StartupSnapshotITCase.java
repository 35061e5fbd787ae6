package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.ControllerCommand;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.testing.InProcessKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A fresh start on a real in-process KRaft broker, as {@code bin/nona run --fresh} or {@code ControllerMain} does it
 * ({@link StartupSnapshot}, {@link ControllerMain#prepare}): a drain written before the start is in force for the
 * first request, and the newest table is not used once the catalog changed since it was solved.
 */
final class StartupSnapshotITCase {
    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    private static final Duration TIMEOUT = Duration.ofSeconds(240);
    private static final Map<String, Object> FRESH = Map.of("resumed", false, "reason", "--fresh");

    private final JsonSerde<PlacementDecision> decisions = new JsonSerde<>(PlacementDecision.class, 1 << 20);
    private final JsonSerde<ControllerEvent> events = new JsonSerde<>(ControllerEvent.class, 1 << 20);
    private final JsonSerde<ControllerCommand> commands = new JsonSerde<>(ControllerCommand.class, 1 << 20);
    private final JsonSerde<ServerTelemetry> telemetry = new JsonSerde<>(ServerTelemetry.class, 1 << 20);
    private final JsonSerde<ModelCatalogEntry> catalog = new JsonSerde<>(ModelCatalogEntry.class, 1 << 20);
    private final Map<String, PlacementDecision> decided = new LinkedHashMap<>();

    @Test
    void freshStart_aDrainWrittenBefore_holdsForTheFirstRequest_aTableForAnotherCatalog_isNotUsed() throws Exception {
        String id = "startup-" + UUID.randomUUID();
        ControllerConfig config = TestingBroker.config(KAFKA, "startup", "controller.id", id);
        // The second start reads only the requests and reports sent after it: the first start's requests, from the
        // beginning without committed offsets, would move event time past the first window and bring the new control
        // loop's own table.
        ControllerConfig latest = TestingBroker.config(KAFKA, "startup", "controller.id", id,
                "source.start-from-earliest", "false");
        ControllerConfig.Topics t = config.topics();
        TestingBroker.createTopics(KAFKA, t);
        long now = System.currentTimeMillis();
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer()) {
            // Everything is in the topics before the start: the requests are read at once, with the commands.
            ControllerCommand drain = ControllerCommand.drain("drain-s3", now, "s3", true);
            TestingBroker.send(producer, t.commands(), drain.scope(), commands.serialize(drain));
            TestingBroker.sendClusterAndRequests(producer, t, 50, now);
        }
        StartupSnapshot first = StartupSnapshot.read(config);
        assertThat(first.commands().drained()).containsExactly("s3");
        assertThat(first.models()).containsOnlyKeys("fig1");
        JobClient job = ControllerMain.prepare(config, FRESH, first).executeAsync("startup-it-1");
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer();
                KafkaConsumer<byte[], byte[]> decisionReader = KAFKA.consumerFromStart(t.decisions(), false)) {
            awaitDecisions(decisionReader, "r-", 50, job);
            assertThat(servers("r-")).as("the drain written before the start, from the first request on")
                    .doesNotContain("s3").isNotEmpty();
            // Event time past the first window: the control loop's first table (solved without s3).
            TestingBroker.sendRequests(producer, t.requests(), "w-", 20, now + 5_000);
            awaitDecisions(decisionReader, "w-", 20, job);
            TestingBroker.awaitWhileRunning(job, TIMEOUT).alias("the first table on " + t.tables())
                    .until(() -> StartupSnapshot.read(config).table(), Objects::nonNull);
        } finally {
            job.cancel().get();
        }

        StartupSnapshot fitting = StartupSnapshot.read(config);
        assertThat(fitting.table()).as("the newest table fits the catalog and the cluster: %s", fitting.tableSkipped())
                .isNotNull();
        assertThat(fitting.table().cluster().upServers()).containsExactly("s0", "s1", "s2");
        // The catalog changes: fig1's tasks cost twice as much. The table solved for the old DAG is not used.
        CatalogDag f = TestingCluster.figure1();
        CatalogDag costlier = new CatalogDag(f.name(), f.tasks().stream()
                .map(x -> new CatalogTask(x.id(), 2 * x.ops())).toList(), f.edges());
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer()) {
            TestingBroker.send(producer, t.catalog(), "fig1", catalog.serialize(TestingCluster.entry("fig1", costlier)));
            producer.flush();
        }
        StartupSnapshot second = StartupSnapshot.read(config);
        assertThat(second.table()).isNull();
        assertThat(second.tableSkipped()).isEqualTo("the newest table (version " + fitting.table().version()
                + ") was solved for other DAGs of [fig1] than the catalog holds now");
        JobClient again = ControllerMain.prepare(latest, FRESH, second).executeAsync("startup-it-2");
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer();
                KafkaConsumer<byte[], byte[]> decisionReader = KAFKA.consumerFromStart(t.decisions(), false);
                KafkaConsumer<byte[], byte[]> eventReader = KAFKA.consumerFromStart(t.events(), false)) {
            // Event time of the first window again: no rate window closes, so no table of the new control loop.
            // Sent, with the servers' reports, until 30 are decided: what was sent before the sources started
            // reading is not read.
            int[] sent = {0};
            TestingBroker.awaitWhileRunning(again, TIMEOUT).alias("30 decisions after the second start").until(() -> {
                for (int i = 0; i < 4; i++) {
                    TestingBroker.send(producer, t.telemetry(), "s" + i, telemetry.serialize(TestingCluster.server(
                            "s" + i, System.currentTimeMillis())));
                }
                TestingBroker.sendRequests(producer, t.requests(), "z" + sent[0]++ + "-", 10, now);
                poll(decisionReader);
                return decided.keySet().stream().filter(x -> x.startsWith("z")).count() >= 30;
            });
            assertThat(decided.values()).filteredOn(d -> d.requestId().startsWith("z"))
                    .as("local decisions until the control loop's first table, not the stale table's")
                    .allSatisfy(d -> assertThat(d.tableVersion()).isZero());
            assertThat(servers("z")).as("the drain, read again at the start").doesNotContain("s3").isNotEmpty();
            List<ControllerEvent> started = startedEvents(eventReader);
            assertThat(started).hasSize(2);
            assertThat(started.get(0).details()).containsEntry("commandsInForce", 1).containsEntry("tableVersion", 0);
            assertThat(started.get(1).details()).containsEntry("reason", "--fresh").containsEntry("tableVersion", 0)
                    .containsEntry("tableSkipped", second.tableSkipped());
        } finally {
            again.cancel().get();
        }
    }

    private void awaitDecisions(KafkaConsumer<byte[], byte[]> reader, String prefix, int n, JobClient job) {
        TestingBroker.awaitWhileRunning(job, TIMEOUT).alias(n + " decisions of " + prefix).until(() -> {
            poll(reader);
            return decided.keySet().stream().filter(id -> id.startsWith(prefix)).count() >= n;
        });
    }

    /** Takes the decisions {@code reader} has now (the first per request id). */
    private void poll(KafkaConsumer<byte[], byte[]> reader) {
        for (ConsumerRecord<byte[], byte[]> r : reader.poll(Duration.ofMillis(200))) {
            PlacementDecision d = decisions.parse(r.value()).value();
            decided.putIfAbsent(d.requestId(), d);
        }
    }

    private List<String> servers(String prefix) {
        return decided.values().stream().filter(d -> d.requestId().startsWith(prefix))
                .flatMap(d -> d.stages().stream()).map(StageAssignment::server).distinct().sorted().toList();
    }

    /** The {@code CONTROLLER_STARTED} events so far, in order. */
    private List<ControllerEvent> startedEvents(KafkaConsumer<byte[], byte[]> reader) {
        List<ControllerEvent> started = new ArrayList<>();
        TestingBroker.awaitReading(TIMEOUT).alias("both starts' events").until(() -> {
            reader.poll(Duration.ofMillis(200)).forEach(r -> {
                ControllerEvent e = events.parse(r.value()).value();
                if (e.type() == ControllerEventType.CONTROLLER_STARTED) {
                    started.add(e);
                }
            });
            return started.size() >= 2;
        });
        return started;
    }
}
