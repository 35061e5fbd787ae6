package dev.nona.sim.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.sim.SimWorkload;
import dev.nona.sim.TestingWorkloads;
import dev.nona.sim.policy.expert.ExpertSearch;
import dev.nona.sim.policy.expert.SubgraphOptions;
import dev.nona.sim.policy.table.SimChoice;
import dev.nona.sim.policy.table.SimTable;
import dev.nona.sim.policy.table.SubgraphTable;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ExpertSearchTest {
    @Test
    void paretoFront_forkJoin_isLocalThenSplit() {
        SimWorkload w = new SimWorkload(TestingWorkloads.cluster(16), List.of(TestingWorkloads.forkJoin(1)));
        List<SimChoice> front = SubgraphOptions.paretoFront(w.classes().get(0), w.classes().get(0).subgraphs().get(0), w.cluster(), 1000);
        // local: no link time, 2 s; split: 0.2 s of link time, 1.2 s; nothing else is on the front
        assertThat(front).hasSize(2);
        assertThat(front.get(0).partCount()).isEqualTo(1);
        assertThat(front.get(1).partCount()).isEqualTo(2);
    }

    @Test
    void solve_lightLoad_distributesAndHeavyLinkLoad_keepsLocal() {
        ExpertSearch search = new ExpertSearch(new ExpertSearch.Settings(1_500, 7, 1, 1000), m -> { });
        SimWorkload light = new SimWorkload(TestingWorkloads.cluster(16), List.of(TestingWorkloads.forkJoin(0.5)));
        SimTable t = search.solve(light);
        assertThat(t.of(0).get(0).choices().get(1).partCount()).isEqualTo(2);
        assertThat(t.of(0).get(0).probability(1)).isGreaterThan(0.5);
        // 2 edges of 0.1 s cut per split job: at 6 jobs/s splitting a share p of the jobs loads the link to 1.2 p,
        // so any p >= 1/1.2 leaves it unstable; the search must keep enough jobs local
        SimWorkload heavy = new SimWorkload(TestingWorkloads.cluster(64), List.of(TestingWorkloads.forkJoin(6)));
        SimTable h = search.solve(heavy);
        assertThat(h.of(0).get(0).probability(1)).isLessThan(1 / 1.2);
    }

    /** Fork-join on 16 servers at per-server load 0.6 (4 s of work per job): 2.4 jobs/s. */
    private static final SimWorkload MID = new SimWorkload(TestingWorkloads.cluster(16), List.of(TestingWorkloads.forkJoin(2.4)));
    private static final ExpertSearch.Settings SHORT = new ExpertSearch.Settings(1_500, 7, 1, 1000);

    @Test
    void solve_mappingMatters_uniformSplitsLiveKeepsWhole() {
        SimTable uniform = new ExpertSearch(SHORT, m -> { }).solve(MID);
        ExpertSearch live = ExpertSearch.withLiveMapping(SHORT, m -> { }, null);
        SimTable liveTable = live.solve(MID);
        // uniformly mapped, a whole job waits in a random server's queue and splitting halves that wait; joining the
        // shortest queue leaves a whole job almost no wait, and a split part on a second server only adds one
        assertThat(uniform.maxSplitProbability()).isGreaterThan(0.5);
        assertThat(liveTable.maxSplitProbability()).isLessThan(0.5);
        // under the live mapping, the live search's table is at least as good as the uniform search's
        assertThat(live.validationScore(MID, liveTable)).isLessThanOrEqualTo(live.validationScore(MID, uniform));
    }

    @Test
    void solve_liveMapping_neverWorseThanItsStartingPoints() {
        // starting table: always split, with the root's part holding the sink (what an optimiser might hand over)
        List<SimChoice> front = SubgraphOptions.paretoFront(MID.classes().get(0), MID.classes().get(0).subgraphs().get(0), MID.cluster(), 1000);
        SimTable split = new SimTable(List.of(List.of(SubgraphTable.pure(front.get(1)))), List.of(Double.NaN));
        SimTable whole = new SimTable(List.of(List.of(SubgraphTable.pure(front.get(0)))), List.of(Double.NaN));
        for (SimWorkload w : List.of(MID, MID.withLoad(0.3), MID.withLoad(0.9))) {
            ExpertSearch live = ExpertSearch.withLiveMapping(SHORT, m -> { }, x -> split);
            SimTable found = live.solve(w);
            double score = live.validationScore(w, found);
            assertThat(score).isEqualTo(live.lastValidation().scores().get(live.lastValidation().kept()));
            assertThat(score).isLessThanOrEqualTo(live.validationScore(w, split)).isLessThanOrEqualTo(live.validationScore(w, whole));
            assertThat(live.lastValidation().scores()).containsOnlyKeys("found", "whole", "starting table");
        }
    }
}
