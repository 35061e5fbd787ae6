package dev.nona.sim.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.sim.SimCluster;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.TestingWorkloads;
import dev.nona.sim.engine.SimConfig;
import dev.nona.sim.engine.SimResult;
import dev.nona.sim.engine.Simulator;
import dev.nona.workload.ColdStartCost;
import dev.nona.workload.ServerClass;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every baseline keeps off the servers that cannot hold a part: the engine never has to refuse one. */
final class MemoryFilterTest {
    /** 2 fast servers that hold one task's bytes but not two, 6 slow ones that hold anything. */
    private static final SimCluster CLUSTER = new SimCluster(8, 1.5e9, 1e10, List.of(
            new ServerClass("small", 2, 3e9, 1.5e8), new ServerClass("big", 6, 1e9, 1e10)), new ColdStartCost(0.1, 1e9));

    private static SimResult run(String policy, SimWorkload w) {
        Policy p = PolicyRegistry.create(policy, PolicyContext.basic(w, 5));
        return new Simulator(w, p, policy, new SimConfig(2_000, 200, 5, Long.MAX_VALUE)).run();
    }

    @Test
    void everyBaseline_placesNoPartWhereItCannotFit() {
        SimJobClass job = TestingWorkloads.forkJoin(1.0).withTaskBytes(new double[] {1e8, 1e8, 1e8, 1e8});
        SimWorkload w = new SimWorkload(CLUSTER, List.of(job));

        for (String policy : List.of("random", "opportunistic", "spark-fair", "local", "jsq", "p2c", "least-expected-finish", "colocation",
                "colocation-queuing")) {
            SimResult r = run(policy, w);
            assertThat(r.memoryViolations()).as(policy).isZero();
            assertThat(r.coldStarts()).as(policy).isPositive();
        }
    }

    @Test
    void withoutMemory_theFilterChangesNothing() {
        SimWorkload w = new SimWorkload(TestingWorkloads.cluster(8), List.of(TestingWorkloads.forkJoin(1.0)));
        MemoryFilter filter = new MemoryFilter();
        int[] servers = {3, 5, 7, 3};
        int[] calls = {0};

        new Simulator(w, (c, jc, view, out) -> {
            int[] copy = servers.clone();
            filter.apply(view, c, jc, copy);
            assertThat(copy).containsExactly(servers);
            System.arraycopy(copy, 0, out, 0, copy.length);
            calls[0]++;
        }, "probe", new SimConfig(50, 0, 1, Long.MAX_VALUE)).run();
        assertThat(calls[0]).isGreaterThanOrEqualTo(50);
    }
}
