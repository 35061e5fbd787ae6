package dev.nona.controller.placement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.TestingCluster;
import dev.nona.controller.optimize.NonaTableSolver;
import dev.nona.controller.optimize.SolveInput;
import dev.nona.placement.ControllerPlacement;
import dev.nona.placement.LiveServers;
import dev.nona.placement.PlacementSampler;
import dev.nona.placement.PlacementTable;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.record.StageAssignment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The operator's placers are adapters of policy-model's {@link ControllerPlacement} (the class the simulator's
 * {@code nona-controller} runs): same reports, same random stream, same servers.
 */
final class NonaPlacerTest {
    @Test
    void nonaPlacer_placesExactlyAsControllerPlacement() {
        placesExactlyAsControllerPlacement(6, 300);
    }

    @Test
    void nonaPlacer_manyServers_everyStageNamesTheRightServer() {
        placesExactlyAsControllerPlacement(197, 2_000);
    }

    private static void placesExactlyAsControllerPlacement(int servers, int requests) {
        CatalogDag dag = TestingCluster.figure1();
        SolveInput in = new SolveInput(Map.of("fig1", dag), Map.of("fig1", 20.0), TestingCluster.snapshot(servers), "test");
        PlacementTable table = PlacementTable.fromJson(new NonaTableSolver(false).solve(in, null).tableJson());
        List<ServerTelemetry> reports = new ArrayList<>();
        for (int i = 0; i < servers; i++) {
            reports.add(i % 2 == 0 ? TestingCluster.server("s" + i, i, "fig1") : TestingCluster.server("s" + i, i));
        }
        LiveServers a = ServerReports.of(reports, 3);
        LiveServers b = ServerReports.of(reports, 3);
        NonaPlacer placer = new NonaPlacer(new PlacementSampler(table), "fig1", dag);
        Map<String, Double> ops = new HashMap<>();
        dag.tasks().forEach(t -> ops.put(t.id(), t.ops()));
        ControllerPlacement placement = ControllerPlacement.of(new PlacementSampler(table), "fig1", ops);
        SplittableRandom ra = new SplittableRandom(3);
        SplittableRandom rb = new SplittableRandom(3);
        for (int r = 0; r < requests; r++) {
            List<StageAssignment> stages = placer.place(a, 1_000 + r, ra);
            int[] chosen = placement.place(b, 1_000 + r, rb);
            assertThat(stages).hasSize(placement.tasks().size());
            for (int t = 0; t < stages.size(); t++) {
                assertThat(stages.get(t).task()).isEqualTo(placement.tasks().get(t));
                assertThat(stages.get(t).server()).as("request %d task %d", r, t).isEqualTo(b.id(chosen[t]));
            }
        }
    }
}
