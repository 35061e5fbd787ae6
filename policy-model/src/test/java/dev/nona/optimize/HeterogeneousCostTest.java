package dev.nona.optimize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.nona.dag.ContractedNode;
import dev.nona.queueing.LeastExpectedFinish;
import dev.nona.queueing.ServerWaits;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import dev.nona.workload.ColdStartCost;
import dev.nona.workload.ServerClass;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Per-class speeds and per-part cold starts in the controller-mapping cost model: worked examples by hand. */
final class HeterogeneousCostTest {
    /** One fast server (2e9 ops/s, 100 bytes) and one slow (1e9 ops/s, 1000 bytes): $\bar\nu$ = 1.5e9. */
    private static final Cluster TWO = Cluster.ofClasses(List.of(new ServerClass("fast", 1, 2e9, 100),
            new ServerClass("slow", 1, 1e9, 1000)), 1e10, null);

    /** A model of one task of 1.5e8 ops (0.1 s at the mean speed) weighing {@code bytes}, 5 requests/s. */
    private static JobClass oneTask(String name, double bytes) {
        return new JobClass(name, 5, Map.of("a", new ContractedNode("a", 1.5e8, List.of("ta"), false)), "a", List.of(),
                Map.of("ta", bytes));
    }

    /**
     * The request's pooled wait on TWO at 5 requests/s of 0.1 s (at $\bar\nu$): a = 0.5, u = 0.25, deterministic work
     * (C_s^2 = 0); Erlang C of M/M/2 at rho = 0.25: 2 rho^2/(1 + rho) = 0.1; m = (1/2) 0.1/(2 * 0.75) = 1/30; W = P m.
     */
    private static final double W = 0.1 / 30;

    @Test
    void workedExample_modelThatFitsOnlyTheSlowClass_queuesThereAtItsSpeed() {
        // the slow server alone takes 5 requests/s of 0.15 s: M/D/1 at u = 0.75, W = 0.75 * 0.15 / (2 * 0.25) = 0.225
        Solution s = NonaOptimizer.solve(new NonaProblem(List.of(oneTask("big", 500)), TWO, Background.NONE,
                CostModel.CONTROLLER_MAPPING));
        assertThat(s.serverWaitSeconds()).as("the pooled wait, reported").isCloseTo(W, within(1e-12));
        assertThat(s.job("big").predictedJctSeconds()).isCloseTo(0.225 + 1.5e8 / 1e9, within(1e-12));
    }

    /**
     * Without the idle gate, least marginal cost: all on the fast server, 0.075 s each at u = 0.375, M/D/1 W = 0.375 *
     * 0.075 / (2 * 0.625) = 0.0225; 0.0975 s in all, against 0.15 s on the idle slow server. With the gate 2 a request
     * that finds the fast server busy (probability x, its utilisation) takes the slow one when idle (1 - y): y =
     * 0.75x(1 - y) and x = 0.375(1 - x) + 0.375xy give x = 0.28656, y = 0.17687; W = 0.28656 * 0.075 / (2 * 0.71344) =
     * 0.015062, so a request that waits waits W/x = 0.05256 s. Its cost at the fast server, 0.05256 + 0.075 +
     * min(0.3441 * 0.075, 0.05256) = 0.1534 s, is over half the slow 0.15 s, so the gate diverts it: 0.71344 * 0.075 +
     * 0.28656 * 0.82313 * 0.15 + 0.28656 * 0.17687 * (0.05256 + 0.075) = 0.09536 s, less than 0.0975 s, and the
     * optimiser takes the gate (4 predicts the same, and ties go to the smaller). To 0.5%: the routing's rounds leave
     * a remnant of at most 0.25% on the slow server ({@code LeastExpectedFinish}).
     */
    @Test
    void workedExample_modelThatFitsBoth_waitsForTheFastServer_unlessTheGateSendsItToTheIdleSlowOne() {
        Solution s = NonaOptimizer.solve(new NonaProblem(List.of(oneTask("small", 50)), TWO, Background.NONE,
                CostModel.CONTROLLER_MAPPING));
        assertThat(s.idleGate()).isEqualTo(2.0);
        assertThat(s.job("small").predictedJctSeconds()).isCloseTo(0.09536, withinPercentage(0.5));
        LeastExpectedFinish.Routing without = LeastExpectedFinish.route(new int[] {1, 1}, new double[] {2e9, 1e9},
                new double[] {5}, new double[] {1.5e8}, new boolean[][] {{true, true}});
        assertThat(LeastExpectedFinish.meanSeconds(without, new double[] {5}, new double[] {1.5e8}))
                .isCloseTo(0.0225 + 0.075, withinPercentage(0.5));
    }

