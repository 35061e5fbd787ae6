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
 * layers) have equal triplet costs, so their compiled costs are shared. Not thread-safe (like {@link CompiledProblem},
 * which makes them).
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
    /** Per intermediate: its ops $p^t$ (a part computes them at its own speed under per-class speeds). */
    final double[] ops;
    /** Per intermediate: its bytes; the sink's; the job's source's when this is its first subgraph, else 0. */
    final double[] bytes;
    final double sinkOps;
    final double sinkBytes;
    final double sourceOps;
    final double sourceBytes;
    private final Map<String, Integer> index = new HashMap<>();
    /** The parts list (unmodifiable, by identity) whose intermediates' bytes {@link #partSums} holds, per part. */
    private List<List<String>> summedParts;
    private double[] partSums;

    /** A subgraph shape whose tasks weigh nothing and whose source is not counted in (tests, the paper's problem). */
    SubgraphShape(Subgraph sg, Map<String, ContractedNode> nodes, double nu, double mu) {
        this(sg, nodes, null, null, nu, mu);
    }

    /** Subgraph {@code sg} of {@code job}; {@code first}: whether it is the job's first (its root the job's source). */
    SubgraphShape(Subgraph sg, JobClass job, boolean first, double nu, double mu) {
        this(sg, job.nodes(), job, first ? job.source() : null, nu, mu);
    }

    private SubgraphShape(Subgraph sg, Map<String, ContractedNode> nodes, JobClass job, String source, double nu, double mu) {
        this.subgraph = sg;
        List<String> inter = sg.intermediates();
        compute = new double[inter.size()];
        real = new boolean[inter.size()];
        ops = new double[inter.size()];
        bytes = new double[inter.size()];
        for (int t = 0; t < compute.length; t++) {
            index.put(inter.get(t), t);
            compute[t] = nodes.get(inter.get(t)).ops() / nu;
            real[t] = !nodes.get(inter.get(t)).virtual();
            ops[t] = nodes.get(inter.get(t)).ops();
            bytes[t] = job == null ? 0 : job.nodeBytes(inter.get(t));
        }
        ContractedNode sink = nodes.get(sg.sink());
        sinkCompute = sink == null ? 0 : sink.ops() / nu;
        sinkReal = sink != null && !sink.virtual();
        sinkOps = sink == null ? 0 : sink.ops();
        sinkBytes = job == null || sink == null ? 0 : job.nodeBytes(sg.sink());
        ContractedNode src = source == null ? null : nodes.get(source);
        sourceOps = src == null || src.virtual() ? 0 : src.ops();
        sourceBytes = src == null ? 0 : job.nodeBytes(source);
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

    /**
     * The footprint of each part of triplet {@code t} ({@link PartFit}): its intermediates' bytes, the sink's in part
     * $l$, the source's in part $k$ of a job's first subgraph; one entry when there are no parts. The intermediates'
     * sums of the last partition asked for are kept: a partition's triplets (one per root and sink part) come one
     * after another, sharing one parts list.
     */
    double[] partBytes(Triplet t) {
        if (t.parts() != summedParts) {
            double[] sums = new double[Math.max(1, t.parts().size())];
            for (int i = 0; i < t.parts().size(); i++) {
                for (String id : t.parts().get(i)) {
                    sums[i] += bytes[index.get(id)];
                }
            }
            summedParts = t.parts();
            partSums = sums;
        }
        double[] b = partSums.clone();
        b[t.sinkPart()] += sinkBytes;
        b[t.rootPart()] += sourceBytes;
        return b;
    }

    /** Whether the other shape has the same numbers. */
    boolean sameNumbers(SubgraphShape o) {
        return Arrays.equals(compute, o.compute) && Arrays.equals(real, o.real) && sinkCompute == o.sinkCompute
                && sinkReal == o.sinkReal && Arrays.equals(from, o.from) && Arrays.equals(to, o.to) && Arrays.equals(s, o.s)
                && Arrays.equals(ops, o.ops) && Arrays.equals(bytes, o.bytes) && sinkOps == o.sinkOps
                && sinkBytes == o.sinkBytes && sourceOps == o.sourceOps && sourceBytes == o.sourceBytes;
    }
}
