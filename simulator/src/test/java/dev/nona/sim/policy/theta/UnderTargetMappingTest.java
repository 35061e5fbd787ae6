package dev.nona.sim.policy.theta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.sim.engine.ClusterView;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class UnderTargetMappingTest {
    static Set<Integer> firsts(ServerMapping m, ClusterView view, int draws, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < draws; i++) {
            seen.add(m.first(view, rng));
        }
        return seen;
    }

    @Test
    void first_exactQueues_onlyServersUnderTheTarget_eachReached() {
        TestingClusterView view = new TestingClusterView(2, 0, 5, 0, 1);
        assertThat(firsts(new UnderTargetMapping(1), view, 200, 1)).containsExactlyInAnyOrder(1, 3);
        assertThat(firsts(new UnderTargetMapping(2), view, 200, 2)).containsExactlyInAnyOrder(1, 3, 4);
    }

    @Test
    void first_noServerUnderTarget_anyServer() {
        TestingClusterView view = new TestingClusterView(3, 4, 5);
        assertThat(firsts(new UnderTargetMapping(3), view, 300, 3)).containsExactlyInAnyOrder(0, 1, 2);
    }

    @Test
    void other_skipsServersTheSubgraphAlreadyUses() {
        TestingClusterView view = new TestingClusterView(0, 0, 9, 0);
        UnderTargetMapping m = new UnderTargetMapping(1);
        SplittableRandom rng = new SplittableRandom(4);
        ServerPicker picker = new ServerPicker(8);
        for (int round = 0; round < 100; round++) {
            picker.reset(1);
            int a = m.other(view, rng, picker);
            int b = m.other(view, rng, picker);
            assertThat(List.of(a, b)).containsExactlyInAnyOrder(0, 3);
            assertThat(m.other(view, rng, picker)).as("only the busy server is left").isEqualTo(2);
        }
    }

    @Test
    void first_reportedQueues_lagUntilTheNextReport() {
        TestingClusterView view = new TestingClusterView(0, 3, 3, 3);
        UnderTargetMapping m = new UnderTargetMapping(1, 1.0);
        assertThat(firsts(m, view, 50, 5)).containsExactly(0);
        view.queues = new int[] {3, 0, 0, 0};
        view.now = 0.5;
        assertThat(firsts(m, view, 50, 6)).as("the report of t = 0 still stands").containsExactly(0);
        view.now = 1.0;
        assertThat(firsts(m, view, 200, 7)).containsExactlyInAnyOrder(1, 2, 3);
    }

    @Test
    void badArguments_areNamed() {
        assertThatThrownBy(() -> new UnderTargetMapping(0)).hasMessageContaining("target ongoing requests (0)");
        assertThatThrownBy(() -> new UnderTargetMapping(1, Double.NaN)).hasMessageContaining("telemetry report period (NaN s)");
        assertThatThrownBy(() -> new UnderTargetMapping(1, -1)).hasMessageContaining("(-1.0 s)");
    }

    @Test
    void thetaTable_splitProbability_countsOnlyTripletsThatSplit() {
        SimTriplet whole = SimTriplet.of(new int[][] {{1, 2}}, 0, 0);
        SimTriplet split = SimTriplet.of(new int[][] {{1}, {2}}, 0, 0);
        SimTriplet sinkAway = new SimTriplet(new int[0][], 0, 0, false);
        assertThat(whole.isWhole()).isTrue();
        assertThat(split.isWhole()).isFalse();
        assertThat(sinkAway.isWhole()).isFalse();
        assertThat(new SimTriplet(new int[0][], 0, 0, true).isWhole()).isTrue();
        ThetaTable table = new ThetaTable(List.of(List.of(new SubgraphTheta(List.of(whole, split), new double[] {0.75, 0.25})),
                List.of(SubgraphTheta.pure(sinkAway)), List.of()), List.of(Double.NaN, Double.NaN, Double.NaN));
        assertThat(table.maxSplitProbability()).isEqualTo(1.0);
        ThetaTable mostlyWhole = new ThetaTable(List.of(List.of(new SubgraphTheta(List.of(whole, split), new double[] {0.75, 0.25}))),
                List.of(Double.NaN));
        assertThat(mostlyWhole.maxSplitProbability()).isEqualTo(0.25);
    }
}
