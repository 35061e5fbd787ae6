package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nona.optimize.NonaOptimizer;
import dev.nona.optimize.NonaProblem;
import dev.nona.optimize.Solution;
import dev.nona.workload.Background;
import java.util.List;
import org.junit.jupiter.api.Test;

final class PlacementTableTest {

    @Test
    void from_solution_recordsInputsAndUsesOriginalTaskIds() {
        NonaProblem p = PlacementFixtures.problem(8);
        Solution s = NonaOptimizer.solve(p);

        PlacementTable t = PlacementTables.from(p, s, 3, 1000);

        assertThat(t.version()).isEqualTo(3);
        assertThat(t.solvedFor().cluster()).isEqualTo(p.cluster());
        assertThat(t.solvedFor().ratesPerSecond()).containsEntry("m", 20.0);
        PlacementTable.ModelPlacement m = t.model("m");
        assertThat(m.tasks()).containsExactly("a1", "a2", "b", "c", "d", "e", "f", "g");
        assertThat(m.sourceTasks()).containsExactly("a1", "a2");
        assertThat(m.predictedJctSeconds()).isEqualTo(s.job("m").predictedJctSeconds());
        assertThat(m.subgraphs()).extracting(PlacementTable.SubgraphPlacement::sinkTasks)
                .containsExactly(List.of("d"), List.of("g"));
        for (PlacementTable.SubgraphPlacement sp : m.subgraphs()) {
            assertThat(sp.choices()).allSatisfy(c -> assertThat(c.probability()).isPositive());
            assertThat(sp.choices()).allSatisfy(c -> assertThat(c.parts().stream().flatMap(List::stream))
                    .allMatch(id -> id.equals(id.toLowerCase())));
        }
    }

    @Test
    void json_roundTrip_isEqual() {
        NonaProblem p = PlacementFixtures.problem(8);
        PlacementTable t = PlacementTables.from(p, NonaOptimizer.solve(p), 1, 42);

        assertThat(PlacementTable.fromJson(t.toJson())).isEqualTo(t);
    }

    /** The idle gate round-trips; a table from a writer before it reads as 0 (none); a gate below 1 is refused. */
    @Test
    void json_idleGate() throws Exception {
        NonaProblem p = PlacementFixtures.problem(8);
        PlacementTable t = PlacementTables.from(p, NonaOptimizer.solve(p), 1, 42);
        assertThat(t.idleGate()).as("one speed: no gate").isZero();
        PlacementTable gated = new PlacementTable(t.version(), t.createdAtMillis(), t.solvedFor(), t.feasible(),
                t.diagnostic(), t.objective(), t.linkLoad(), t.linkWaitSeconds(), t.solveMillis(), t.models(), 4);
        assertThat(PlacementTable.fromJson(gated.toJson())).isEqualTo(gated);

        ObjectMapper json = new ObjectMapper();
        ObjectNode older = (ObjectNode) json.readTree(gated.toJson());
        older.remove("idleGate");
        assertThat(PlacementTable.fromJson(json.writeValueAsString(older)).idleGate()).isZero();

        assertThatThrownBy(() -> new PlacementTable(t.version(), t.createdAtMillis(), t.solvedFor(), t.feasible(),
                t.diagnostic(), t.objective(), t.linkLoad(), t.linkWaitSeconds(), t.solveMillis(), t.models(), 0.5))
                .hasMessageContaining("idleGate (0.5)");
    }

    @Test
    void json_infeasibleTable_roundTripsInfinity() {
        NonaProblem p = PlacementFixtures.problem(8);
        NonaProblem overloaded = new NonaProblem(p.jobs(), p.cluster(),
                new Background(Background.Comm.ofLoad(1.5, 1e6, 1e10), null), p.costModel());
        PlacementTable t = PlacementTables.from(overloaded, NonaOptimizer.solve(overloaded), 1, 42);

        assertThat(t.feasible()).isFalse();
        assertThat(t.objective()).isInfinite();
        assertThat(PlacementTable.fromJson(t.toJson())).isEqualTo(t);
    }

    @Test
    void choice_badIndices_rejected() {
        assertThatThrownBy(() -> new PlacementTable.Choice(List.of(List.of("a")), 1, 0, 1.0))
                .hasMessageContaining("rootPart (1)");
        assertThatThrownBy(() -> new PlacementTable.Choice(List.of(List.of("a")), 0, 0, 0.0))
                .hasMessageContaining("probability (0.0)");
    }

    @Test
    void subgraph_probabilitiesNotSummingToOne_rejected() {
        assertThatThrownBy(() -> new PlacementTable.SubgraphPlacement("A", "D", List.of("d"),
                List.of(new PlacementTable.Choice(List.of(List.of("b")), 0, 0, 0.5))))
                .hasMessageContaining("sum to 0.5");
    }
}
