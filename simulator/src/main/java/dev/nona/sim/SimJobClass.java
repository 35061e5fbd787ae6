package dev.nona.sim;

import dev.nona.check.Checks;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A job class as the simulator sees it: a contracted DAG of tasks (service demand in operations) and edges
 * (bits sent when the endpoints run on different servers), a Poisson arrival rate $\beta_j$, and the
 * decomposition into subgraphs that placement policies work on. Background jobs are the degenerate classes of
 * Nona's Section IV-A: one task with no communication, or one transfer with no compute.
 *
 * <p>Immutable; the arrays are never exposed, read them through the indexed accessors. Task indices are in a
 * topological order.
 */
public final class SimJobClass {
    private final String name;
    private final JobKind kind;
    private final double ratePerSecond;
    private final double[] taskOps;
    /** Per task: the bytes of weights it needs loaded on its server (all 0 when the model's size is not given). */
    private final double[] taskBytes;
    private final int[] edgeFrom;
    private final int[] edgeTo;
    private final double[] edgeBits;
    private final double commBits;
    private final List<SimSubgraph> subgraphs;
    private final int[] outStart;
    private final int[] outEdges;
    private final int[] inDegree;

    private SimJobClass(String name, JobKind kind, double ratePerSecond, double[] taskOps, int[] edgeFrom, int[] edgeTo,
                     double[] edgeBits, double commBits, List<SimSubgraph> subgraphs) {
        this(name, kind, ratePerSecond, taskOps, new double[taskOps.length], edgeFrom, edgeTo, edgeBits, commBits, subgraphs);
    }

    private SimJobClass(String name, JobKind kind, double ratePerSecond, double[] taskOps, double[] taskBytes, int[] edgeFrom,
                        int[] edgeTo, double[] edgeBits, double commBits, List<SimSubgraph> subgraphs) {
        this.name = Objects.requireNonNull(name, "job class name");
        this.kind = kind;
        Checks.nonNegative(ratePerSecond, "job class '" + name + "': ratePerSecond");
        this.ratePerSecond = ratePerSecond;
        this.taskOps = taskOps.clone();
        this.taskBytes = taskBytes.clone();
        this.edgeFrom = edgeFrom.clone();
        this.edgeTo = edgeTo.clone();
        this.edgeBits = edgeBits.clone();
        this.commBits = commBits;
        this.subgraphs = List.copyOf(subgraphs);
        validate();
        int n = taskOps.length;
        this.inDegree = new int[n];
        this.outStart = new int[n + 1];
        for (int e = 0; e < edgeFrom.length; e++) {
            outStart[edgeFrom[e] + 1]++;
            inDegree[edgeTo[e]]++;
        }
        for (int t = 0; t < n; t++) {
            outStart[t + 1] += outStart[t];
        }
        this.outEdges = new int[edgeFrom.length];
        int[] fill = Arrays.copyOf(outStart, n);
        for (int e = 0; e < edgeFrom.length; e++) {
            outEdges[fill[edgeFrom[e]]++] = e;
        }
    }

    private void validate() {
        if (edgeFrom.length != edgeTo.length || edgeFrom.length != edgeBits.length) {
            throw new IllegalArgumentException("job class '" + name + "': edge arrays differ in length");
        }
        for (int t = 0; t < taskOps.length; t++) {
            if (!(taskOps[t] >= 0) || Double.isInfinite(taskOps[t])) {
                throw new IllegalArgumentException("job class '" + name + "': task " + t + " ops (" + taskOps[t] + ") must be finite and >= 0");
            }
        }
        if (taskBytes.length != taskOps.length) {
            throw new IllegalArgumentException("job class '" + name + "': " + taskBytes.length + " task sizes for " + taskOps.length + " tasks");
        }
        for (int t = 0; t < taskBytes.length; t++) {
            if (!(taskBytes[t] >= 0) || Double.isInfinite(taskBytes[t])) {
                throw new IllegalArgumentException("job class '" + name + "': task " + t + " sizeBytes (" + taskBytes[t] + ") must be finite and >= 0");
            }
        }
        for (int e = 0; e < edgeFrom.length; e++) {
            if (edgeFrom[e] < 0 || edgeTo[e] >= taskOps.length || edgeFrom[e] >= edgeTo[e]) {
                throw new IllegalArgumentException("job class '" + name + "': edge " + edgeFrom[e] + "->" + edgeTo[e]
                        + " must go forward between task indices in [0, " + taskOps.length + ")");
            }
            if (!(edgeBits[e] >= 0) || Double.isInfinite(edgeBits[e])) {
                throw new IllegalArgumentException("job class '" + name + "': edge " + e + " bits (" + edgeBits[e] + ") must be finite and >= 0");
            }
        }
        Checks.nonNegative(commBits, "job class '" + name + "': comm bits");
    }

    /**
     * An inference job class.
     *
     * @param edges     pairs {@code {from, to}} of task indices, from < to (indices are a topological order)
     * @param edgeBits  bits per edge
     * @param subgraphs the decomposition; may be empty for a single task
     */
    public static SimJobClass inference(String name, double ratePerSecond, double[] taskOps, int[][] edges, double[] edgeBits,
                                     List<SimSubgraph> subgraphs) {
        int[] from = new int[edges.length];
        int[] to = new int[edges.length];
        for (int e = 0; e < edges.length; e++) {
            from[e] = edges[e][0];
            to[e] = edges[e][1];
        }
        if (taskOps.length == 0) {
            throw new IllegalArgumentException("job class '" + name + "': an inference DAG needs at least one task");
        }
        if (taskOps.length > 1 && subgraphs.isEmpty()) {
            throw new IllegalArgumentException("job class '" + name + "': a DAG of " + taskOps.length + " tasks needs its subgraphs");
        }
        return new SimJobClass(name, JobKind.INFERENCE, ratePerSecond, taskOps, from, to, edgeBits, 0, subgraphs);
    }

