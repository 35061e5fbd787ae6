package dev.nona.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.controller.cluster.ClusterSnapshot;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.optimize.CostModel;
import dev.nona.placement.PlacementTable;
import dev.nona.placement.PlacementTable.Choice;
import dev.nona.placement.PlacementTable.SubgraphPlacement;
import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class PublishedTablesTest {

    private static final Choice WHOLE = new Choice(List.of(List.of("a", "b")), 0, 0, 1.0);

    private static Choice split(double p) {
        return new Choice(List.of(List.of("a"), List.of("b")), 0, 1, p);
    }

    private static Choice whole(double p) {
        return new Choice(List.of(List.of("a", "b")), 0, 0, p);
    }

    private static PlacementTable.ModelPlacement model(String name, List<SubgraphPlacement> subgraphs) {
        return new PlacementTable.ModelPlacement(name, 1.0, 0.01, List.of("a", "b"), List.of(), subgraphs);
    }

    @Test
    void splitProbability_isOneMinusTheProductOfEachSubgraphsWholeProbability() {
        // subgraph 1 whole with 0.3, subgraph 2 with 0.5: a request stays on one server with 0.15
        var m = model("m", List.of(new SubgraphPlacement("r", "s", List.of(), List.of(whole(0.3), split(0.7))),
                new SubgraphPlacement("s", "t", List.of(), List.of(split(0.5), whole(0.5)))));
        assertThat(PublishedTables.splitProbability(m)).isCloseTo(0.85, within(1e-12));
        // a choice with no parts (no intermediate tasks) keeps the request on the root's server
        var empty = model("e", List.of(new SubgraphPlacement("r", "s", List.of(), List.of(new Choice(List.of(), 0, 0, 1.0))),
                new SubgraphPlacement("s", "t", List.of(), List.of(WHOLE))));
        assertThat(PublishedTables.splitProbability(empty)).isZero();
    }

    @Test
    void accept_keepsWhatEachTableWasSolvedFor_byVersion() throws Exception {
        PlacementTable solved = new PlacementTable(3, 1_000, new PlacementTable.SolvedFor(new Cluster(2, 5e11, 1e11),
                Map.of("m", 2.0), Background.NONE, CostModel.CONTROLLER_MAPPING), true, "", 0.1, 0.0, 0.0, 1.0,
                List.of(model("m", List.of(new SubgraphPlacement("r", "s", List.of(), List.of(split(1.0)))))), 0);
        ControllerTable table = new ControllerTable(3, false, 1_000, "calibration: server s-1 runs at 2.500e+11 ops/s",
                Map.of("m", 2.0), new ClusterSnapshot(List.of("s-1", "s-0"), 5e11, 1e11), 0.1, 0.0, Map.of("m", 0.05),
                solved.toJson());
        ControllerTable fallback = new ControllerTable(4, true, 2_000, "infeasible load: rate", Map.of("m", 90.0),
                new ClusterSnapshot(List.of("s-0"), 1e12, 1e11), Double.NaN, Double.NaN, Map.of(), null);
        ObjectMapper json = new ObjectMapper();
        PublishedTables tables = new PublishedTables();
        tables.accept(PlacementTableRecord.of("c", 4, 2_000, json.writeValueAsString(fallback)));
        tables.accept(PlacementTableRecord.of("c", 3, 1_000, json.writeValueAsString(table)));

        assertThat(tables.list()).containsExactly(
                new DemoSummary.PublishedTable(3, "calibration: server s-1 runs at 2.500e+11 ops/s", false,
                        List.of("s-0", "s-1"), 5e11, 1e11, Map.of("m", 2.0), Map.of("m", 1.0)),
                new DemoSummary.PublishedTable(4, "infeasible load: rate", true, List.of("s-0"), 1e12, 1e11,
                        Map.of("m", 90.0), Map.of()));
    }
}
