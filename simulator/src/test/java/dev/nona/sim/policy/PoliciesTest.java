package dev.nona.sim.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.TestingWorkloads;
import dev.nona.sim.engine.SimConfig;
import dev.nona.sim.engine.SimResult;
import dev.nona.sim.engine.Simulator;
import dev.nona.sim.policy.baseline.OpportunisticPolicy;
import dev.nona.sim.policy.expert.SubgraphOptions;
import dev.nona.sim.policy.table.SimChoice;
import dev.nona.sim.policy.table.SubgraphTable;
import dev.nona.sim.policy.table.TablePolicy;
import dev.nona.sim.policy.table.SimTable;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class PoliciesTest {
    private static final SimWorkload FORK = new SimWorkload(TestingWorkloads.cluster(16), List.of(TestingWorkloads.forkJoin(2)));

    private static SimResult run(String policy, SimWorkload w) {
        Policy p = PolicyRegistry.create(policy, PolicyContext.basic(w, 3));
        return new Simulator(w, p, policy, new SimConfig(3_000, 300, 3, Long.MAX_VALUE)).run();
    }

    @Test
    void registry_everyConfiguredPolicy_isRegistered() {
        // the heterogeneous-cluster comparisons' policies are registered but not in the paper's experiments (they
        // would add rows to their results)
        Set<String> heterogeneousOnly = Set.of("least-expected-finish", "nona-controller-uniform", "colocation", "colocation-queuing");
        assertThat(PolicyRegistry.experimentPolicies()).containsExactlyInAnyOrderElementsOf(
                PolicyRegistry.names().stream().filter(n -> !heterogeneousOnly.contains(n)).toList());
        assertThat(PolicyRegistry.names()).containsAll(heterogeneousOnly);
        assertThatThrownBy(() -> PolicyRegistry.create("decima", PolicyContext.basic(FORK, 1)))
                .hasMessageContaining("'decima'");
    }

    @Test
    void expertAndExpertJsq_takeTheirOwnTables() {
        List<SimChoice> front = SubgraphOptions.paretoFront(FORK.classes().get(0),
                FORK.classes().get(0).subgraphs().get(0), FORK.cluster(), 1000);
        SimTable split = new SimTable(List.of(List.of(SubgraphTable.pure(front.get(1)))), List.of(Double.NaN));
        SimTable whole = new SimTable(List.of(List.of(SubgraphTable.pure(front.get(0)))), List.of(Double.NaN));
        PolicyContext context = new PolicyContext(FORK, 3, w -> split, w -> split, w -> split, w -> whole, w -> split);
        SimConfig config = new SimConfig(3_000, 300, 3, Long.MAX_VALUE);
        assertThat(new Simulator(FORK, PolicyRegistry.create("expert", context), "expert", config).run().linkUtilization()).isPositive();
        assertThat(new Simulator(FORK, PolicyRegistry.create("expert-jsq", context), "expert-jsq", config).run().linkUtilization()).isZero();
        PolicyContext withoutLive = new PolicyContext(FORK, 3, w -> split, w -> split, w -> split);
        assertThatThrownBy(() -> PolicyRegistry.create("expert-jsq", withoutLive))
                .hasMessageContaining("no live-mapping expert search (expert-jsq) is configured");
    }

    @Test
    void local_neverUsesTheLink() {
        assertThat(run("local", FORK).linkUtilization()).isZero();
        assertThat(run("jsq", FORK).linkUtilization()).isZero();
        assertThat(run("p2c", FORK).linkUtilization()).isZero();
    }

    @Test
    void random_cutsMostEdges() {
        // 16 servers: an edge is cut with probability 15/16; 4 edges of 0.1 s at 2 jobs/s => link load about 0.75.
        assertThat(run("random", FORK).linkUtilization()).isCloseTo(2 * 4 * 0.1 * 15.0 / 16, within(0.05));
    }

    @Test
    void opportunistic_forkJoin_putsTheTwoBranchesOnDistinctServers() {
        SimTable t = OpportunisticPolicy.table(FORK);
        SimChoice only = t.of(0).get(0).choices().get(0);
        assertThat(only.partCount()).isEqualTo(2);
        int[] servers = new int[4];
        new TablePolicy(t, new SplittableRandom(1)).place(0, FORK.classes().get(0), new Simulator(FORK, (c, j, v, s) -> { }, "x", SimConfig.of(1, 1)), servers);
        assertThat(servers[1]).isNotEqualTo(servers[2]);
        assertThat(servers[0]).isEqualTo(servers[3]);
        assertThat(servers[0]).isIn(servers[1], servers[2]);
    }

    @Test
    void tablePolicy_mixture_cutsEdgesInProportion() {
        SimJobClass c = FORK.classes().get(0);
        SimChoice local = SimChoice.of(new int[][] {{1, 2}}, 0, 0);
        SimChoice split = SimChoice.of(new int[][] {{1}, {2}}, 0, 0);
        SimTable table = new SimTable(List.of(List.of(new SubgraphTable(List.of(local, split), new double[] {0.75, 0.25}))), List.of(Double.NaN));
        Policy p = new TablePolicy(table, new SplittableRandom(5));
        int[] servers = new int[4];
        Simulator view = new Simulator(FORK, p, "x", SimConfig.of(1, 1));
        int splits = 0;
        for (int i = 0; i < 20_000; i++) {
            p.place(0, c, view, servers);
            splits += servers[1] != servers[2] ? 1 : 0;
        }
        assertThat(splits / 20_000.0).isCloseTo(0.25, within(0.015));
    }

    @Test
    void sparkFair_fewJobs_spreadsTasksOverItsShare() {
        SimWorkload light = FORK.withRatesScaled(0.01);
        assertThat(run("spark-fair", light).linkUtilization()).isGreaterThan(0);
        // alone in the cluster both branches go to other servers of its share: root 0-1 s; transfers 1-1.1 and
        // 1.1-1.2 s; branches 1.1-2.1 and 1.2-2.2 s; transfers back 2.1-2.2 and 2.2-2.3 s; sink 2.3-3.3 s
        assertThat(run("spark-fair", light).meanJctSeconds()).isCloseTo(3.3, within(0.05));
    }
}
