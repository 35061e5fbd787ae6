package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.topics.record.ControllerCommand;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.testing.InProcessKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntFunction;
import java.util.function.Predicate;
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
 * Every operator command end to end on a real in-process KRaft broker (issue 16 §4): commands published to the
 * compacted commands topic, acknowledged on the events topic, honoured by the decisions and the tables; bad commands
 * become dead letters with their reason; and a fresh start of the controller re-reads the commands in force.
 */
final class OperatorCommandsITCase {
    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    private final JsonSerde<PlacementDecision> decisions = new JsonSerde<>(PlacementDecision.class, 1 << 20);
    /** How long each wait for the job's outputs may take. */
    private static final Duration TIMEOUT = Duration.ofSeconds(240);

    private final JsonSerde<ControllerEvent> events = new JsonSerde<>(ControllerEvent.class, 1 << 20);
    private final JsonSerde<DeadLetter> deadLetters = new JsonSerde<>(DeadLetter.class, 1 << 20);
    private final JsonSerde<ControllerCommand> commands = new JsonSerde<>(ControllerCommand.class, 1 << 20);
    private final JsonSerde<InferenceRequest> requests = new JsonSerde<>(InferenceRequest.class, 1 << 20);
    private final JsonSerde<PlacementTableRecord> tables = new JsonSerde<>(PlacementTableRecord.class, Integer.MAX_VALUE);
    private final List<ControllerEvent> seen = new ArrayList<>();
    private final Map<String, PlacementDecision> decided = new LinkedHashMap<>();

