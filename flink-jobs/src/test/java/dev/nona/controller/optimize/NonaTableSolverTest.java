package dev.nona.controller.optimize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.controller.TestingCluster;
import dev.nona.optimize.CostModel;
import dev.nona.placement.PlacementTable;
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
}
