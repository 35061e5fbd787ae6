package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.bench.GeneratedRequests;
import dev.nona.bench.PipelineBenchmark;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.placement.BroadcastUpdate;
import dev.nona.controller.placement.DecisionExplanations;
import dev.nona.controller.placement.NonaPlacerFactory;
import dev.nona.controller.placement.RequestPlacer;
import dev.nona.controller.placement.ServerReports;
import dev.nona.placement.LiveServers;
import dev.nona.topics.Topics;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.DecisionExplanation;
import dev.nona.topics.record.OutcomePart;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.testing.InProcessKafka;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code nona explain} against a real in-process KRaft broker: real decisions (the benchmark's ResNet-18 table and
 * 16 servers, placed by the controller's placer, with their explanation) on a 4-partition topic written with the
 * default partitioner, outcomes for some of them.
 */
final class ExplainCommandIT {
    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Per request id: the decision sent, and the partition the producer's default partitioner chose for it. */
    private static final Map<String, PlacementDecision> DECISIONS = new HashMap<>();
    private static final Map<String, Integer> PARTITIONS = new HashMap<>();
    private static final long DEAD_LETTER_TIME = 1_780_000_000_000L;
    /** Where dl-1 is on inference-requests: "P offset O". */
    private static String DEAD_LETTERED_AT;

    @BeforeAll
    static void publish() throws Exception {
        KAFKA.admin().createTopics(List.of(new NewTopic("placement-decisions", 4, (short) 1),
                new NewTopic("placement-outcomes", 4, (short) 1), new NewTopic("inference-requests", 3, (short) 1),
                new NewTopic("dead-letters", 1, (short) 1))).all().get();
        List<BroadcastUpdate> snapshot = PipelineBenchmark.snapshot(List.of("resnet18"), 16);
        ControllerTable table = snapshot.stream().filter(u -> u.table() != null).findFirst().orElseThrow().table();
        List<ServerTelemetry> telemetry = new ArrayList<>();
        snapshot.stream().filter(u -> u.server() != null).forEach(u -> telemetry.add(u.server()));
        LiveServers servers = ServerReports.of(telemetry, 2);
        var dag = snapshot.stream().filter(u -> u.catalog() != null).findFirst().orElseThrow().catalog().dag();
        RequestPlacer placer = new NonaPlacerFactory().create("resnet18", dag, table, 1e13);
        JsonSerde<PlacementDecision> decisions = JsonSerde.forTopic(Topics.PLACEMENT_DECISIONS);
        JsonSerde<PlacementOutcome> outcomes = JsonSerde.forTopic(Topics.PLACEMENT_OUTCOMES);
        SplittableRandom rng = new SplittableRandom(3);
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer()) {
            for (int i = 0; i < 60; i++) {
                String id = "req-" + i;
                long t = GeneratedRequests.BASE + i;
                List<StageAssignment> stages = placer.place(servers, t, rng);
                boolean compact = i % 3 == 2;
                DecisionExplanation why = DecisionExplanations.of(placer.explanation(), servers, placer.tasks(), compact);
                PlacementDecision d = i == 1
                        ? PlacementDecision.of(id, "resnet18", "acme", table.version(), false, stages, 0.01, t) // older record
                        : PlacementDecision.of(id, "resnet18", "acme", table.version(), false, compact ? null : stages,
                                DecisionExplanations.predictedJctSeconds(why), t, why);
                DECISIONS.put(id, d);
                var meta = producer.send(new ProducerRecord<>("placement-decisions", key(id), decisions.serialize(d))).get();
                PARTITIONS.put(id, meta.partition());
                if (i % 2 == 0) {
                    String server = d.placedStages().get(0).server();
                    PlacementOutcome o = PlacementOutcome.ok(id, "resnet18", table.version(),
                            List.of(OutcomePart.of(server, t + 1, t + 3, false)), 0, t + 4, 0.004);
                    producer.send(new ProducerRecord<>("placement-outcomes", key(id), outcomes.serialize(o))).get();
                }
            }
            // a replayed second decision for req-0 (other servers): the first one wins
            PlacementDecision replay = PlacementDecision.of("req-0", "resnet18", "acme", table.version(), true,
                    List.of(new StageAssignment("input", "elsewhere")), 0.5, GeneratedRequests.BASE);
            producer.send(new ProducerRecord<>("placement-decisions", key("req-0"), decisions.serialize(replay))).get();
            // two undecided requests: one the controller dead-lettered, one it has not reached; a dead letter of
            // another offset of the same partition first, which must not be taken for the first one's
            byte[] raw = "{\"requestId\":\"dl-1\",\"model\":\"gpt5\"}".getBytes(StandardCharsets.UTF_8);
            var dl = producer.send(new ProducerRecord<>("inference-requests", key("dl-1"), raw)).get();
            producer.send(new ProducerRecord<>("inference-requests", key("waiting-1"), raw)).get();
            JsonSerde<DeadLetter> deadLetters = JsonSerde.forTopic(Topics.DEAD_LETTERS);
            producer.send(new ProducerRecord<>("dead-letters", null, deadLetters.serialize(DeadLetter.of(raw,
                    "inference-requests", dl.partition(), dl.offset() + 1000, "another request's reason",
                    DEAD_LETTER_TIME)))).get();
            producer.send(new ProducerRecord<>("dead-letters", null, deadLetters.serialize(DeadLetter.of(raw,
                    "inference-requests", dl.partition(), dl.offset(), "model 'gpt5' is not in the model catalog",
                    DEAD_LETTER_TIME)))).get();
            DEAD_LETTERED_AT = dl.partition() + " offset " + dl.offset();
        }
        assertThat(PARTITIONS.values()).as("the ids spread over the partitions").hasSizeGreaterThan(1)
                .containsAnyOf(0, 1, 2, 3);
    }

    private static byte[] key(String id) {
        return id.getBytes(StandardCharsets.UTF_8);
    }

    private static JsonNode explain(String id) throws Exception {
        TestingCli cli = new TestingCli();
        int exit = cli.run("explain", "--bootstrap", KAFKA.bootstrapServers(), "--request", id);
        assertThat(exit).as(cli.err()).isZero();
        return JSON.readTree(cli.out());
    }

    @Test
    void explain_fullDecisionWithOutcome_printsDecisionExplanationAndOutcome_fromTheKeysPartition() throws Exception {
        JsonNode out = explain("req-0");
        PlacementDecision sent = DECISIONS.get("req-0");
        assertThat(out.get("requestId").asText()).isEqualTo("req-0");
        assertThat(JSON.treeToValue(out.get("decision"), PlacementDecision.class)).isEqualTo(sent);
        assertThat(out.get("decisions").asInt()).as("the replay is counted, the first decision is printed").isEqualTo(2);
        assertThat(out.get("source").get("decisionsPartition").asInt()).isEqualTo(PARTITIONS.get("req-0"));
        assertThat(out.get("source").get("outcomesPartition").asInt()).isEqualTo(PARTITIONS.get("req-0"));
        JsonNode why = out.get("explanation");
        assertThat(why.get("parts")).isNotEmpty();
        assertThat(why.get("parts").get(0).get("server").asText()).isEqualTo(sent.stages().get(0).server());
        assertThat(why.get("parts").get(0).has("warm")).isTrue();
        assertThat(why.get("parts").get(0).has("targetMet")).isTrue();
        assertThat(why.get("choiceProbability").asDouble()).isPositive();
        assertThat(out.get("outcome").get("observedJctSeconds").asDouble()).isEqualTo(0.004);
        assertThat(out.get("observedToPredictedJct").asDouble())
                .isEqualTo(0.004 / sent.predictedJctSeconds());
    }

    @Test
    void explain_compactDecisionWithoutOutcome_printsItsPartsAndANullOutcome() throws Exception {
        JsonNode out = explain("req-5");
        PlacementDecision sent = DECISIONS.get("req-5");
        assertThat(sent.compact()).isTrue();
        assertThat(out.get("decision").has("stages")).isFalse();
        assertThat(out.get("explanation").get("parts").get(0).get("tasks")).isNotEmpty();
        assertThat(JSON.treeToValue(out.get("decision"), PlacementDecision.class)).isEqualTo(sent);
        assertThat(out.get("outcome").isNull()).isTrue();
        assertThat(out.get("outcomes").asInt()).isZero();
        assertThat(out.get("source").get("decisionsPartition").asInt()).isEqualTo(PARTITIONS.get("req-5"));
    }

    @Test
    void explain_recordWrittenBeforeExplanations_printsANullExplanation() throws Exception {
        JsonNode out = explain("req-1");
        assertThat(out.get("explanation").isNull()).isTrue();
        assertThat(out.get("decision").get("predictedJctSeconds").asDouble()).isEqualTo(0.01);
    }

    @Test
    void explain_unknownRequest_failsWithOneLineNamingTheRequestAndPartition() {
        TestingCli cli = new TestingCli();
        int exit = cli.run("explain", "--bootstrap", KAFKA.bootstrapServers(), "--request", "nobody");
        assertThat(exit).isNotZero();
        assertThat(cli.out()).isEmpty();
        assertThat(cli.err().strip()).startsWith("nona: no decision for request 'nobody' on placement-decisions (partition "
                + ExplainCommand.partitionForKey(key("nobody"), 4) + ",")
                .endsWith(", and no record on inference-requests-" + ExplainCommand.partitionForKey(key("nobody"), 3)
                        + " has it as key (requests are keyed by their id)");
    }

    @Test
    void explain_deadLetteredRequest_failsWithTheDeadLettersReason_andWhere() {
        TestingCli cli = new TestingCli();
        int exit = cli.run("explain", "--bootstrap", KAFKA.bootstrapServers(), "--request", "dl-1");
        assertThat(exit).isEqualTo(2);
        assertThat(cli.out()).isEmpty();
        assertThat(cli.err().strip()).startsWith("nona: no decision for request 'dl-1' on placement-decisions")
                .endsWith(": it was dead-lettered at " + java.time.Instant.ofEpochMilli(DEAD_LETTER_TIME)
                        + ": model 'gpt5' is not in the model catalog (inference-requests-" + DEAD_LETTERED_AT + ")");
    }

    @Test
    void explain_requestNotYetReached_saysItIsWaitingWithNoDeadLetter() {
        TestingCli cli = new TestingCli();
        int exit = cli.run("explain", "--bootstrap", KAFKA.bootstrapServers(), "--request", "waiting-1");
        assertThat(exit).isEqualTo(2);
        assertThat(cli.err().strip()).contains("; the request is on inference-requests-"
                        + ExplainCommand.partitionForKey(key("waiting-1"), 3) + " (offset ")
                .endsWith("with no dead letter on dead-letters either: is the controller running, and has it caught up?");
    }
}