    @Test
    void everyCommandKind_endToEnd_acknowledged_honoured_andReReadOnAFreshStart() throws Exception {
        ControllerConfig config = TestingBroker.config(KAFKA, "commands");
        ControllerConfig.Topics t = config.topics();
        TestingBroker.createTopics(KAFKA, t);
        JobClient job = start(config, "operator-commands-it");
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer();
                KafkaConsumer<byte[], byte[]> decisionReader = KAFKA.consumerFromStart(t.decisions(), false);
                KafkaConsumer<byte[], byte[]> eventReader = KAFKA.consumerFromStart(t.events(), false);
                KafkaConsumer<byte[], byte[]> deadReader = KAFKA.consumerFromStart(t.deadLetters(), false);
                KafkaConsumer<byte[], byte[]> tableReader = KAFKA.consumerFromStart(t.tables(), false)) {
            long now = System.currentTimeMillis();
            // FREEZE and DRAIN before anything else: the first table waits, and s3 never gets a stage.
            command(producer, t, ControllerCommand.freeze("freeze-1", now, true));
            command(producer, t, ControllerCommand.drain("drain-s3", now, "s3", true));
            awaitAck(eventReader, "freeze-1", job);
            awaitAck(eventReader, "drain-s3", job);
            TestingBroker.sendClusterAndRequests(producer, t, 50, now);
            awaitDecisions(decisionReader, 50, job);
            assertThat(servers(decided.values(), d -> true)).as("drained s3 gets no stage").doesNotContain("s3");
            // Event time moves past the first window: the initial solve is held, and the event says so.
            TestingBroker.sendRequests(producer, t.requests(), "w-", 20, now + 5_000);
            ControllerEvent frozen = awaitEvent(eventReader, e -> e.type() == ControllerEventType.DRIFT_FROZEN, job);
            assertThat((String) frozen.details().get("detail")).startsWith("re-optimisation is frozen by an operator");
            assertThat(seen).noneMatch(e -> e.type() == ControllerEventType.REOPTIMIZATION_STARTED);
            command(producer, t, ControllerCommand.freeze("unfreeze-1", now, false));
            awaitAck(eventReader, "unfreeze-1", job);
            awaitEvent(eventReader, e -> e.type() == ControllerEventType.TABLE_PUBLISHED, job);
            JsonNode v1 = awaitTable(tableReader, 1, job);
            assertThat(v1.get("cluster").get("upServers").toString()).as("the solve does not count the drained server")
                    .isEqualTo("[\"s0\",\"s1\",\"s2\"]");

            // ROLLBACK_TABLE to v1: v1's table again, as v2; to an unknown version: a dead letter.
            command(producer, t, ControllerCommand.rollback("rollback-1", now, 1));
            ControllerEvent rolledBack = awaitEvent(eventReader, e -> e.type() == ControllerEventType.TABLE_ROLLED_BACK
                    && "rollback-1".equals(e.details().get("command")), job);
            assertThat(rolledBack.details()).containsEntry("restoredVersion", 1).containsEntry("tableVersion", 2);
            awaitAck(eventReader, "rollback-1", job);
            JsonNode v2 = awaitTable(tableReader, 2, job);
            assertThat(v2.get("tableJson")).isEqualTo(v1.get("tableJson"));
            command(producer, t, ControllerCommand.rollback("rollback-99", now, 99));
            assertThat(awaitDeadLetter(deadReader, t.commands(), job).reason()).isEqualTo("command 'rollback-99' "
                    + "(ROLLBACK_TABLE): table version 99 is not among the last 8 published, which the controller "
                    + "keeps: [1, 2]");

            // PIN_MODEL: every stage of fig1 on s1.
            command(producer, t, ControllerCommand.pin("pin-1", now, "fig1", List.of("s1")));
            awaitAck(eventReader, "pin-1", job);
            sendRequests(producer, t, "p-", 30, now + 7_000, i -> "acme");
            awaitDecisions(decisionReader, 100, job);
            assertThat(servers(decided.values(), d -> d.requestId().startsWith("p-"))).containsExactly("s1");

            // TENANT_RULE: acme owns s0, at most half of the requests; two thirds are acme's (acme, acme, other, ...).
            // The share is of the requests the placer placed, in the order it placed them, so they go to one
            // partition: over two, the placer's order (and so the share each request saw) would depend on how the
            // source interleaved the partitions. With them in send order, acme's share is 0 at q-0 (under: any
            // server but another tenant's) and above 1/2 from q-1 on (over: s0 only).
            command(producer, t, ControllerCommand.pin("unpin-1", now, "fig1", List.of()));
            command(producer, t, ControllerCommand.tenantRule("tenant-acme", now, "acme", List.of("s0"), 0.5));
            awaitAck(eventReader, "unpin-1", job);
            awaitAck(eventReader, "tenant-acme", job);
            sendRequests(producer, t, "q-", 90, now + 40_000, i -> i % 3 == 2 ? "other" : "acme", 0);
            awaitDecisions(decisionReader, 190, job);
            assertThat(servers(decided.values(), d -> d.requestId().startsWith("q-") && d.tenant().equals("other")))
                    .as("no stage of another tenant on acme's server").doesNotContain("s0", "s3").isNotEmpty();
            assertThat(servers(decided.values(), d -> d.requestId().startsWith("q-") && d.tenant().equals("acme")
                    && !d.requestId().equals("q-0"))).as("acme over its share: its own server only").containsExactly("s0");

            // A command that would give s0 to two tenants, and one that does not parse: dead letters with the reason.
            command(producer, t, ControllerCommand.tenantRule("tenant-beta", now, "beta", List.of("s0"), 1));
            assertThat(awaitDeadLetter(deadReader, t.commands(), job).reason()).isEqualTo("command 'tenant-beta' "
                    + "(TENANT_RULE): server 's0' is owned by tenants 'acme' and 'beta'");
            TestingBroker.send(producer, t.commands(), "freeze", "{\"schemaVersion\":1,\"commandId\":\"x\",\"kind\":\"THAW\",\"issuedAt\":1}"
                    .getBytes(StandardCharsets.UTF_8));
            producer.flush();
            assertThat(awaitDeadLetter(deadReader, t.commands(), job).reason()).startsWith(
                    "field 'kind': Cannot deserialize value of type `dev.nona.topics.record.CommandKind` from String \"THAW\"");
        } finally {
            job.cancel().get();
        }

