package dev.nona.optimize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.dag.DagAnalysis;
import dev.nona.dag.Edge;
import dev.nona.dag.ModelDag;
import dev.nona.dag.Task;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A job class's bytes from the model's size ({@link Problems#jobClass(String, double, DagAnalysis, double)}). */
final class JobClassBytesTest {
    /** Fig. 1's DAG: tasks 1, 2, 3, 4 of 1e9, 1e10, 1e10, 1e9 ops. */
    private static ModelDag figure1(double... bytes) {
        double[] ops = {1e9, 1e10, 1e10, 1e9};
        Task[] tasks = new Task[4];
        for (int i = 0; i < 4; i++) {
            tasks[i] = bytes.length == 0 ? new Task(String.valueOf(i + 1), ops[i]) : new Task(String.valueOf(i + 1), ops[i], bytes[i]);
        }
        return new ModelDag("f", List.of(tasks), List.of(new Edge("1", "2", 1e8), new Edge("1", "3", 1e7),
                new Edge("2", "4", 1e8), new Edge("3", "4", 1e7)));
    }

    @Test
    void modelSize_spreadByOps_partFootprintsSumToIt() {
        JobClass j = Problems.jobClass("f", 1, DagAnalysis.analyse(figure1()), 2200);
        // 2200 bytes over 22e9 ops: 100 bytes per 1e9 ops
        assertThat(j.nodeBytes("1")).isCloseTo(100, within(1e-9));
        assertThat(j.nodeBytes("2")).isCloseTo(1000, within(1e-9));
        assertThat(j.totalBytes()).isCloseTo(2200, within(1e-9));
        double[] parts = PartFit.partBytes(j, 0, Figure1.SPLIT_WITH_2);
        assertThat(parts[0] + parts[1]).isCloseTo(2200, within(1e-9));
        assertThat(j.withRate(3).taskBytes()).isEqualTo(j.taskBytes());
    }

    @Test
    void tasksOwnSizes_win_andNoSizeWeighsNothing() {
        JobClass own = Problems.jobClass("f", 1, DagAnalysis.analyse(figure1(1, 2, 3, 4)), 2200);
        assertThat(own.nodeBytes("3")).isEqualTo(3);
        assertThat(own.totalBytes()).isEqualTo(10);
        JobClass none = Problems.jobClass("f", 1, DagAnalysis.analyse(figure1()));
        assertThat(none.taskBytes()).isEmpty();
        assertThat(none.totalBytes()).isZero();
    }
}
