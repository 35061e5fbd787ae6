package dev.nona.topics.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.topics.serde.JsonSerde;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

final class StageAssignmentsTest {
    private static final StageAssignments.Tasks TASKS = new StageAssignments.Tasks(List.of("t1", "t2", "t3"));

    @Test
    void of_readsAsTheListOfItsAssignments_andCopiesTheServers() {
        String[] servers = {"s0", "s4", "s4", "unused"};
        StageAssignments stages = StageAssignments.of(TASKS, servers);
        servers[0] = "changed";
        List<StageAssignment> expected = List.of(new StageAssignment("t1", "s0"), new StageAssignment("t2", "s4"),
                new StageAssignment("t3", "s4"));
        assertThat(stages).hasSize(3).isEqualTo(expected).containsExactlyElementsOf(expected);
        assertThat(expected).isEqualTo(stages);
        assertThat(stages.hashCode()).isEqualTo(expected.hashCode());
        assertThat(stages.task(1)).isEqualTo("t2");
        assertThat(stages.server(2)).isEqualTo("s4");
        assertThatThrownBy(() -> stages.add(new StageAssignment("t4", "s0")))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void decision_withStageAssignments_keepsThem_andWritesAsAnyList() {
        StageAssignments stages = StageAssignments.of(TASKS, new String[] {"s0", "s0", "s1"});
        PlacementDecision d = PlacementDecision.of("r", "m", "t", 1, false, stages, 0.5, 1L);
        PlacementDecision copied = PlacementDecision.of("r", "m", "t", 1, false, List.copyOf(stages), 0.5, 1L);
        assertThat(d.stages()).isSameAs(stages);
        assertThat(d).isEqualTo(copied);
        JsonSerde<PlacementDecision> serde = new JsonSerde<>(PlacementDecision.class, Integer.MAX_VALUE);
        assertThat(new String(serde.serialize(d), StandardCharsets.UTF_8))
                .isEqualTo(new String(serde.serialize(copied), StandardCharsets.UTF_8));
        assertThat(serde.parse(serde.serialize(d)).value()).isEqualTo(d);
    }

    @Test
    void of_blankOrMissingIds_namesTheStage() {
        assertThatThrownBy(() -> StageAssignments.of(TASKS, new String[] {"s0", " ", "s1"}))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessage("field 'stages[1].server' (' ') must not be blank");
        assertThatThrownBy(() -> StageAssignments.of(TASKS, new String[] {"s0", "s0", null}))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessage("field 'stages[2].server' is missing (null)");
        assertThatThrownBy(() -> StageAssignments.of(TASKS, new String[] {"s0"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("servers (1) must name one per task (3)");
        assertThatThrownBy(() -> new StageAssignments.Tasks(List.of("t1", "")))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessage("field 'stages[1].task' ('') must not be blank");
        assertThatThrownBy(() -> new StageAssignments.Tasks(List.of()))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessage("field 'stages' ([]) must hold at least one stage");
    }
}
