package dev.nona.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.topics.Topics;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.zoo.ModelZoo;
import dev.nona.optimize.CostModel;
import dev.nona.optimize.NonaOptimizer;
import dev.nona.optimize.NonaProblem;
import dev.nona.optimize.Problems;
import dev.nona.placement.PlacementTable;
import dev.nona.placement.PlacementTables;
import dev.nona.workload.Workload;
import dev.nona.workload.WorkloadReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class DemoScenarioTest {

    @Test
    void standard_coversTheZoo_andShiftsRatesAtHalfTime() {
        DemoScenario s = DemoScenario.standard(Duration.ofSeconds(60));
        assertThat(s.models()).containsExactlyInAnyOrderElementsOf(ModelZoo.names());
        assertThat(s.rate("resnet18", Duration.ofSeconds(29))).isEqualTo(30.0);
        assertThat(s.rate("resnet18", Duration.ofSeconds(30))).isEqualTo(6.0);
        assertThat(s.rate("alexnet", Duration.ofSeconds(45))).isEqualTo(6.0);
    }

    /**
     * The shift changes what is best (the controller's cost model, controller-mapping, on the scenario's cluster):
     * at the first half's rates every model is kept whole on one server, at the second half's GPT-2's parallel
     * branches are split over servers.
     */
    @Test
    void standard_shiftChangesTheOptimalTable() {
        DemoScenario s = DemoScenario.standard(Duration.ofSeconds(60));
        PlacementTable before = solve(s, s.before());
        PlacementTable after = solve(s, s.after());
        for (String model : s.models()) {
            assertThat(splitProbability(before, model)).as(model + " split at the first half's rates").isZero();
        }
        assertThat(splitProbability(after, "gpt2")).as("gpt2 split at the second half's rates").isGreaterThan(0.5);
    }

    private static PlacementTable solve(DemoScenario s, Map<String, Double> rates) {
        StringBuilder json = new StringBuilder("{\"cluster\": {\"servers\": " + s.servers() + ", \"opsPerSecond\": "
                + s.opsPerSecond() + ", \"linkBitsPerSecond\": " + s.linkBitsPerSecond() + "}, \"models\": [");
        String sep = "";
        for (String m : s.models()) {
            json.append(sep).append("{\"name\": \"").append(m).append("\", \"dag\": {\"zoo\": \"").append(m)
                    .append("\"}, \"ratePerSecond\": ").append(rates.get(m)).append('}');
            sep = ", ";
        }
        Workload w = WorkloadReader.parse(json.append("]}").toString(), false, Path.of("."));
        NonaProblem problem = Problems.fromWorkload(w, CostModel.CONTROLLER_MAPPING);
        return PlacementTables.from(problem, NonaOptimizer.solve(problem), 1, 0);
    }

    /** The summed probability, over a model's subgraphs, of choices with more than one part. */
    private static double splitProbability(PlacementTable table, String model) {
        return table.model(model).subgraphs().stream().flatMap(sg -> sg.choices().stream())
                .filter(c -> c.parts().size() > 1).mapToDouble(PlacementTable.Choice::probability).sum();
    }

    @Test
    void scenario_rejectsBadValues_namingThem() {
        assertThatThrownBy(() -> DemoScenario.standard(Duration.ofSeconds(2))).hasMessage("seconds (2) must be >= 4");
        assertThatThrownBy(() -> new DemoScenario(Duration.ofSeconds(10), 2, Map.of("a", -1.0), Map.of("a", 1.0), 0,
                1e12, 1e10, 1)).hasMessage("rate of a (-1.0) must be finite and >= 0");
        assertThatThrownBy(() -> new DemoScenario(Duration.ofSeconds(10), 2, Map.of("a", 1.0), Map.of("b", 1.0), 0,
                1e12, 1e10, 1)).hasMessageContaining("must name the same models");
    }

    @Test
    void malformedRecords_areAllRejectedByTheRequestSerde_eachForItsOwnReason() {
        JsonSerde<InferenceRequest> serde = JsonSerde.forTopic(Topics.INFERENCE_REQUESTS);
        Set<String> reasons = new HashSet<>();
        int parsedButUnknownModel = 0;
        for (int k = 0; k < DemoPublisher.MALFORMED_KINDS.size(); k++) {
            var parsed = serde.parse(DemoPublisher.malformed(k, 1_000L));
            if (parsed.ok()) {
                assertThat(parsed.value().model()).isEqualTo("no-such-model");
                parsedButUnknownModel++;
            } else {
                reasons.add(parsed.reason());
            }
        }
        assertThat(parsedButUnknownModel).as("only the unknown model parses (the controller rejects it)").isEqualTo(1);
        assertThat(reasons).hasSize(DemoPublisher.MALFORMED_KINDS.size() - 1);
    }

    @Test
    void zooCatalog_entryKeepsEveryTaskAndEdge() throws Exception {
        var entry = ZooCatalog.entry("resnet18");
        var dag = ModelZoo.load("resnet18");
        assertThat(entry.dag().tasks()).hasSize(dag.tasks().size());
        assertThat(entry.dag().edges()).hasSize(dag.edges().size());
        assertThat(new ObjectMapper().writeValueAsString(entry.dag().tasks().get(0))).contains("\"ops\"");
    }

    @Test
    void validIds_areTheSequenceOnly() {
        assertThat(DemoSummaries.isValidId("r-0", 3)).isTrue();
        assertThat(DemoSummaries.isValidId("r-2", 3)).isTrue();
        assertThat(DemoSummaries.isValidId("r-3", 3)).isFalse();
        assertThat(DemoSummaries.isValidId("bad-1", 3)).isFalse();
        assertThat(DemoSummaries.isValidId("r-x", 3)).isFalse();
    }
}
