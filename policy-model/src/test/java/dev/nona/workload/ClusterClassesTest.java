package dev.nona.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.dag.DagValidationException;
import dev.nona.dag.Edge;
import dev.nona.dag.ModelDag;
import dev.nona.dag.Task;
import dev.nona.dag.TaskBytes;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ClusterClassesTest {
    @Test
    void classesGiveTheCountAndTheCountWeightedMeanSpeed() {
        Cluster c = Cluster.ofClasses(List.of(new ServerClass("big", 2, 8e9, 16e9), new ServerClass("small", 6, 1e9, 2e9)),
                1e10, new ColdStartCost(0.5, 1e9));
        assertThat(c.servers()).isEqualTo(8);
        assertThat(c.opsPerSecond()).isEqualTo((2 * 8e9 + 6 * 1e9) / 8);
        assertThat(c.classOf(1)).isZero();
        assertThat(c.classOf(2)).isEqualTo(1);
        assertThat(c.heterogeneous()).isTrue();
        assertThat(c.memoryBounded()).isTrue();
        assertThat(c.coldStart().seconds(2e9)).isEqualTo(2.5);
        assertThatThrownBy(() -> c.withServers(4)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void thePapersClusterIsOneClassWithUnboundedMemory() {
        Cluster c = new Cluster(80, 1e13, 1e10);
        assertThat(c.classes()).containsExactly(new ServerClass("default", 80, 1e13, ServerClass.UNBOUNDED));
        assertThat(c.memoryBounded()).isFalse();
        assertThat(c.withServers(4).classes().get(0).count()).isEqualTo(4);
    }

    @Test
    void badClassesNameTheFieldAndTheValue() {
        assertThatThrownBy(() -> new ServerClass("a", 0, 1, 1)).hasMessageContaining("count (0)");
        assertThatThrownBy(() -> new ServerClass("a", 1, 1, -5)).hasMessageContaining("memoryBytes (-5.0)");
        assertThatThrownBy(() -> new ServerClass("a", 1, Double.NaN, 1)).hasMessageContaining("opsPerSecond");
        assertThatThrownBy(() -> new ColdStartCost(1, 0)).hasMessageContaining("loadBytesPerSecond");
        assertThatThrownBy(() -> Cluster.ofClasses(List.of(new ServerClass("a", 1, 1, 1), new ServerClass("a", 1, 1, 1)), 1, null))
                .hasMessageContaining("duplicate name 'a'");
    }

    @Test
    void aModelsBytesSpreadByOpsUnlessItsTasksCarryTheirOwn() {
        ModelDag spread = new ModelDag("m", List.of(new Task("a", 1), new Task("b", 3)), List.of(new Edge("a", "b", 8)));
        assertThat(TaskBytes.perTask(spread, 400)).containsExactly(100, 300);
        ModelDag own = new ModelDag("m", List.of(new Task("a", 1, 7), new Task("b", 3, 9)), List.of(new Edge("a", "b", 8)));
        assertThat(TaskBytes.perTask(own, 400)).containsExactly(7, 9);
        ModelDag mixed = new ModelDag("m", List.of(new Task("a", 1, 7), new Task("b", 3)), List.of(new Edge("a", "b", 8)));
        assertThatThrownBy(() -> TaskBytes.perTask(mixed, 400)).isInstanceOf(DagValidationException.class)
                .hasMessageContaining("task 'b' has no sizeBytes");
    }
}
