package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.optimize.CostModel;
import dev.nona.optimize.NonaOptimizer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

final class PlacementSamplerTest {

    /** A hand-written table: first subgraph always split with root on B's server and sink on C's; second 50/50. */
    static PlacementTable table(int servers) {
        var first = new PlacementTable.SubgraphPlacement("A", "D", List.of("d"), List.of(
                new PlacementTable.Choice(List.of(List.of("b"), List.of("c")), 0, 1, 1.0)));
        var second = new PlacementTable.SubgraphPlacement("D", "G", List.of("g"), List.of(
                new PlacementTable.Choice(List.of(List.of("e", "f")), 0, 0, 0.5),
                new PlacementTable.Choice(List.of(List.of("e"), List.of("f")), 1, 1, 0.5)));
        var model = new PlacementTable.ModelPlacement("m", 20, 0.05,
                List.of("a1", "a2", "b", "c", "d", "e", "f", "g"), List.of("a1", "a2"), List.of(first, second));
        var solvedFor = new PlacementTable.SolvedFor(PlacementFixtures.problem(servers).cluster(), Map.of("m", 20.0), null,
                CostModel.DEFAULT);
        return new PlacementTable(1, 0, solvedFor, true, "", 1, 0.1, 0.001, 1, List.of(model), 0);
    }

    @Test
    void place_followsTripletStructure() {
        PlacementSampler sampler = new PlacementSampler(table(16));
        ServerPolicy servers = UniformServerPolicy.ofRange(16);
        SplittableRandom rnd = new SplittableRandom(5);
        int[] out = new int[8];
        int together = 0;
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            sampler.place(0, servers, rnd, out);
            int a1 = out[0], a2 = out[1], b = out[2], c = out[3], d = out[4], e = out[5], f = out[6], g = out[7];
            assertThat(a1).isEqualTo(a2).isBetween(0, 15);
            assertThat(b).isEqualTo(a1);          // root's part is with the root
            assertThat(c).isNotEqualTo(b);        // distinct parts on distinct servers
            assertThat(d).isEqualTo(c);           // sink with part l = 1
            if (e == f) {
                together++;
                assertThat(e).isEqualTo(d);
                assertThat(g).isEqualTo(d);
            } else {
                assertThat(f).isEqualTo(d);       // rootPart = 1 is {f}
                assertThat(g).isEqualTo(f);       // sinkPart = 1
            }
        }
        assertThat(together / (double) n).isCloseTo(0.5, within(0.02));
    }

    @Test
    void place_sourceIsUniformOverEligibleServers() {
        PlacementSampler sampler = new PlacementSampler(table(4));
        ServerPolicy servers = new UniformServerPolicy(new int[] {3, 7, 9, 12});
        SplittableRandom rnd = new SplittableRandom(9);
        int[] out = new int[8];
        Map<Integer, Integer> counts = new HashMap<>();
        int n = 40_000;
        for (int i = 0; i < n; i++) {
            sampler.place(0, servers, rnd, out);
            counts.merge(out[0], 1, Integer::sum);
            for (int s : out) {
                assertThat(s).isIn(3, 7, 9, 12);
            }
        }
        assertThat(counts.keySet()).containsExactlyInAnyOrder(3, 7, 9, 12);
        counts.values().forEach(c -> assertThat(c / (double) n).isCloseTo(0.25, within(0.015)));
    }

    @Test
    void place_singleEligibleServer_partsShareIt() {
        PlacementSampler sampler = new PlacementSampler(table(16));
        int[] out = new int[8];
        sampler.place(0, new UniformServerPolicy(new int[] {5}), new SplittableRandom(1), out);
        assertThat(out).containsOnly(5);
    }

    @Test
    void place_fromSolvedTable_sameSeedSameDecisions() {
        var p = PlacementFixtures.problem(8);
        PlacementTable t = PlacementTables.from(p, NonaOptimizer.solve(p), 1, 0);
        int[] a = new int[8];
        int[] b = new int[8];
        new PlacementSampler(t).place(0, UniformServerPolicy.ofRange(8), new SplittableRandom(3), a);
        new PlacementSampler(t).place(0, UniformServerPolicy.ofRange(8), new SplittableRandom(3), b);
        assertThat(a).isEqualTo(b);
        assertThat(new PlacementSampler(t).modelIndex("m")).isZero();
        assertThat(new PlacementSampler(t).modelIndex("nope")).isEqualTo(-1);
    }

    @Test
    void uniformPolicy_badServerLists_rejected() {
        Assertions.assertThatThrownBy(() -> new UniformServerPolicy(new int[0]))
                .hasMessage("eligible servers must not be empty");
        Assertions.assertThatThrownBy(() -> new UniformServerPolicy(new int[] {1, 2, 1}))
                .hasMessage("eligible servers contain duplicates");
        Assertions.assertThatThrownBy(() -> UniformServerPolicy.ofRange(0))
                .hasMessage("servers (0) must be >= 1");
    }

    @Test
    void sampler_tableNamingUnknownTask_rejectedWithModelAndTask() {
        PlacementTable good = table(4);
        PlacementTable.ModelPlacement m = good.models().get(0);
        var broken = new PlacementTable.ModelPlacement(m.name(), m.ratePerSecond(), m.predictedJctSeconds(),
                List.of("a1", "a2", "b", "c", "d", "e", "f"), m.sourceTasks(), m.subgraphs()); // "g" missing
        PlacementTable t = new PlacementTable(1, 0, good.solvedFor(), true, "", 1, 0.1, 0.001, 1, List.of(broken), 0);

        Assertions.assertThatThrownBy(() -> new PlacementSampler(t))
                .hasMessage("table model 'm': task 'g' is not in its task list");
    }

    @Test
    void place_partsAlwaysOnDistinctServers_evenWithFewSpareServers() {
        // 3 eligible servers; the first subgraph is always split in two parts: they must never share a server
        PlacementSampler sampler = new PlacementSampler(table(3));
        ServerPolicy servers = new UniformServerPolicy(new int[] {0, 1, 2});
        SplittableRandom rnd = new SplittableRandom(17);
        int[] out = new int[8];
        for (int i = 0; i < 10_000; i++) {
            sampler.place(0, servers, rnd, out);
            assertThat(out[2]).isNotEqualTo(out[3]).isBetween(0, 2);
            assertThat(out[3]).isBetween(0, 2);
        }
    }
}
