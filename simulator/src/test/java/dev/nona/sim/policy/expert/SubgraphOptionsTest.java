package dev.nona.sim.policy.expert;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimSubgraph;
import dev.nona.sim.TestingWorkloads;
import dev.nona.sim.policy.table.SimChoice;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class SubgraphOptionsTest {
    /** The fork-join subgraph 0 -> {1, 2} -> 3 has $\sum_\pi |\pi|^2 = 1 + 4 = 5$ choices, as the optimiser has them. */
    @Test
    void enumerate_forkJoin_isTheOptimisersOmega() {
        SimJobClass c = TestingWorkloads.forkJoin(1);
        List<SimChoice> all = SubgraphOptions.enumerate(c, c.subgraphs().get(0), 1_000);
        assertThat(all).hasSize(5);
        Set<String> seen = new HashSet<>();
        for (SimChoice t : all) {
            Set<Integer> tasks = new HashSet<>();
            for (int p = 0; p < t.partCount(); p++) {
                for (int i = 0; i < t.partSize(p); i++) {
                    tasks.add(t.task(p, i));
                }
            }
            assertThat(tasks).containsExactlyInAnyOrder(1, 2);
            seen.add(t.toString());
        }
        assertThat(seen).hasSize(5);
        assertThat(all.get(0).isWhole()).as("coarsest first: everything with the root").isTrue();
    }

    @Test
    void enumerate_noIntermediates_keepsTheSinkWithTheRoot() {
        SimJobClass c = SimJobClass.inference("chain", 1, new double[] {1, 1}, new int[][] {{0, 1}}, new double[] {8},
                List.of(new SimSubgraph(0, 1, new int[0])));
        List<SimChoice> all = SubgraphOptions.enumerate(c, c.subgraphs().get(0), 10);
        assertThat(all).hasSize(1);
        assertThat(all.get(0).sinkWithRoot()).isTrue();
        assertThat(Arrays.asList(all.get(0).partCount())).containsExactly(0);
    }
}