    @Test
    void uniformSpeed_usesTheMeanSpeed_butKeepsMemory() {
        Solution s = NonaOptimizer.solve(new NonaProblem(List.of(oneTask("big", 500)), TWO, Background.NONE,
                CostModel.CONTROLLER_MAPPING_UNIFORM));
        assertThat(s.job("big").predictedJctSeconds()).isCloseTo(W + 0.1, within(1e-12));
        Solution tooBig = NonaOptimizer.solve(new NonaProblem(List.of(oneTask("huge", 5000), oneTask("big", 500)), TWO,
                Background.NONE, CostModel.CONTROLLER_MAPPING_UNIFORM));
        assertThat(tooBig.unplaceable()).containsExactly("huge");
        assertThat(CostModel.named("controller-mapping-uniform")).isEqualTo(CostModel.CONTROLLER_MAPPING_UNIFORM);
        assertThat(CostModel.CONTROLLER_MAPPING_UNIFORM.label()).isEqualTo("controller-mapping-uniform");
    }

    @Test
    void oneClass_perClassSpeedsAndUniform_giveTheSameSolutionExactly() {
        for (double rate : new double[] {10, 40, 80}) {
            Solution perClass = NonaOptimizer.solve(Figure1.problem(rate, Background.NONE, CostModel.CONTROLLER_MAPPING));
            Solution uniform = NonaOptimizer.solve(Figure1.problem(rate, Background.NONE, CostModel.CONTROLLER_MAPPING_UNIFORM));
            assertThat(uniform.objective()).isEqualTo(perClass.objective());
            assertThat(uniform.job("f").subgraphs()).isEqualTo(perClass.job("f").subgraphs());
        }
    }

    @Test
    void workedExample_choiceCost_partsAtTheirOwnSpeeds_withColdStarts() {
        // Fig. 1 split {2}, {3}, root and sink with {2}; {2}'s server computes 2e12 ops/s, {3}'s 1e12.
        // {2}: 1e10 / 2e12 = 5 ms. {3}: 1 ms + phi in, 10 ms, 1 ms + phi out. Sink and source at {2}'s speed: 0.5 ms each.
        JobClass job = Figure1.job(10);
        SubgraphShape shape = new SubgraphShape(Figure1.SUBGRAPH, job, true, Figure1.NU, Figure1.MU);
        double[] speeds = {2e12, 1e12};
        ChoiceCost c = ChoiceCost.compile(shape, Figure1.SPLIT_WITH_2, ServerWaits.NONE, null, speeds, null);
        assertThat(c.delay(0)).isCloseTo(0.013, within(1e-15));
        assertThat(c.delay(0.001)).isCloseTo(0.015, within(1e-15));
        assertThat(c.delay(0.001, ServerWaits.NONE)).isCloseTo(0.015, within(1e-15));
        // cold starts of 2 ms ({2}) and 3 ms ({3}) before each part's first task: max(7, 15 + 2 phi) + 1 ms
        ChoiceCost cold = ChoiceCost.compile(shape, Figure1.SPLIT_WITH_2, ServerWaits.NONE, null, speeds, new double[] {0.002, 0.003});
        assertThat(cold.delay(0)).isCloseTo(0.016, within(1e-15));
        assertThat(cold.delay(0.001)).isCloseTo(0.018, within(1e-15));
        assertThat(cold.delay(0.001, ServerWaits.NONE)).isCloseTo(0.018, within(1e-15));
        // together on a 2e12 server: 5 + 5 ms, sink and source 0.5 ms each; a cold start of 4 ms
        ChoiceCost together = ChoiceCost.compile(shape, Figure1.TOGETHER, ServerWaits.NONE, null, new double[] {2e12},
                new double[] {0.004});
        assertThat(together.delay(0.5)).isCloseTo(0.015, within(1e-15));
    }

