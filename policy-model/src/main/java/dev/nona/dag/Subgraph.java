package dev.nona.dag;

import java.util.List;

/**
 * The part of a contracted DAG between two consecutive roots $t$ and $\mathcal{N}(t)$.
 *
 * @param root          the root $t$ (a contracted node id)
 * @param sink          the next root $\mathcal{N}(t)$
 * @param intermediates contracted node ids strictly between them, in topological order
 * @param edges         every edge with both endpoints in {root, intermediates, sink}
 */
public record Subgraph(String root, String sink, List<String> intermediates, List<Edge> edges) {
    public Subgraph {
        intermediates = List.copyOf(intermediates);
        edges = List.copyOf(edges);
    }
}
