package dev.nona.optimize;

import dev.nona.dag.ContractedNode;
import dev.nona.dag.Edge;
import dev.nona.dag.Subgraph;
import dev.nona.dag.Triplet;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import java.util.List;
import java.util.Map;

/**
 * Section II / Fig. 1 of the Nona paper: tasks 1, 2, 3, 4 taking 1, 10, 10, 1 ms; edges 1->2 and 2->4 carry
 * 100 MB, 1->3 and 3->4 carry 10 MB; 2 servers; an 80 Gbps link. Servers compute 1e12 ops/s.
 */
final class Figure1 {
    static final double NU = 1e12;
    static final double MU = 80e9;
    static final Cluster CLUSTER = new Cluster(2, NU, MU);
    static final Subgraph SUBGRAPH = new Subgraph("1", "4", List.of("2", "3"), List.of(
            new Edge("1", "2", 1e8), new Edge("1", "3", 1e7), new Edge("2", "4", 1e8), new Edge("3", "4", 1e7)));
    static final List<Triplet> TRIPLETS = TestingTriplets.enumerate(List.of("2", "3"));
    /** Split 2 and 3; root and sink with 2 (only 20 MB crosses). */
    static final Triplet SPLIT_WITH_2 = new Triplet(List.of(List.of("2"), List.of("3")), 0, 0);
    /** Split 2 and 3; root and sink with 3 (200 MB crosses). */
    static final Triplet SPLIT_WITH_3 = new Triplet(List.of(List.of("2"), List.of("3")), 1, 1);
    /** Everything on one server. */
    static final Triplet TOGETHER = new Triplet(List.of(List.of("2", "3")), 0, 0);

    private Figure1() {}

    static JobClass job(double rate) {
        return new JobClass("f", rate, Map.of(
                "1", node("1", 1e9), "2", node("2", 1e10), "3", node("3", 1e10), "4", node("4", 1e9)),
                "1", List.of(new SubgraphChoices(SUBGRAPH, TRIPLETS)));
    }

    static NonaProblem problem(double rate, Background bg, CostModel model) {
        return new NonaProblem(List.of(job(rate)), CLUSTER, bg, model);
    }

    static ContractedNode node(String id, double ops) {
        return new ContractedNode(id, ops, List.of("t" + id), false);
    }
}