    @Test
    void workedExample_steadyStateColdProbability_memoryAgainstDemand() {
        // 2 servers of 300 bytes (600); three models of 250 bytes, each 0.5 requests in flight (one copy each): 750
        Cluster c = Cluster.ofClasses(List.of(new ServerClass("s", 2, 1.5e9, 300)), 1e10, new ColdStartCost(0.5, 1000));
        JobClass a = oneTask("a", 250).withRate(5);
        NonaProblem p = new NonaProblem(List.of(a, withName(a, "b"), withName(a, "c")), c, Background.NONE,
                CostModel.CONTROLLER_MAPPING);
        assertThat(SteadyStateCache.coldProbability(p)).isCloseTo(1 - 600.0 / 750, within(1e-12));
        // one copy each but L = 5 * 0.1 = 0.5 < 1 in flight; at 20 requests/s L = 2: demand 2 * 250 + 250 + 250 = 1000
        NonaProblem busier = p.withJobs(List.of(a.withRate(20), withName(a, "b"), withName(a, "c")));
        assertThat(SteadyStateCache.coldProbability(busier)).isCloseTo(1 - 600.0 / 1000, within(1e-12));
        assertThat(SteadyStateCache.coldProbability(Figure1.problem(10, Background.NONE, CostModel.CONTROLLER_MAPPING))).isZero();
    }

    @Test
    void workedExample_coldStartInTheJct_pTimesLoadTime() {
        // as above: P = 0.2; T_CS(250) = 0.5 + 250/1000 = 0.75 s; a single-task model pays 0.2 * 0.75 = 0.15 s more
        Cluster warm = Cluster.ofClasses(List.of(new ServerClass("s", 2, 1.5e9, 300)), 1e10, null);
        Cluster cold = Cluster.ofClasses(List.of(new ServerClass("s", 2, 1.5e9, 300)), 1e10, new ColdStartCost(0.5, 1000));
        JobClass a = oneTask("a", 250);
        List<JobClass> jobs = List.of(a, withName(a, "b"), withName(a, "c"));
        double without = NonaOptimizer.solve(new NonaProblem(jobs, warm, Background.NONE, CostModel.CONTROLLER_MAPPING))
                .job("a").predictedJctSeconds();
        double with = NonaOptimizer.solve(new NonaProblem(jobs, cold, Background.NONE, CostModel.CONTROLLER_MAPPING))
                .job("a").predictedJctSeconds();
        assertThat(with - without).isCloseTo(0.15, within(1e-12));
    }

    @Test
    void workedExample_splitColdProbability_shareOfTheCatalogAServerCannotKeep() {
        // catalog: three models of 250 bytes = 750. 2 "big" servers of 1000 bytes keep it all; 2 "small" of 300 keep
        // 300/750: P_split = 2/4 * 0 + 2/4 * (1 - 300/750) = 0.3
        Cluster c = Cluster.ofClasses(List.of(new ServerClass("big", 2, 1.5e9, 1000), new ServerClass("small", 2, 1.5e9, 300)),
                1e10, new ColdStartCost(0.5, 1000));
        JobClass a = oneTask("a", 250);
        NonaProblem p = new NonaProblem(List.of(a, withName(a, "b"), withName(a, "c")), c, Background.NONE,
                CostModel.CONTROLLER_MAPPING);
        assertThat(SteadyStateCache.splitColdProbability(p)).isCloseTo(0.3, within(1e-12));
        assertThat(SteadyStateCache.splitColdProbability(p.withJobs(List.of(a)))).as("every class holds 250 bytes").isZero();
        assertThat(SteadyStateCache.splitColdProbability(Figure1.problem(10, Background.NONE, CostModel.CONTROLLER_MAPPING)))
                .as("unbounded memory").isZero();
    }

