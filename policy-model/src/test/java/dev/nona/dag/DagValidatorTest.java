package dev.nona.dag;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

final class DagValidatorTest {

    @Test
    void validate_validDiamond_passes() {
        assertThatCode(() -> DagValidator.validate(Dags.of("a>b", "a>c", "b>d", "c>d"))).doesNotThrowAnyException();
    }

    @Test
    void validate_cycle_namesOneCycle() {
        ModelDag dag = Dags.of("s>a", "a>b", "b>c", "c>a", "c>t");

        assertThatThrownBy(() -> DagValidator.validate(dag))
                .isInstanceOf(DagValidationException.class)
                .hasMessage("edges: the graph has a cycle: a -> b -> c -> a");
    }

    @Test
    void validate_danglingTarget_namesFieldAndValue() {
        ModelDag dag = new ModelDag("m", List.of(new Task("a", 1)), List.of(new Edge("a", "ghost", 1)));

        assertThatThrownBy(() -> DagValidator.validate(dag)).hasMessage("edges[0].to: 'ghost' is not a task id");
    }

    @Test
    void validate_danglingSource_namesFieldAndValue() {
        ModelDag dag = new ModelDag("m", List.of(new Task("a", 1)), List.of(new Edge("ghost", "a", 1)));

        assertThatThrownBy(() -> DagValidator.validate(dag)).hasMessage("edges[0].from: 'ghost' is not a task id");
    }

    @Test
    void validate_duplicateTaskId_namesIndexAndId() {
        ModelDag dag = new ModelDag("m", List.of(new Task("a", 1), new Task("b", 1), new Task("a", 2)), List.of());

        assertThatThrownBy(() -> DagValidator.validate(dag)).hasMessage("tasks[2].id: duplicate task id 'a'");
    }

    @Test
    void validate_selfLoop_namesTask() {
        ModelDag dag = Dags.of("a>b", "b>b");

        assertThatThrownBy(() -> DagValidator.validate(dag)).hasMessage("edges[1]: self-loop on task 'b'");
    }

    @Test
    void validate_duplicateEdge_namesIt() {
        ModelDag dag = Dags.of("a>b", "a>b");

        assertThatThrownBy(() -> DagValidator.validate(dag)).hasMessage("edges[1]: duplicate edge 'a' -> 'b'");
    }

    @Test
    void validate_noTasks_isEmptyGraphError() {
        ModelDag dag = new ModelDag("empty", List.of(), List.of());

        assertThatThrownBy(() -> DagValidator.validate(dag))
                .hasMessage("dag 'empty': tasks is empty (a model needs at least one task)");
    }

    @Test
    void task_negativeNanOrInfiniteOps_rejectedWithValue() {
        assertThatThrownBy(() -> new Task("a", -1)).hasMessage("task 'a': ops (-1.0) must be finite and >= 0");
        assertThatThrownBy(() -> new Task("a", Double.NaN)).hasMessage("task 'a': ops (NaN) must be finite and >= 0");
        assertThatThrownBy(() -> new Task("a", Double.POSITIVE_INFINITY))
                .hasMessage("task 'a': ops (Infinity) must be finite and >= 0");
    }

    @Test
    void edge_negativeNanOrInfiniteBytes_rejectedWithValue() {
        assertThatThrownBy(() -> new Edge("a", "b", -2)).hasMessage("edge a->b: bytes (-2.0) must be finite and >= 0");
        assertThatThrownBy(() -> new Edge("a", "b", Double.NaN)).hasMessage("edge a->b: bytes (NaN) must be finite and >= 0");
        assertThatThrownBy(() -> new Edge("a", "b", Double.NEGATIVE_INFINITY))
                .hasMessage("edge a->b: bytes (-Infinity) must be finite and >= 0");
    }
}
