package dev.nona.placement;

import dev.nona.dag.ContractedNode;
import dev.nona.dag.Edge;
import dev.nona.dag.Subgraph;
import dev.nona.dag.Triplet;
import dev.nona.optimize.CostModel;
import dev.nona.optimize.JobClass;
import dev.nona.optimize.NonaProblem;
import dev.nona.optimize.SubgraphChoices;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import java.util.List;
import java.util.Map;

/**
 * A two-subgraph job over contracted nodes: A -> {B, C} -> D -> {E, F} -> G, where A stands for original tasks a1, a2
 * and the others for one task each.
 */
final class PlacementFixtures {
    private PlacementFixtures() {}

    static final Subgraph FIRST = new Subgraph("A", "D", List.of("B", "C"),
            List.of(new Edge("A", "B", 1e6), new Edge("A", "C", 1e6), new Edge("B", "D", 1e6), new Edge("C", "D", 1e6)));
    static final Subgraph SECOND = new Subgraph("D", "G", List.of("E", "F"),
            List.of(new Edge("D", "E", 1e6), new Edge("D", "F", 1e6), new Edge("E", "G", 1e6), new Edge("F", "G", 1e6)));

    static JobClass job(String name, double rate) {
        Map<String, ContractedNode> nodes = Map.of(
                "A", new ContractedNode("A", 1e9, List.of("a1", "a2"), false),
                "B", new ContractedNode("B", 1e10, List.of("b"), false),
                "C", new ContractedNode("C", 1e10, List.of("c"), false),
                "D", new ContractedNode("D", 1e9, List.of("d"), false),
                "E", new ContractedNode("E", 1e10, List.of("e"), false),
                "F", new ContractedNode("F", 1e10, List.of("f"), false),
                "G", new ContractedNode("G", 1e9, List.of("g"), false));
        return new JobClass(name, rate, nodes, "A", List.of(
                new SubgraphChoices(FIRST, triplets("B", "C")), new SubgraphChoices(SECOND, triplets("E", "F"))));
    }

    static List<Triplet> triplets(String x, String y) {
        return List.of(
                new Triplet(List.of(List.of(x, y)), 0, 0),
                new Triplet(List.of(List.of(x), List.of(y)), 0, 0),
                new Triplet(List.of(List.of(x), List.of(y)), 0, 1),
                new Triplet(List.of(List.of(x), List.of(y)), 1, 0),
                new Triplet(List.of(List.of(x), List.of(y)), 1, 1));
    }

    static NonaProblem problem(int servers) {
        return new NonaProblem(List.of(job("m", 20)), new Cluster(servers, 1e12, 1e10), Background.NONE, CostModel.DEFAULT);
    }
}
