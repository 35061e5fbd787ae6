package dev.nona.controller.optimize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.controller.TestingCluster;
import dev.nona.optimize.CostModel;
import dev.nona.controller.cluster.ClusterSnapshot;
import dev.nona.placement.PlacementTable;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import dev.nona.workload.ServerClass;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class NonaTableSolverTest {
    private final NonaTableSolver solver = new NonaTableSolver(false);

    private static SolveInput input(double fig1Rate, double chainRate, int servers) {
        return new SolveInput(Map.of("fig1", TestingCluster.figure1(), "chain", TestingCluster.chain()),
                Map.of("fig1", fig1Rate, "chain", chainRate), TestingCluster.snapshot(servers), "test");
    }

    private static ControllerTable publish(SolveInput in, SolveResult r, long version) {
        return new ControllerTable(version, false, 0, in.cause(), in.rates(), in.cluster(), r.objective(), r.linkLoad(),
                r.predictedJctSeconds(), r.tableJson());
    }

    @Test
    void solve_feasibleLoad_returnsTableCoveringEveryModel() {
        SolveResult r = solver.solve(input(20, 50, 4), null);
        assertThat(r.error()).isNull();
        assertThat(r.feasible()).isTrue();
        assertThat(r.linkLoad()).isBetween(0.0, 1.0);
        PlacementTable table = PlacementTable.fromJson(r.tableJson());
        assertThat(table.model("fig1").tasks()).containsExactlyInAnyOrder("t1", "t2", "t3", "t4");
        assertThat(table.model("chain").tasks()).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(r.currentObjective()).as("no current table").isNaN();
        assertThat(table.solvedFor().costModel()).as("the controller's own mapping by default")
                .isEqualTo(CostModel.CONTROLLER_MAPPING);
        assertThat(PlacementTable.fromJson(new NonaTableSolver(true).solve(input(20, 50, 4), null).tableJson())
                .solvedFor().costModel()).isEqualTo(CostModel.PAPER);
    }

    @Test
    void currentTable_atItsOwnRates_predictsTheSameObjective() {
        SolveInput in = input(20, 50, 4);
        SolveResult first = solver.solve(in, null);
        SolveResult again = solver.solve(in, publish(in, first, 1));
        assertThat(again.currentFeasible()).isTrue();
        assertThat(again.currentObjective()).isCloseTo(first.objective(), within(1e-9 * Math.max(1, first.objective())));
        assertThat(again.objective()).isLessThanOrEqualTo(again.currentObjective() * (1 + 1e-9));
    }

    @Test
    void currentTable_isEvaluatedAtTheNewRates() {
        SolveInput low = input(5, 50, 4);
        SolveResult lowResult = solver.solve(low, null);
        SolveResult high = solver.solve(input(80, 50, 4), publish(low, lowResult, 1));
        assertThat(high.currentObjective()).as("more load: the old table costs more").isGreaterThan(lowResult.objective());
    }

    @Test
    void linkSaturatedByAnyPlacement_isInfeasible_withoutThrowing() {
        // 1e8 bytes of fig1 cross the link in every split; with 1 server nothing can be split, so load the link
        // through many servers and a tiny link instead.
        SolveInput in = new SolveInput(Map.of("fig1", TestingCluster.figure1()), Map.of("fig1", 1.0e6),
                TestingCluster.snapshot(4), "test");
        SolveResult r = solver.solve(in, null);
        assertThat(r.error()).isNull();
        assertThat(r.feasible()).isFalse();
        assertThat(r.tableJson()).isNull();
    }
    /** 310 bytes in a chain (contraction makes it one node), for servers of 250 ({@link #SMALL}): cut, not unplaceable. */
    private static final CatalogDag BIG_CHAIN = new CatalogDag("big", List.of(new CatalogTask("a", 1e9, 0.0),
            new CatalogTask("b", 1e9, 100.0), new CatalogTask("c", 1e9, 100.0), new CatalogTask("d", 1e9, 100.0),
            new CatalogTask("e", 1e9, 10.0)),
            List.of(new CatalogEdge("a", "b", 5), new CatalogEdge("b", "c", 1), new CatalogEdge("c", "d", 50),
                    new CatalogEdge("d", "e", 5)));
    private static final ClusterSnapshot SMALL = new ClusterSnapshot(List.of("s0", "s1", "s2", "s3"),
            TestingCluster.OPS_PER_SECOND, TestingCluster.LINK_BITS_PER_SECOND,
            List.of(new ServerClass("s", 4, TestingCluster.OPS_PER_SECOND, 250)));

    /**
     * The next solve (new rates) prices the current table of a cut chain at the new rates: its $\theta$ is carried
     * over the choices whose parts fit, the optimiser's own admissible set, so the re-solve does not fail.
     */
    @Test
    void resolvingACutChain_pricesTheCurrentTable() {
        SolveResult first = solver.solve(new SolveInput(Map.of("big", BIG_CHAIN), Map.of("big", 10.0), SMALL, "test"), null);
        ControllerTable current = new ControllerTable(1, false, 0, "test", Map.of("big", 10.0), SMALL, first.objective(),
                first.linkLoad(), first.predictedJctSeconds(), first.tableJson());

        SolveResult next = solver.solve(new SolveInput(Map.of("big", BIG_CHAIN), Map.of("big", 20.0), SMALL, "rate"),
                current);

        assertThat(next.error()).isNull();
        assertThat(next.feasible()).isTrue();
        assertThat(next.currentFeasible()).isTrue();
        assertThat(next.currentObjective()).as("the current table at twice the rate costs more than at its own")
                .isGreaterThan(first.objective());
    }

    @Test
    void chainLargerThanEveryUpServer_getsATableSplitIntoPartsThatFit() {
        SolveResult r = solver.solve(new SolveInput(Map.of("big", BIG_CHAIN), Map.of("big", 10.0), SMALL, "test"), null);

        assertThat(r.error()).isNull();
        assertThat(r.feasible()).isTrue();
        PlacementTable.ModelPlacement m = PlacementTable.fromJson(r.tableJson()).model("big");
        assertThat(m).as("in the table, not unplaceable").isNotNull();
        Map<String, Double> bytes = Map.of("a", 0.0, "b", 100.0, "c", 100.0, "d", 100.0, "e", 10.0);
        assertThat(m.subgraphs()).hasSize(1);
        for (PlacementTable.Choice c : m.subgraphs().get(0).choices()) {
            for (int p = 0; p < c.parts().size(); p++) {
                // the root a weighs nothing; the sink e runs with its part
                double b = c.parts().get(p).stream().mapToDouble(bytes::get).sum() + (p == c.sinkPart() ? 10.0 : 0);
                assertThat(b).as("part %s of %s", p, c).isLessThanOrEqualTo(250);
            }
        }
    }
}
