package dev.nona.sim.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.sim.SimWorkload;
import dev.nona.sim.TestingWorkloads;
import dev.nona.sim.policy.expert.ExpertSearch;
import dev.nona.sim.policy.expert.SubgraphOptions;
import dev.nona.sim.policy.table.SimChoice;
import dev.nona.sim.policy.table.SimTable;
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
}
