package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nona.topics.record.ControllerCommand;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.testing.InProcessKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The commands in force survive the loss of the TaskManager running the controller: a drain and a tenant rule are
 * applied and checkpointed, the only TaskManager is terminated and a new one started, and the job, restored from its
 * checkpoint (not re-reading the commands topic: no second acknowledgement), still keeps every stage off the drained
 * server and other tenants' stages off the tenant's server.
 */
final class OperatorCommandsFailoverITCase {
    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    /** How long each wait for the job's outputs may take. */
    private static final Duration TIMEOUT = Duration.ofSeconds(240);

    private final JsonSerde<PlacementDecision> decisions = new JsonSerde<>(PlacementDecision.class, 1 << 20);
    private final JsonSerde<ControllerEvent> events = new JsonSerde<>(ControllerEvent.class, 1 << 20);
    private final JsonSerde<ControllerCommand> commands = new JsonSerde<>(ControllerCommand.class, 1 << 20);
    private final JsonSerde<InferenceRequest> requests = new JsonSerde<>(InferenceRequest.class, 1 << 20);

    @Test
    void drainAndTenantRule_surviveATaskManagerKill(@InjectMiniCluster MiniCluster cluster) throws Exception {
        ControllerConfig config = TestingBroker.config(KAFKA, "commands-failover", "checkpoint.interval", "300ms",
                "flink.restart-strategy.type", "fixed-delay", "flink.restart-strategy.fixed-delay.attempts", "10",
                "flink.restart-strategy.fixed-delay.delay", "1s");
        ControllerConfig.Topics t = config.topics();
        TestingBroker.createTopics(KAFKA, t);
        var env = ControllerEnvironment.create(config);
        ControllerJob.build(env, config);
        JobClient job = env.executeAsync("operator-commands-failover-it");
        JobID id = job.getJobID();
        List<ControllerEvent> seen = new ArrayList<>();
        Map<String, PlacementDecision> decided = new LinkedHashMap<>();
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer();
                KafkaConsumer<byte[], byte[]> decisionReader = KAFKA.consumerFromStart(t.decisions(), false);
                KafkaConsumer<byte[], byte[]> eventReader = KAFKA.consumerFromStart(t.events(), false)) {
            long now = System.currentTimeMillis();
            for (ControllerCommand c : List.of(ControllerCommand.drain("drain-s3", now, "s3", true),
                    ControllerCommand.tenantRule("tenant-acme", now, "acme", List.of("s0"), 1.0))) {
                TestingBroker.send(producer, t.commands(), c.scope(), commands.serialize(c));
            }
            producer.flush();
            TestingBroker.awaitReading(TIMEOUT).until(() -> {
                eventReader.poll(Duration.ofMillis(200)).forEach(r -> seen.add(events.parse(r.value()).value()));
                return acks(seen) >= 2;
            });
            assertThat(acks(seen)).as("both commands acknowledged").isEqualTo(2);
            TestingBroker.sendClusterAndRequests(producer, t, 30, now);
            read(decisionReader, decided, 30);
            assertThat(servers(decided.values())).doesNotContain("s3");

            // A checkpoint that started after the commands were applied completes, then the TaskManager goes.
            long completed = completedCheckpoints(cluster, id);
            await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(100))
                    .untilAsserted(() -> assertThat(completedCheckpoints(cluster, id)).isGreaterThanOrEqualTo(completed + 2));
            cluster.terminateTaskManager(0).get();
            cluster.startTaskManager();

            decided.clear();
            for (int i = 0; i < 40; i++) {
                String rid = "z-" + i;
                TestingBroker.send(producer, t.requests(), rid,
                        requests.serialize(InferenceRequest.of(rid, "fig1", "other", now + 3_000 + i, 1024L)));
            }
            producer.flush();
            // decisions replayed for earlier requests after the restore are read too: count the new ones
            TestingBroker.awaitReading(TIMEOUT).until(() -> {
                poll(decisionReader, decided);
                return decided.keySet().stream().filter(k -> k.startsWith("z-")).count() >= 40;
            });
            List<PlacementDecision> after = decided.values().stream().filter(d -> d.requestId().startsWith("z-")).toList();
            assertThat(after).hasSize(40);
            assertThat(servers(after)).as("after the restore: not on the drained s3, nor on acme's s0")
                    .doesNotContain("s0", "s3").isNotEmpty();
            eventReader.poll(Duration.ofMillis(500)).forEach(r -> seen.add(events.parse(r.value()).value()));
            assertThat(acks(seen)).as("restored from the checkpoint, not re-read: no second acknowledgement")
                    .isEqualTo(2);
            System.out.printf("OperatorCommandsFailoverITCase: %d checkpoints before the kill; after the restore "
                    + "%d decisions on %s%n", completedCheckpoints(cluster, id), after.size(), servers(after));
        } finally {
            job.cancel().get();
        }
    }

    private static long acks(List<ControllerEvent> seen) {
        return seen.stream().filter(e -> e.type() == ControllerEventType.COMMAND_APPLIED).count();
    }

    private static long completedCheckpoints(MiniCluster cluster, JobID id) throws Exception {
        var stats = cluster.getExecutionGraph(id).get().getCheckpointStatsSnapshot();
        return stats == null ? 0 : stats.getCounts().getNumberOfCompletedCheckpoints();
    }

    private void read(KafkaConsumer<byte[], byte[]> reader, Map<String, PlacementDecision> decided, int n) {
        TestingBroker.awaitReading(TIMEOUT).untilAsserted(() -> {
            poll(reader, decided);
            assertThat(decided).hasSizeGreaterThanOrEqualTo(n);
        });
        assertThat(decided).hasSize(n);
    }

    /** One poll of the decisions; the first decision per request is kept. */
    private void poll(KafkaConsumer<byte[], byte[]> reader, Map<String, PlacementDecision> decided) {
        for (ConsumerRecord<byte[], byte[]> r : reader.poll(Duration.ofMillis(200))) {
            PlacementDecision d = decisions.parse(r.value()).value();
            decided.putIfAbsent(d.requestId(), d);
        }
    }

    private static Set<String> servers(Collection<PlacementDecision> ds) {
        Set<String> s = new TreeSet<>();
        ds.forEach(d -> d.stages().stream().map(StageAssignment::server).forEach(s::add));
        return s;
    }
}