    /** A background compute job: one task of {@code ops} operations. */
    public static SimJobClass backgroundCompute(String name, double ratePerSecond, double ops) {
        return new SimJobClass(name, JobKind.BACKGROUND_COMPUTE, ratePerSecond, new double[] {ops}, new int[0], new int[0],
                new double[0], 0, List.of());
    }

    /** A background communication job: one transfer of {@code bits} on the bottleneck link. */
    public static SimJobClass backgroundComm(String name, double ratePerSecond, double bits) {
        return new SimJobClass(name, JobKind.BACKGROUND_COMM, ratePerSecond, new double[0], new int[0], new int[0],
                new double[0], bits, List.of());
    }

    /** The same class with another arrival rate. */
    public SimJobClass withRate(double rate) {
        return new SimJobClass(name, kind, rate, taskOps, taskBytes, edgeFrom, edgeTo, edgeBits, commBits, subgraphs);
    }

    /**
     * The same class whose tasks need {@code bytes[t]} of weights loaded on their server (a part's footprint is the
     * sum over its tasks, {@code dev.nona.dag.TaskBytes}).
     */
    public SimJobClass withTaskBytes(double[] bytes) {
        return new SimJobClass(name, kind, ratePerSecond, taskOps, bytes, edgeFrom, edgeTo, edgeBits, commBits, subgraphs);
    }

    /** The same class with every edge's (and the comm job's) bits multiplied by {@code factor}. */
    public SimJobClass withBitsScaled(double factor) {
        double[] bits = edgeBits.clone();
        for (int e = 0; e < bits.length; e++) {
            bits[e] *= factor;
        }
        return new SimJobClass(name, kind, ratePerSecond, taskOps, taskBytes, edgeFrom, edgeTo, bits, commBits * factor, subgraphs);
    }

    public String name() { return name; }
    public JobKind kind() { return kind; }
    public double ratePerSecond() { return ratePerSecond; }
    public int tasks() { return taskOps.length; }
    public double taskOps(int t) { return taskOps[t]; }
    /** Bytes of weights task {@code t} needs loaded on its server (0: none, or the model's size is not given). */
    public double taskBytes(int t) { return taskBytes[t]; }
    public int edges() { return edgeFrom.length; }
    public int edgeFrom(int e) { return edgeFrom[e]; }
    public int edgeTo(int e) { return edgeTo[e]; }
    public double edgeBits(int e) { return edgeBits[e]; }
    public double commBits() { return commBits; }
    public int inDegree(int t) { return inDegree[t]; }
    public int outDegree(int t) { return outStart[t + 1] - outStart[t]; }
    /** The {@code i}-th outgoing edge index of task {@code t}. */
    public int outEdge(int t, int i) { return outEdges[outStart[t] + i]; }
    public List<SimSubgraph> subgraphs() { return subgraphs; }

    /** Total operations of one job: $S_j \cdot \nu$. */
    public double totalOps() {
        double sum = 0;
        for (double p : taskOps) {
            sum += p;
        }
        return sum;
    }

    /**
     * The most operations on any path of the DAG (a path's tasks' ops summed): the compute a job must do one task after
     * another, however its tasks are placed. Task indices are a topological order, so one pass in index order settles
     * each task's longest path ending there.
     */
    public double longestPathOps() {
        double[] ending = taskOps.clone();
        double most = 0;
        for (int t = 0; t < taskOps.length; t++) {
            most = Math.max(most, ending[t]);
            for (int i = outStart[t]; i < outStart[t + 1]; i++) {
                int to = edgeTo[outEdges[i]];
                ending[to] = Math.max(ending[to], ending[t] + taskOps[to]);
            }
        }
        return most;
    }

    /** The model's bytes: the sum of its tasks'. */
    public double totalBytes() {
        double sum = 0;
        for (double b : taskBytes) {
            sum += b;
        }
        return sum;
    }

    /**
     * The parallel branches of a subgraph's intermediate tasks, as a chain decomposition: in topological order,
     * a task continues the chain of its first intermediate parent that no other child has continued yet, and
     * otherwise starts a new chain. A fork-join subgraph gives one chain per branch; a chain of tasks gives one.
     */
    public List<int[]> branches(SimSubgraph g) {
        int m = g.size();
        int[] pos = new int[taskOps.length];
        Arrays.fill(pos, -1);
        for (int i = 0; i < m; i++) {
            pos[g.intermediate(i)] = i;
        }
        int[] chain = new int[m];
        boolean[] continued = new boolean[m];
        int chains = 0;
        for (int i = 0; i < m; i++) {
            int t = g.intermediate(i);
            chain[i] = -1;
            for (int e = 0; e < edgeFrom.length && chain[i] < 0; e++) {
                int p = edgeTo[e] == t ? pos[edgeFrom[e]] : -1;
                if (p >= 0 && !continued[p]) {
                    continued[p] = true;
                    chain[i] = chain[p];
                }
            }
            if (chain[i] < 0) {
                chain[i] = chains++;
            }
        }
        List<int[]> out = new ArrayList<>();
        for (int c = 0; c < chains; c++) {
            int[] members = new int[m];
            int k = 0;
            for (int i = 0; i < m; i++) {
                if (chain[i] == c) {
                    members[k++] = g.intermediate(i);
                }
            }
            out.add(Arrays.copyOf(members, k));
        }
        return out;
    }

    @Override
    public String toString() {
        return "SimJobClass[" + name + ", " + kind + ", rate=" + ratePerSecond + "/s, tasks=" + tasks() + ", edges=" + edges() + "]";
    }
}