        // A fresh start (no checkpoint) re-reads the compacted topic: the drain and the tenant rule hold again.
        JobClient again = start(config, "operator-commands-it-restart");
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer();
                KafkaConsumer<byte[], byte[]> decisionReader = KAFKA.consumerFromStart(t.decisions(), false);
                KafkaConsumer<byte[], byte[]> eventReader = KAFKA.consumerFromStart(t.events(), false)) {
            seen.clear(); // this reader reads the events from the start: the first run's, then the fresh start's
            awaitAck(eventReader, "drain-s3", again, 2);
            awaitAck(eventReader, "tenant-acme", again, 2);
            // The fresh start learns the servers from the telemetry topic, on a path of its own: the acknowledgements
            // above say nothing of it. While placement knows s0 (acme's) and no server 'other' may use, a request
            // of 'other' is a dead letter ("every server that is up is owned by another tenant's rule"): one
            // fresh-clone run sent the measured requests then, and all 40 were. So: probes until one is decided.
            awaitPlaced(producer, t, decisionReader, "other", again);
            decided.clear();
            sendRequests(producer, t, "z-", 40, System.currentTimeMillis() + 60_000, i -> "other");
            awaitDecisions(decisionReader, 40, again, "z-");
            assertThat(servers(decided.values(), d -> d.requestId().startsWith("z-"))).doesNotContain("s0", "s3");
        } finally {
            again.cancel().get();
        }
        System.out.printf("OperatorCommandsITCase: %d events seen, acknowledgements: %s%n", seen.size(),
                seen.stream().filter(e -> e.type() == ControllerEventType.COMMAND_APPLIED)
                        .map(e -> e.details().get("commandId")).toList());
    }

    /** Sends a request of {@code tenant} every 200 ms until one of them is decided (the others may be dead letters). */
    private void awaitPlaced(KafkaProducer<byte[], byte[]> producer, ControllerConfig.Topics t,
            KafkaConsumer<byte[], byte[]> reader, String tenant, JobClient job) {
        int[] probe = {0};
        TestingBroker.awaitWhileRunning(job, TIMEOUT)
                .alias("a request of tenant '" + tenant + "' decided after the fresh start").until(() -> {
                    if (probe[0] % 5 == 0) {
                        // Live servers report every second; so do these. The fresh start's telemetry source resumes
                        // from the offsets the first run committed at its checkpoints, which may be past every report
                        // it made; and a report counts only while it is younger than the liveness timeout.
                        TestingBroker.sendReports(producer, t, System.currentTimeMillis());
                    }
                    String id = "probe-" + probe[0]++;
                    producer.send(new ProducerRecord<>(t.requests(), id.getBytes(StandardCharsets.UTF_8),
                            requests.serialize(InferenceRequest.of(id, "fig1", tenant, System.currentTimeMillis() + 60_000,
                                    1024L))));
                    producer.flush();
                    for (ConsumerRecord<byte[], byte[]> r : reader.poll(Duration.ofMillis(200))) {
                        if (decisions.parse(r.value()).value().requestId().startsWith("probe-")) {
                            return true;
                        }
                    }
                    return false;
                });
    }

    private static JobClient start(ControllerConfig config, String name) throws Exception {
        var env = ControllerEnvironment.create(config);
        ControllerJob.build(env, config);
        return env.executeAsync(name);
    }

    private void command(KafkaProducer<byte[], byte[]> producer, ControllerConfig.Topics t, ControllerCommand c) {
        TestingBroker.send(producer, t.commands(), c.scope(), commands.serialize(c));
        producer.flush();
    }

    private void sendRequests(KafkaProducer<byte[], byte[]> producer, ControllerConfig.Topics t, String prefix, int n,
            long start, IntFunction<String> tenant) {
        sendRequests(producer, t, prefix, n, start, tenant, null);
    }

    /** Sends {@code n} requests, to {@code partition} in send order, or by key when it is {@code null}. */
    private void sendRequests(KafkaProducer<byte[], byte[]> producer, ControllerConfig.Topics t, String prefix, int n,
            long start, IntFunction<String> tenant, Integer partition) {
        for (int i = 0; i < n; i++) {
            byte[] value = requests.serialize(InferenceRequest.of(prefix + i, "fig1", tenant.apply(i), start + i, 1024L));
            producer.send(new ProducerRecord<>(t.requests(), partition, (prefix + i).getBytes(StandardCharsets.UTF_8),
                    value));
        }
        producer.flush();
    }

    private static Set<String> servers(Collection<PlacementDecision> ds, Predicate<PlacementDecision> which) {
        Set<String> s = new TreeSet<>();
        ds.stream().filter(which).forEach(d -> d.stages().stream().map(StageAssignment::server).forEach(s::add));
        return s;
    }

    private void awaitDecisions(KafkaConsumer<byte[], byte[]> reader, int n, JobClient job) throws Exception {
        awaitDecisions(reader, n, job, "");
    }

    private void awaitDecisions(KafkaConsumer<byte[], byte[]> reader, int n, JobClient job, String prefix) {
        TestingBroker.awaitWhileRunning(job, TIMEOUT).untilAsserted(() -> {
            for (ConsumerRecord<byte[], byte[]> r : reader.poll(Duration.ofMillis(200))) {
                PlacementDecision d = decisions.parse(r.value()).value();
                if (d.requestId().startsWith(prefix)) {
                    decided.putIfAbsent(d.requestId(), d);
                }
            }
            assertThat(decided).hasSizeGreaterThanOrEqualTo(n);
        });
        assertThat(decided).hasSize(n);
    }

    private ControllerEvent awaitEvent(KafkaConsumer<byte[], byte[]> reader, Predicate<ControllerEvent> what,
            JobClient job) {
        TestingBroker.awaitWhileRunning(job, TIMEOUT).untilAsserted(() -> {
            if (seen.stream().noneMatch(what)) {
                reader.poll(Duration.ofMillis(200)).forEach(r -> seen.add(events.parse(r.value()).value()));
            }
            assertThat(seen).as("events seen").anyMatch(what);
        });
        return seen.stream().filter(what).findFirst().orElseThrow();
    }

    /** Waits until {@code times} {@code COMMAND_APPLIED} events of {@code commandId} have been seen. */
    private void awaitAck(KafkaConsumer<byte[], byte[]> reader, String commandId, JobClient job, int times)
            throws Exception {
        awaitEvent(reader, e -> seen.stream().filter(x -> isAck(x, commandId)).count() >= times, job);
    }

    private void awaitAck(KafkaConsumer<byte[], byte[]> reader, String commandId, JobClient job) throws Exception {
        awaitAck(reader, commandId, job, 1);
    }

    private static boolean isAck(ControllerEvent e, String commandId) {
        return e.type() == ControllerEventType.COMMAND_APPLIED && commandId.equals(e.details().get("commandId"));
    }

    private DeadLetter awaitDeadLetter(KafkaConsumer<byte[], byte[]> reader, String topic, JobClient job) {
        return TestingBroker.awaitWhileRunning(job, TIMEOUT).alias("a dead letter from " + topic).until(() -> {
            for (ConsumerRecord<byte[], byte[]> r : reader.poll(Duration.ofMillis(200))) {
                DeadLetter d = deadLetters.parse(r.value()).value();
                if (d.sourceTopic().equals(topic)) {
                    return d;
                }
            }
            return null;
        }, Objects::nonNull);
    }

    private JsonNode awaitTable(KafkaConsumer<byte[], byte[]> reader, long version, JobClient job) throws Exception {
        PlacementTableRecord table = TestingBroker.awaitWhileRunning(job, TIMEOUT).alias("table v" + version).until(() -> {
            for (ConsumerRecord<byte[], byte[]> r : reader.poll(Duration.ofMillis(200))) {
                PlacementTableRecord rec = tables.parse(r.value()).value();
                if (rec.version() == version) {
                    return rec;
                }
            }
            return null;
        }, Objects::nonNull);
        return new ObjectMapper().readTree(table.tableJson());
    }
}
