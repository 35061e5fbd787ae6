package dev.nona.optimize;

import dev.nona.dag.ContractedNode;
import dev.nona.dag.Edge;
import dev.nona.dag.Subgraph;
import dev.nona.dag.Triplet;
import dev.nona.queueing.LinkModel;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A subgraph reduced to numbers: its intermediates by position (topological order) with their compute times, and
 * its edges as position pairs with their service times. Two subgraphs with equal shapes (e.g. identical transformer
 * layers) have equal triplet costs, so their compiled costs are shared.
 */
final class SubgraphShape {
    static final int ROOT = -1;
    static final int SINK = -2;

    final Subgraph subgraph;
    final double[] compute;
    /** Whether each intermediate runs on a server (a virtual node takes no time and never queues). */
    final boolean[] real;
    /** The sink's compute time $p/\nu$ and whether it runs on a server. */
    final double sinkCompute;
    final boolean sinkReal;
    final int[] from;
    final int[] to;
    final double[] s;
    private final Map<String, Integer> index = new HashMap<>();

    SubgraphShape(Subgraph sg, Map<String, ContractedNode> nodes, double nu, double mu) {
        this.subgraph = sg;
        List<String> inter = sg.intermediates();
        compute = new double[inter.size()];
        real = new boolean[inter.size()];
        for (int t = 0; t < compute.length; t++) {
            index.put(inter.get(t), t);
            compute[t] = nodes.get(inter.get(t)).ops() / nu;
            real[t] = !nodes.get(inter.get(t)).virtual();
        }
        ContractedNode sink = nodes.get(sg.sink());
        sinkCompute = sink == null ? 0 : sink.ops() / nu;
        sinkReal = sink != null && !sink.virtual();
        int n = sg.edges().size();
        from = new int[n];
        to = new int[n];
        s = new double[n];
        for (int i = 0; i < n; i++) {
            Edge e = sg.edges().get(i);
            from[i] = position(e, e.from());
            to[i] = position(e, e.to());
            s[i] = LinkModel.serviceTime(e.bits(), mu);
            if (from[i] >= 0 && to[i] >= 0 && from[i] >= to[i]) {
                throw new IllegalArgumentException("subgraph " + sg.root() + ": intermediates are not in topological order at edge "
                        + e.from() + "->" + e.to());
            }
            if (from[i] == SINK || to[i] == ROOT) {
                throw new IllegalArgumentException("subgraph " + sg.root() + "->" + sg.sink() + ": edge " + e.from() + "->" + e.to()
                        + " points backwards");
            }
        }
    }

    private int position(Edge e, String id) {
        if (id.equals(subgraph.root())) {
            return ROOT;
        }
        if (id.equals(subgraph.sink())) {
            return SINK;
        }
        Integer i = index.get(id);
        if (i == null) {
            throw new IllegalArgumentException("subgraph " + subgraph.root() + "->" + subgraph.sink() + ": edge " + e.from() + "->"
                    + e.to() + " leaves the subgraph");
        }
        return i;
    }

    /** The part of every intermediate under a triplet. */
    int[] partOf(Triplet t) {
        int[] partOf = new int[compute.length];
        for (int i = 0; i < t.parts().size(); i++) {
            for (String id : t.parts().get(i)) {
                partOf[index.get(id)] = i;
            }
        }
        return partOf;
    }

    /** Whether the other shape has the same numbers. */
    boolean sameNumbers(SubgraphShape o) {
        return Arrays.equals(compute, o.compute) && Arrays.equals(real, o.real) && sinkCompute == o.sinkCompute
                && sinkReal == o.sinkReal && Arrays.equals(from, o.from) && Arrays.equals(to, o.to) && Arrays.equals(s, o.s);
    }
}
