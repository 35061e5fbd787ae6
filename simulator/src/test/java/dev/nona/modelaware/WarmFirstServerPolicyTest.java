package dev.nona.modelaware;

import static dev.nona.modelaware.TestingCluster.T5_SMALL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.optimize.CostModel;
import dev.nona.placement.PlacementSampler;
import dev.nona.placement.PlacementTable;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

final class WarmFirstServerPolicyTest {
    private static final List<String> IDS = List.of("s0", "s1", "s2", "s3", "s4", "s5");
    private static final int[] ALL = {0, 1, 2, 3, 4, 5};

    private static WarmFirstServerPolicy policy(TestingCluster c, int[] eligible) {
        return new WarmFirstServerPolicy(c.registry(), IDS, List.of("t5-small"), eligible);
    }

    @Test
    void source_leastLoadedWarmServerUnderTarget() {
        TestingCluster c = new TestingCluster(6, 8)
                .running("s4", 1, T5_SMALL).running("s4", 1, T5_SMALL)
                .running("s1", 1, T5_SMALL);
        for (int i = 0; i < 3; i++) {
            c.running("s5", 1, T5_SMALL); // at the target of 3: skipped
        }
        var rnd = new SplittableRandom(1);
        assertThat(policy(c, ALL).sourceServer(0, rnd)).isEqualTo(1);
    }

    @Test
    void parts_warmFirstThenUniform_alwaysDistinct() {
        TestingCluster c = new TestingCluster(6, 8).running("s4", 1, T5_SMALL).running("s1", 1, T5_SMALL);
        var p = policy(c, ALL);
        var rnd = new SplittableRandom(2);
        int[] taken = new int[6];
        taken[0] = p.sourceServer(0, rnd);
        taken[1] = p.partServer(0, taken, 1, rnd);
        taken[2] = p.partServer(0, taken, 2, rnd);

        assertThat(Set.of(taken[0], taken[1])).containsExactlyInAnyOrder(1, 4);
        assertThat(taken[2]).isNotIn(1, 4);
    }

    @Test
    void nothingWarm_isUniformOverEligible() {
        TestingCluster c = new TestingCluster(6, 8);
        var p = policy(c, new int[] {2, 3});
        var rnd = new SplittableRandom(3);
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            seen.add(p.sourceServer(0, rnd));
        }
        assertThat(seen).containsExactlyInAnyOrder(2, 3);
    }

    @Test
    void samplerWithWarmFirst_putsTheRequestOnTheWarmServer() {
        TestingCluster c = new TestingCluster(6, 8).running("s3", 1, T5_SMALL);
        var choice = new PlacementTable.Choice(List.of(List.of("b")), 0, 0, 1.0);
        var model = new PlacementTable.ModelPlacement("t5-small", 1, 1, List.of("a", "b", "c"), List.of("a"),
                List.of(new PlacementTable.SubgraphPlacement("a", "c", List.of("c"), List.of(choice))));
        var table = new PlacementTable(1, 0, new PlacementTable.SolvedFor(new Cluster(6, 1e9, 1e9),
                Map.of("t5-small", 1.0), Background.NONE, CostModel.DEFAULT), true, "", 1, 0, 0, 0, List.of(model));
        int[] out = new int[3];

        new PlacementSampler(table).place(0, policy(c, ALL), new SplittableRandom(4), out);

        assertThat(out).containsExactly(3, 3, 3);
    }

    @Test
    void badEligibleIndex_isRejected() {
        TestingCluster c = new TestingCluster(6, 8);
        assertThatThrownBy(() -> policy(c, new int[] {0, 9})).hasMessageContaining("eligible server index (9)");
    }

    @Property(tries = 200, seed = "42")
    void parts_alwaysDistinctEligibleServers(@ForAll @IntRange(min = 1, max = 6) int parts,
                                             @ForAll @IntRange(min = 0, max = 5) int warm, @ForAll long seed) {
        TestingCluster c = new TestingCluster(6, 8);
        for (int i = 0; i < warm; i++) {
            c.running("s" + i, 1, T5_SMALL);
        }
        var p = policy(c, ALL);
        var rnd = new SplittableRandom(seed);
        int[] taken = new int[parts];
        taken[0] = p.sourceServer(0, rnd);
        for (int k = 1; k < parts; k++) {
            taken[k] = p.partServer(0, taken, k, rnd);
        }
        Set<Integer> distinct = new HashSet<>();
        for (int k = 0; k < parts; k++) {
            distinct.add(taken[k]);
            if (k < warm) {
                assertThat(taken[k]).as("part %d is warm", k).isLessThan(warm);
            }
        }
        assertThat(distinct).hasSize(parts);
    }
}