    @Test
    void workedExample_splitPartBeyondTheRoots_paysPSplitTimesItsLoad() {
        // Fig. 1 with tasks of 10, 40, 40, 10 bytes (catalog 100) on 1 server of 10,000 bytes and 3 of 50, all 1e12
        // ops/s: supply covers demand (P_cold = 0), P_split = 3/4 * (1 - 50/100) = 0.375. Split with {2}: part 0 is
        // {2} + sink + source = 60 bytes (root's, not charged), part 1 is {3} = 40 bytes: T_CS = 0.5 + 40/1000 = 0.54 s,
        // charged 0.375 * 0.54 = 0.2025 s before its first task. Together: one part, nothing charged.
        Cluster c = Cluster.ofClasses(List.of(new ServerClass("big", 1, Figure1.NU, 10_000),
                new ServerClass("small", 3, Figure1.NU, 50)), Figure1.MU, new ColdStartCost(0.5, 1000));
        JobClass f = Figure1.job(10);
        f = new JobClass("f", 10, f.nodes(), f.source(), f.subgraphs(), Map.of("t1", 10.0, "t2", 40.0, "t3", 40.0, "t4", 10.0));
        NonaProblem p = new NonaProblem(List.of(f), c, Background.NONE, CostModel.CONTROLLER_MAPPING);
        assertThat(SteadyStateCache.coldProbability(p)).isZero();
        CompiledProblem cp = new CompiledProblem(p);
        SubgraphShape shape = new SubgraphShape(Figure1.SUBGRAPH, f, true, Figure1.NU, Figure1.MU);
        int split = cp.admissible.get(0).indexOf(Figure1.SPLIT_WITH_2);
        int together = cp.admissible.get(0).indexOf(Figure1.TOGETHER);
        assertThat(split).isNotNegative();
        ChoiceCost expected = ChoiceCost.compile(shape, Figure1.SPLIT_WITH_2, cp.waitsOf(0), cp.forkWaitOf(0), null,
                new double[] {0, 0.375 * 0.54});
        ChoiceCost warm = ChoiceCost.compile(shape, Figure1.SPLIT_WITH_2, cp.waitsOf(0), cp.forkWaitOf(0), null, null);
        for (double phi : new double[] {0, 0.001}) {
            assertThat(cp.cost[split].delay(phi)).isCloseTo(expected.delay(phi), within(1e-15));
            assertThat(cp.cost[split].delay(phi)).isGreaterThan(warm.delay(phi) + 0.2);
            assertThat(cp.cost[together].delay(phi)).isCloseTo(ChoiceCost.compile(shape, Figure1.TOGETHER, cp.waitsOf(0),
                    cp.forkWaitOf(0), null, null).delay(phi), within(1e-15));
        }
        // the paper's formulation and the uniform mapping's server queueing do not model the controller's pick
        NonaProblem uniform = new NonaProblem(List.of(f), c, Background.NONE, CostModel.DEFAULT);
        CompiledProblem cu = new CompiledProblem(uniform);
        assertThat(cu.cost[cu.admissible.get(0).indexOf(Figure1.SPLIT_WITH_2)].delay(0)).isCloseTo(ChoiceCost.compile(shape,
                Figure1.SPLIT_WITH_2, cu.waitsOf(0), cu.forkWaitOf(0), null, null).delay(0), within(1e-15));
    }

    private static JobClass withName(JobClass j, String name) {
        return new JobClass(name, j.ratePerSecond(), j.nodes(), j.source(), j.subgraphs(), Map.of("ta", 250.0));
    }
}
