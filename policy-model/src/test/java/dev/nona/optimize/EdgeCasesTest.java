package dev.nona.optimize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.dag.ContractedNode;
import dev.nona.dag.Triplet;
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

    /**
     * Table I of the paper: the busier the link, the less Nona distributes f (here it splits every job up to 80/s,
     * then less and less: 0.69, 0.52, 0.35 of them at 120, 160, 240/s). The link load it reports is the
     * background's 0.5 plus what its theta sends: per job, a split sends 1 ms (10 MB) or 10 ms (100 MB) from the
     * root to the part without it, and the same from the part without the sink (Eqs. (IV), (VI)).
     */
    @Test
    void heavierJobRate_distributesLess_andReportsTheLinkLoadItsThetaSends() {
        Background bg = new Background(Background.Comm.ofLoad(0.5, 1e7, Figure1.MU), null);
        double previousSplit = 1;
        for (double rate : new double[] {1, 40, 80, 120, 160, 240}) {
            Solution s = NonaOptimizer.solve(Figure1.problem(rate, bg, CostModel.PAPER));
            Solution.SubgraphResult sg = s.job("f").subgraphs().get(0);
            double sent = 0;
            for (int i = 0; i < sg.triplets().size(); i++) {
                sent += sg.theta().get(i) * linkSeconds(sg.triplets().get(i));
            }
            double split = 1 - sg.probability(Figure1.TOGETHER);

            assertThat(s.feasible()).isTrue();
            assertThat(s.rho()).as("rate %s", rate).isCloseTo(0.5 + rate * sent, within(1e-12)).isLessThan(1);
            assertThat(split).as("rate %s", rate).isLessThanOrEqualTo(previousSplit + 1e-12);
            previousSplit = split;
        }
        assertThat(previousSplit).as("at 240 jobs/s").isLessThan(0.5);
    }

    /** Seconds of link time per job of a Figure 1 triplet, from the edges it cuts. */
    private static double linkSeconds(Triplet t) {
        if (t.parts().size() == 1) {
            return 0;
        }
        int partWith2 = t.parts().get(0).contains("2") ? 0 : 1;
        double rootEdge = t.rootPart() == partWith2 ? 1e-3 : 10e-3; // 1->3 (10 MB) or 1->2 (100 MB) is cut
        double sinkEdge = t.sinkPart() == partWith2 ? 1e-3 : 10e-3; // 3->4 or 2->4 is cut
        return rootEdge + sinkEdge;
    }
}
