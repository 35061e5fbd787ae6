package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.DecisionPart;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.testing.InProcessKafka;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The parts of a model larger than every server survive a restore from a checkpoint, on a real in-process KRaft
 * broker and a Flink MiniCluster. Model {@link TestingCluster#bigChain()} (310 bytes) on four servers of 250 bytes:
 * its table cuts it into {a, b} and {c, d, e}. No report names a server's parts, only its bytes of each model, so
 * the placer remembers where it sent each part; the test, as executor, reports each server's bytes of the parts it was
 * sent. After the first requests loaded the parts, the next ones find every part warm (no cold start predicted);
 * then checkpoints complete, the only TaskManager is terminated and a new one started, and the restored job's
 * requests find every part warm too, on the servers that hold it.
 *
 * <p>Each round's reports and requests are ordered by the telemetry gate (a request waits until the telemetry
 * stream reaches its time): the servers report at {@code now - 2}, the requests are made at {@code now - 1}, and a
 * last report of s0 at {@code now} lets them through once every server's report is in.
 */
final class KnownPartsRestoreITCase {
    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    private static final int SERVERS = 4;
    private static final double MEMORY_BYTES = 250;
    private static final int BATCH = 20;
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    private final JsonSerde<InferenceRequest> requests = new JsonSerde<>(InferenceRequest.class, 1 << 20);
    private final JsonSerde<ServerTelemetry> telemetry = new JsonSerde<>(ServerTelemetry.class, 1 << 20);
    private final JsonSerde<ModelCatalogEntry> catalog = new JsonSerde<>(ModelCatalogEntry.class, 1 << 20);
    private final JsonSerde<PlacementDecision> decisions = new JsonSerde<>(PlacementDecision.class, 1 << 20);
    /** The executor's side: per server, the parts it holds (their tasks), least recently used first. */
    private final Map<String, Deque<Set<String>>> cache = new HashMap<>();

