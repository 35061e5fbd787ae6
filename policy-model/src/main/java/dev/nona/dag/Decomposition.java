package dev.nona.dag;

import java.util.List;
import java.util.Objects;

/**
 * A contracted DAG cut at its roots (bottleneck nodes) into subgraphs.
 *
 * @param dag       the contracted DAG it was computed from
 * @param nodes     the contracted nodes plus the virtual source/sink if any were added, in topological order
 * @param edges     the contracted edges plus the virtual edges (0 bytes) to/from virtual nodes
 * @param roots     $\mathcal{R}^j$: ids of the nodes on every source-to-sink path, in topological order
 *                  (the first is the single or virtual source, the last the single or virtual sink)
 * @param subgraphs one subgraph per pair of consecutive roots, in order; some may have no intermediates
 */
public record Decomposition(ContractedDag dag, List<ContractedNode> nodes, List<Edge> edges, List<String> roots,
        List<Subgraph> subgraphs) {
    public Decomposition {
        Objects.requireNonNull(dag, "contracted dag");
        nodes = List.copyOf(nodes);
        edges = List.copyOf(edges);
        roots = List.copyOf(roots);
        subgraphs = List.copyOf(subgraphs);
    }

    /** True iff a virtual source or sink was added. */
    public boolean hasVirtualNodes() {
        return nodes.stream().anyMatch(ContractedNode::virtual);
    }

    /** The subgraphs with at least one intermediate task: the ones that carry a decision. */
    public List<Subgraph> nonTrivialSubgraphs() {
        return subgraphs.stream().filter(s -> !s.intermediates().isEmpty()).toList();
    }
}
