package dev.nona.optimize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.dag.ContractedNode;
import dev.nona.workload.Background;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class EdgeCasesTest {

    @Test
    void idleJobClass_getsItsFastestTriplet() {
        Solution s = NonaOptimizer.solve(Figure1.problem(0, Background.NONE, CostModel.PAPER));

        assertThat(s.feasible()).isTrue();
        assertThat(s.objective()).isZero();
        assertThat(s.job("f").subgraphs().get(0).probability(Figure1.SPLIT_WITH_2)).isEqualTo(1.0);
        assertThat(s.job("f").predictedJctSeconds()).isCloseTo(0.014, within(1e-12));
    }

    @Test
    void singleNodeJob_hasNoSubgraphsAndItsComputeTime() {
        JobClass single = new JobClass("alex", 50, Map.of("a", new ContractedNode("a", 5e9, List.of("x", "y"), false)), "a", List.of());
        NonaProblem p = new NonaProblem(List.of(single), Figure1.CLUSTER, Background.NONE, CostModel.PAPER);

        Solution s = NonaOptimizer.solve(p);

        assertThat(s.feasible()).isTrue();
        assertThat(s.job("alex").subgraphs()).isEmpty();
        assertThat(s.job("alex").predictedJctSeconds()).isCloseTo(5e-3, within(1e-15));
        assertThat(s.objective()).isCloseTo(50 * 5e-3, within(1e-12));
    }

    @Test
    void backgroundCompute_onlyMattersWithServerQueueing() {
        Background bg = new Background(null, new Background.Compute(50, 1e10)); // 50 x 10 ms over 2 servers: u += 0.25
        Solution paper = NonaOptimizer.solve(Figure1.problem(10, bg, CostModel.PAPER));
        Solution queued = NonaOptimizer.solve(Figure1.problem(10, bg, CostModel.DEFAULT));

        assertThat(paper.serverWaitSeconds()).isZero();
        assertThat(paper.job("f").predictedJctSeconds()).isCloseTo(NonaOptimizer.solve(
                Figure1.problem(10, Background.NONE, CostModel.PAPER)).job("f").predictedJctSeconds(), within(1e-15));
        assertThat(queued.serverUtilisation()).isCloseTo(0.11 + 0.25, within(1e-12));
        assertThat(queued.serverWaitSeconds()).isGreaterThan(NonaOptimizer.solve(
                Figure1.problem(10, Background.NONE, CostModel.DEFAULT)).serverWaitSeconds());
    }

    @Test
    void heavierJobRate_neverLowersPredictedLinkLoadBelowBackground() {
        Background bg = new Background(Background.Comm.ofLoad(0.5, 1e7, Figure1.MU), null);
        for (double rate : new double[] {1, 10, 40, 80}) {
            Solution s = NonaOptimizer.solve(Figure1.problem(rate, bg, CostModel.PAPER));
            assertThat(s.feasible()).isTrue();
            assertThat(s.rho()).isGreaterThanOrEqualTo(0.5).isLessThan(1);
        }
    }
}
