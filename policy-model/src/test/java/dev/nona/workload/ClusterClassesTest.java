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

    private static Cluster classes(ServerClass... classes) {
        return Cluster.ofClasses(List.of(classes), 1e10, new ColdStartCost(0.2, 2e9));
    }

    /**
     * Two models of 2.9 GB that only one server of 3 GB holds whole (the others hold 1.2 GB): it holds one at a time,
     * and the shortfall names both, the server count and its memory; a third model that the small servers hold is
     * not named.
     */
    @Test
    void modelsOnlyOneLargeServerHoldsWhole_andNotTogether_areNamed() {
        Cluster c = classes(new ServerClass("large", 1, 2e11, 3e9), new ServerClass("small", 20, 1e11, 1.2e9));
        String note = c.wholeModelShortfall(List.of("resnet18", "densenet121", "gpt2"), new double[] {2.9e9, 2.9e9, 5e8});

        assertThat(note).contains("'resnet18' (2900000000 bytes), 'densenet121' (2900000000 bytes) fit whole only on the "
                + "1 server(s) of 3000000000 bytes or more, and not all at once").doesNotContain("gpt2");
    }

    @Test
    void enoughRoomOnTheLargeServers_orOneMemory_isNoShortfall() {
        List<String> names = List.of("a", "b");
        double[] bytes = {2.9e9, 2.9e9};
        ServerClass small = new ServerClass("small", 20, 1e11, 1.2e9);
        assertThat(classes(new ServerClass("large", 2, 2e11, 3e9), small).wholeModelShortfall(names, bytes))
                .as("one large server each").isNull();
        assertThat(classes(new ServerClass("large", 1, 2e11, 6e9), small).wholeModelShortfall(names, bytes))
                .as("one large server that holds both").isNull();
        assertThat(classes(new ServerClass("only", 3, 1e11, 2e9)).wholeModelShortfall(names, bytes))
                .as("one memory: every model that fits a server fits each; larger ones are cut").isNull();
        assertThat(new Cluster(4, 1e11, 1e10).wholeModelShortfall(names, bytes)).as("memory not modelled").isNull();
    }

    /** Each memory level is checked with the servers of that memory or more: the middle one here falls short. */
    @Test
    void aMiddleLevelFallsShort_whenItsModelsDoNotFitItsServersAndTheLargerOnes() {
        ServerClass huge = new ServerClass("huge", 1, 4e11, 40e9);
        ServerClass mid = new ServerClass("mid", 1, 1e11, 16e9);
        ServerClass small = new ServerClass("small", 48, 2.5e10, 1e9);
        List<String> names = List.of("a", "b", "c", "d", "e");
        double[] bytes = {10e9, 10e9, 10e9, 10e9, 10e9};

        assertThat(classes(huge, mid, small).wholeModelShortfall(names.subList(0, 4), new double[] {10e9, 10e9, 10e9, 10e9}))
                .as("four in the huge server").isNull();
        assertThat(classes(huge, mid, small).wholeModelShortfall(names, bytes))
                .as("a fifth in the mid one").isNull();
        assertThat(classes(huge, mid, small).wholeModelShortfall(List.of("a", "b", "c", "d", "e", "f"),
                new double[] {10e9, 10e9, 10e9, 10e9, 10e9, 10e9}))
                .contains("fit whole only on the 2 server(s) of 16000000000 bytes or more");
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
