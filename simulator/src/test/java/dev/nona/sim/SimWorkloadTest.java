package dev.nona.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.nona.workload.ServerClass;
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

    @Test
    void longestPathOps_diamondWithUnequalBranches_isTheHeavierBranch() {
        // 0 -> {1, 2} -> 3 with ops 1, 2, 5, 1: the paths weigh 1+2+1 = 4 and 1+5+1 = 7
        SimJobClass diamond = SimJobClass.inference("d", 1, new double[] {1, 2, 5, 1}, new int[][] {{0, 1}, {0, 2}, {1, 3}, {2, 3}},
                new double[] {0, 0, 0, 0}, List.of(new SimSubgraph(0, 3, new int[] {1, 2})));
        assertThat(diamond.longestPathOps()).isEqualTo(7);
        assertThat(chain(3, 2).longestPathOps()).isEqualTo(6);
        assertThat(SimJobClass.backgroundCompute("bg", 1, 4).longestPathOps()).isEqualTo(4);
    }

    @Test
    void inferenceJctLowerBound_twoModelsTwoSpeeds_isTheRateWeightedLongestPathAtTheFastestSpeed() {
        // The fork-join's longest path is 3e9 ops, a chain of two tasks of 1e9 ops is 2e9. Classes of 1 and 4 Gops/s: the fastest is 4e9. Rates 1 and 3; a background job is not an inference job.
        SimCluster cluster = new SimCluster(3, 2e9, 1e10, List.of(new ServerClass("slow", 2, 1e9, ServerClass.UNBOUNDED),
                new ServerClass("fast", 1, 4e9, ServerClass.UNBOUNDED)), null);
        SimWorkload w = new SimWorkload(cluster, List.of(TestingWorkloads.forkJoin(1), chain(2, 1e9).withRate(3),
                SimJobClass.backgroundCompute("bg", 5, 1e12)));
        // (1 * 3e9 + 3 * 2e9) / (1 + 3) / 4e9 = 9e9 / 16e9
        assertThat(w.inferenceJctLowerBoundSeconds()).isCloseTo(0.5625, within(1e-15));
        assertThat(w.withLoad(0.3).inferenceJctLowerBoundSeconds()).isCloseTo(0.5625, within(1e-12));
        assertThat(new SimWorkload(cluster, List.of(SimJobClass.backgroundCompute("bg", 5, 1e9))).inferenceJctLowerBoundSeconds()).isNaN();
    }

    /** A chain of {@code n} tasks of {@code ops} each, rate 1. */
    private static SimJobClass chain(int n, double ops) {
        double[] taskOps = new double[n];
        java.util.Arrays.fill(taskOps, ops);
        int[][] edges = new int[n - 1][];
        for (int t = 0; t + 1 < n; t++) {
            edges[t] = new int[] {t, t + 1};
        }
        int[] inner = new int[n - 2];
        for (int t = 1; t + 1 < n; t++) {
            inner[t - 1] = t;
        }
        return SimJobClass.inference("chain", 1, taskOps, edges, new double[n - 1], List.of(new SimSubgraph(0, n - 1, inner)));
    }
}
