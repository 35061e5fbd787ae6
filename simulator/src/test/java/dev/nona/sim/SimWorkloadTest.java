package dev.nona.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

final class SimWorkloadTest {
    @Test
    void withLoad_forkJoinPlusBackground_setsComputeLoadAndKeepsTheMix() {
        SimWorkload w = new SimWorkload(TestingWorkloads.cluster(10), List.of(TestingWorkloads.forkJoin(1),
                SimJobClass.backgroundCompute("bg", 0.01, 1e9)));
        SimWorkload scaled = w.withLoad(0.7);
        // S_j = 4 s for the fork-join, 1 s for the background job: load = (4 beta + 1 * beta/100) / 10
        assertThat(scaled.computeLoad()).isCloseTo(0.7, within(1e-12));
        double beta = scaled.classes().get(0).ratePerSecond();
        assertThat(beta).isCloseTo(0.7 * 10 / 4.01, within(1e-12));
        assertThat(scaled.classes().get(1).ratePerSecond() / beta).isCloseTo(0.01, within(1e-12));
    }

    @Test
    void withLoad_backgroundCommOnly_setsLinkLoad() {
        SimWorkload w = new SimWorkload(TestingWorkloads.cluster(1), List.of(SimJobClass.backgroundComm("c", 1, 1e8)));
        assertThat(w.hasModels()).isFalse();
        assertThat(w.withLoad(0.8).backgroundLinkLoad()).isCloseTo(0.8, within(1e-12));
    }

    @Test
    void withLoad_nonPositive_isRejectedNamingTheValue() {
        SimWorkload w = new SimWorkload(TestingWorkloads.cluster(1), List.of(TestingWorkloads.forkJoin(1)));
        assertThatThrownBy(() -> w.withLoad(-1)).hasMessageContaining("load (-1.0)");
    }

    @Test
    void jobClass_edgeBackwards_isRejected() {
        assertThatThrownBy(() -> SimJobClass.inference("x", 1, new double[] {1, 1}, new int[][] {{1, 0}}, new double[] {1},
                List.of(new SimSubgraph(0, 1, new int[0])))).hasMessageContaining("edge 1->0");
    }
}
