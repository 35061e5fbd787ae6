package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.topics.Topics;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.OutcomeStatus;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.testing.InProcessKafka;
import java.util.List;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code nona executor} through the real command line on a real KRaft broker: decisions already on the topic
 * ({@code --from-beginning}) are executed, one outcome each (a request still running at the end of {@code --seconds}
 * too: the twin lets it end), and the counters are printed as JSON.
 */
final class ExecutorCommandIT {
    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    @Test
    void executor_fromBeginning_executesEachDecisionOnce_andPrintsItsCounters() throws Exception {
        TestingCli cli = new TestingCli();
        assertThat(cli.run("topics", "create", "--bootstrap", KAFKA.bootstrapServers())).isZero();
        cli.clearOut();
        JsonSerde<ModelCatalogEntry> catalog = JsonSerde.forTopic(Topics.MODEL_CATALOG);
        JsonSerde<PlacementDecision> decisions = JsonSerde.forTopic(Topics.PLACEMENT_DECISIONS);
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer()) {
            ModelCatalogEntry e = ModelCatalogEntry.of("one", new CatalogDag("one", List.of(new CatalogTask("x", 1e9)), List.of()));
            producer.send(new ProducerRecord<>(Topics.MODEL_CATALOG.name(), catalog.keyBytes(e), catalog.serialize(e))).get();
            ModelCatalogEntry big = ModelCatalogEntry.of("big", new CatalogDag("big", List.of(new CatalogTask("x", 5e12)), List.of()));
            producer.send(new ProducerRecord<>(Topics.MODEL_CATALOG.name(), catalog.keyBytes(big), catalog.serialize(big))).get();
            // 5 s of compute: it ends after --seconds 3, and still gets its outcome before the command returns
            PlacementDecision longOne = PlacementDecision.of("long", "big", "t", 1, false,
                    List.of(new StageAssignment("x", "s-1")), 5, System.currentTimeMillis());
            producer.send(new ProducerRecord<>(Topics.PLACEMENT_DECISIONS.name(), decisions.keyBytes(longOne),
                    decisions.serialize(longOne)));
            for (int i = 0; i < 10; i++) {
                PlacementDecision d = PlacementDecision.of("r-" + i, "one", "t", 1, false,
                        List.of(new StageAssignment("x", "s-" + (i % 2))), 0.001, System.currentTimeMillis());
                producer.send(new ProducerRecord<>(Topics.PLACEMENT_DECISIONS.name(), decisions.keyBytes(d),
                        decisions.serialize(d)));
            }
            producer.flush();
        }

        int exit = cli.run("executor", "--bootstrap", KAFKA.bootstrapServers(), "--servers", "2", "--seconds", "3",
                "--from-beginning", "--cache-slots", "0");

        assertThat(exit).as(cli.err()).isZero();
        JsonNode summary = new ObjectMapper().readTree(cli.out());
        assertThat(summary.path("executed").asLong()).isEqualTo(11);
        assertThat(summary.path("okOutcomes").asLong()).isEqualTo(11);
        assertThat(summary.path("inFlight").asLong()).isZero();
        assertThat(summary.path("telemetryPublished").asLong()).isGreaterThanOrEqualTo(2 * 3);
        JsonSerde<PlacementOutcome> outcomes = JsonSerde.forTopic(Topics.PLACEMENT_OUTCOMES);
        List<PlacementOutcome> read = KAFKA.readFromStart(Topics.PLACEMENT_OUTCOMES.name(), true).stream()
                .map(r -> outcomes.parse(r.value()).value()).toList();
        assertThat(read).hasSize(11).allSatisfy(o -> {
            assertThat(o.status()).isEqualTo(OutcomeStatus.OK);
            assertThat(o.observedJctSeconds()).isGreaterThanOrEqualTo(0.001 - 1e-12); // 1e9 ops at 1e12 ops/s
        });
        assertThat(read).filteredOn(o -> o.requestId().equals("long")).singleElement()
                .satisfies(o -> assertThat(o.observedJctSeconds()).isGreaterThanOrEqualTo(5.0 - 1e-9));
        assertThat(read).extracting(PlacementOutcome::requestId).doesNotHaveDuplicates();
    }
}
