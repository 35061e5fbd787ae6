package dev.nona.modelaware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.dag.ContractedNode;
import dev.nona.optimize.CostModel;
import dev.nona.optimize.JobClass;
import dev.nona.optimize.NonaOptimizer;
import dev.nona.optimize.NonaProblem;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import dev.nona.workload.ColdStartCost;
import dev.nona.workload.ServerClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The per-part cold start from the cache state ({@link ColdStartCostTerm#withCacheState}), by hand. */
final class PartColdStartTest {
    /** Two servers of 1.5e9 ops/s and 1000 bytes; loading costs 0.5 s + bytes / 1000 B/s. */
    private static final Cluster CLUSTER = Cluster.ofClasses(List.of(new ServerClass("s", 2, 1.5e9, 1000)), 1e10,
            new ColdStartCost(0.5, 1000));

    /** One task of 1.5e8 ops (0.1 s), 250 bytes, 5 requests/s: 0.5 in flight. */
    private static NonaProblem problem() {
        JobClass a = new JobClass("a", 5, Map.of("x", new ContractedNode("x", 1.5e8, List.of("tx"), false)), "x", List.of(),
                Map.of("tx", 250.0));
        return new NonaProblem(List.of(a), CLUSTER, Background.NONE, CostModel.CONTROLLER_MAPPING);
    }

    private static double jct(NonaProblem p) {
        return NonaOptimizer.solve(p).job("a").predictedJctSeconds();
    }

    @Test
    void noServerHoldsThePart_paysTheWholeLoadTime() {
        // steady state: 2000 bytes of memory for 250 bytes of demand: never cold
        double warm = jct(problem());
        List<List<String>> asked = new ArrayList<>();
        NonaProblem none = ColdStartCostTerm.withCacheState(problem(), (model, tasks) -> {
            asked.add(tasks);
            return 0;
        }, 2);
        // P = 1: T_CS(250) = 0.5 + 0.25 = 0.75 s
        assertThat(jct(none) - warm).isCloseTo(0.75, within(1e-12));
        assertThat(asked).contains(List.of("tx"));
    }

    @Test
    void oneServerHoldsIt_warmFirstKeepsItWarm_unknownFallsBackToTheSteadyState() {
        double warm = jct(problem());
        // w = 1, k = 2, L = 5 * 0.1 = 0.5: 1 - 2/0.5 < 0, so P = 0
        assertThat(jct(ColdStartCostTerm.withCacheState(problem(), (m, t) -> 1, 2))).isEqualTo(warm);
        assertThat(jct(ColdStartCostTerm.withCacheState(problem(), (m, t) -> -1, 2))).isEqualTo(warm);
    }

    @Test
    void withoutColdStartCost_theCacheStateChangesNothing() {
        NonaProblem p = new NonaProblem(problem().jobs(), Cluster.ofClasses(CLUSTER.classes(), 1e10, null), Background.NONE,
                CostModel.CONTROLLER_MAPPING);
        assertThat(ColdStartCostTerm.withCacheState(p, (m, t) -> 0, 2)).isSameAs(p);
    }
}