    @Test
    void afterATaskManagerLoss_theRestoredJobFindsThePartsWarmWhereItSentThem(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        ControllerConfig config = TestingBroker.config(KAFKA, "parts", "parallelism", "1",
                "checkpoint.interval", "300ms", "placement.cold-start.fixed-seconds", "1",
                "flink.restart-strategy.type", "fixed-delay", "flink.restart-strategy.fixed-delay.attempts", "10",
                "flink.restart-strategy.fixed-delay.delay", "1s");
        ControllerConfig.Topics t = config.topics();
        TestingBroker.createTopics(KAFKA, t, 1); // the decisions in the order they were made
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer()) {
            producer.send(new ProducerRecord<>(t.catalog(), "big".getBytes(),
                    catalog.serialize(ModelCatalogEntry.of("big", TestingCluster.bigChain())))).get();
            var env = ControllerEnvironment.create(config);
            ControllerJob.build(env, config);
            JobClient job = env.executeAsync(config.controllerId());
            try {
                List<PlacementDecision> first = warmUp(producer, t);
                assertThat(parts(first)).as("the first requests load the parts").anyMatch(p -> p.coldStart());

                List<PlacementDecision> before = round(producer, t, "before-");
                checkAndExecute(before);

                JobID id = job.getJobID();
                long completed = completedCheckpoints(cluster, id);
                await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(100))
                        .until(() -> completedCheckpoints(cluster, id) >= completed + 2);
                cluster.terminateTaskManager(0).get();
                cluster.startTaskManager();

                List<PlacementDecision> after = round(producer, t, "after-");
                assertThat(parts(after)).as("the restored job sends parts where they are held")
                        .anyMatch(p -> !p.coldStart());
                checkAndExecute(after);
            } finally {
                job.cancel().get();
            }
        }
    }

    /**
     * One request every 200 ms, each in a round of its own, until the first table splits the model (rates come from
     * closed event-time windows, so traffic must go on until then) and the first requests, held until then, are
     * placed; each decision is executed before the next round's reports, as an executor would. Returns the
     * decisions.
     */
    private List<PlacementDecision> warmUp(KafkaProducer<byte[], byte[]> producer, ControllerConfig.Topics t)
            throws InterruptedException {
        Set<String> executed = new HashSet<>();
        int sent = 0;
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (executed.size() < 5 && System.nanoTime() < deadline) {
            for (PlacementDecision d : decided(t, "warm-")) {
                if (executed.add(d.requestId())) {
                    execute(d);
                }
            }
            send(producer, t, "warm-" + sent++ + "-", 1);
            Thread.sleep(200);
        }
        int expected = sent;
        List<PlacementDecision> all = await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(250))
                .until(() -> decided(t, "warm-"), out -> out.size() == expected);
        all.stream().filter(d -> executed.add(d.requestId())).forEach(this::execute);
        return all;
    }

    /** As {@link #send}, {@link #BATCH} requests, and returns their decisions. */
    private List<PlacementDecision> round(KafkaProducer<byte[], byte[]> producer, ControllerConfig.Topics t,
            String prefix) {
        send(producer, t, prefix, BATCH);
        return await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(250)).until(() -> decided(t, prefix),
                out -> out.size() == BATCH);
    }

    /** The first decision of each request whose id starts with {@code prefix}, in the order they were made. */
    private List<PlacementDecision> decided(ControllerConfig.Topics t, String prefix) {
        Map<String, PlacementDecision> firstOfEach = new LinkedHashMap<>();
        for (var r : KAFKA.readFromStart(t.decisions(), false)) {
            PlacementDecision d = decisions.parse(r.value()).value();
            if (d.requestId().startsWith(prefix)) {
                firstOfEach.putIfAbsent(d.requestId(), d);
            }
        }
        return List.copyOf(firstOfEach.values());
    }

    /**
     * The servers report what they hold at {@code now - 2}; {@code n} requests made at {@code now - 1}; s0 reports
     * again at {@code now}.
     */
    private void send(KafkaProducer<byte[], byte[]> producer, ControllerConfig.Topics t, String prefix, int n) {
        long now = System.currentTimeMillis();
        for (int i = 0; i < SERVERS; i++) {
            report(producer, t, "s" + i, now - 2);
        }
        for (int i = 0; i < n; i++) {
            String id = prefix + i;
            producer.send(new ProducerRecord<>(t.requests(), id.getBytes(),
                    requests.serialize(InferenceRequest.of(id, "big", "tenant", now - 1, null))));
        }
        producer.flush();
        report(producer, t, "s0", now);
        producer.flush();
    }

    private void report(KafkaProducer<byte[], byte[]> producer, ControllerConfig.Topics t, String server, long madeAt) {
        long bytes = Math.round(cache.getOrDefault(server, new ArrayDeque<>()).stream().flatMap(Set::stream)
                .mapToDouble(TestingCluster.BIG_CHAIN_TASK_BYTES::get).sum());
        ServerTelemetry s = ServerTelemetry.of(server, true, TestingCluster.OPS_PER_SECOND, 0,
                bytes > 0 ? List.of(new CachedModel("big", bytes)) : List.of(), TestingCluster.LINK_BITS_PER_SECOND,
                madeAt, 0.0).withClass("s", MEMORY_BYTES);
        producer.send(new ProducerRecord<>(t.telemetry(), null, madeAt, server.getBytes(), telemetry.serialize(s)));
    }

    /** Runs a decision as an executor would: each server loads its part, evicting its least recently used ones to fit. */
    private void execute(PlacementDecision d) {
        stagesByServer(d).forEach((server, tasks) -> {
            Deque<Set<String>> held = cache.computeIfAbsent(server, k -> new ArrayDeque<>());
            held.remove(tasks);
            held.addLast(tasks);
            while (bytes(held) > MEMORY_BYTES) {
                held.removeFirst();
            }
        });
    }

    /**
     * Each decision in the order it was made, then executed: each part predicts a cold start exactly where its server
     * does not hold it. A placer that forgot the parts it sent predicts a load where the part is held; one that kept a
     * part its server evicted predicts none where it is not.
     */
    private void checkAndExecute(List<PlacementDecision> decided) {
        for (PlacementDecision d : decided) {
            Map<String, Set<String>> byServer = stagesByServer(d);
            for (DecisionPart p : d.explanation().parts()) {
                boolean held = cache.getOrDefault(p.server(), new ArrayDeque<>()).contains(byServer.get(p.server()));
                assertThat(p.coldStart()).as("%s on %s, which %s it", d.requestId(), p.server(),
                        held ? "holds" : "does not hold").isEqualTo(!held);
            }
            execute(d);
        }
    }

    private static Map<String, Set<String>> stagesByServer(PlacementDecision d) {
        return d.stages().stream().collect(Collectors.groupingBy(StageAssignment::server,
                Collectors.mapping(StageAssignment::task, Collectors.toCollection(TreeSet::new))));
    }

    private static double bytes(Deque<Set<String>> held) {
        return held.stream().flatMap(Set::stream).mapToDouble(TestingCluster.BIG_CHAIN_TASK_BYTES::get).sum();
    }

    private static List<DecisionPart> parts(List<PlacementDecision> decided) {
        return decided.stream().flatMap(d -> d.explanation().parts().stream()).toList();
    }

    private static long completedCheckpoints(MiniCluster cluster, JobID id) throws Exception {
        var stats = cluster.getExecutionGraph(id).get().getCheckpointStatsSnapshot();
        return stats == null ? 0 : stats.getCounts().getNumberOfCompletedCheckpoints();
    }
}
