package dev.nona.dag;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.TreeSet;

/**
 * Contracts a model DAG with Technique 1 of Nona, iterated to a fixed point.
 *
 * <p>Based on: G. Nona et al., "Nona: A Stochastic Congestion-Aware Job Scheduler for Real-Time Inference
 * Queries", CloudNet 2024, Section III-D (Technique 1). An edge $a \to b$ is <em>contractible</em> when
 * every other input of $b$ is an input of $a$ and every other output of $a$ is an output of $b$:
 * $\forall n \ne a: (n,b) \in \mathcal{D} \Rightarrow (n,a) \in \mathcal{D}$ and
 * $\forall n \ne b: (a,n) \in \mathcal{D} \Rightarrow (b,n) \in \mathcal{D}$.
 *
 * <p>Edges are contracted <em>one at a time</em>, re-checking the condition on the current graph after
 * each contraction (contracting a whole set at once can merge inconsistently, e.g. both edges of a
 * chain whose middle node loses its condition). The order is fixed so the result is deterministic:
 * tasks get a position from a topological order that breaks ties by input order; at each step the edge
 * $(a,b)$ contracted is the contractible edge with the smallest (position of $a$, position of $b$).
 * The merged node keeps $a$'s id and position; its ops are the sum; its original tasks are $a$'s then
 * $b$'s (still a topological order). Its inputs are $a$'s and its outputs $b$'s; where $n \to a$ and
 * $n \to b$ (or $a \to n$ and $b \to n$) both existed the merged edge's bytes are the <em>sum</em>
 * (both transfers happen when the merged node runs elsewhere). The edge $a \to b$ itself disappears.
 * The process stops when no edge is contractible.
 *
 * <p>Contraction never creates a cycle (a second path $a \to x \to \dots \to b$ would need
 * $b \to x$, a cycle in the input), keeps every dependency between tasks of different nodes, and
 * never merges two tasks that could run in parallel.
 *
 * <p>Implementation: tasks are numbered by their position, and each keeps its successors (with the edges' bytes) and
 * predecessors in small arrays. The contractible edges are kept in a sorted set keyed by (position of $a$, position
 * of $b$); after a contraction only edges at the merged pair's neighbours can change status, and only those are
 * re-checked. Cost: at most $|T|$ contractions, each re-checking $O(\deg^2)$ edges at $O(\deg)$ each. Stateless,
 * thread-safe.
 */
public final class DagContractor {
    private DagContractor() {
    }

    /** Validates and contracts {@code dag} to the fixed point of Technique 1. */
    public static ContractedDag contract(ModelDag dag) {
        DagValidator.Indexed indexed = DagValidator.index(dag);
        List<Task> tasks = dag.tasks();
        int n = tasks.size();
        int[] order = topologicalOrder(n, indexed);
        int[] position = new int[n];
        for (int p = 0; p < n; p++) {
            position[order[p]] = p;
        }
        Graph graph = new Graph(n);
        for (int i = 0; i < indexed.from().length; i++) {
            graph.add(position[indexed.from()[i]], position[indexed.to()[i]], dag.edges().get(i).bytes());
        }
        double[] ops = new double[n];
        List<List<String>> groups = new ArrayList<>(n);
        for (int p = 0; p < n; p++) {
            Task task = tasks.get(order[p]);
            ops[p] = task.ops();
            groups.add(new ArrayList<>(List.of(task.id())));
        }
        TreeSet<Long> contractible = new TreeSet<>();
        for (int v = 0; v < n; v++) {
            recheck(graph, v, contractible);
        }
        int[] affected = new int[n];
        int[] mark = new int[n];
        int stamp = 0;
        while (!contractible.isEmpty()) {
            long key = contractible.pollFirst();
            int a = (int) (key >>> 32);
            int b = (int) key;
            stamp++;
            int count = neighbourhood(graph, a, b, affected, mark, stamp);
            for (int i = 0; i < count; i++) {
                forget(graph, affected[i], contractible);
            }
            merge(graph, a, b);
            ops[a] = ops[a] + ops[b];
            groups.get(a).addAll(groups.get(b));
            groups.set(b, null);
            for (int i = 0; i < count; i++) {
                if (affected[i] != b) {
                    recheck(graph, affected[i], contractible);
                }
            }
        }
        return result(dag.name(), tasks, order, graph, ops, groups);
    }

    /**
     * The topological order that breaks ties by input order (Kahn's algorithm, taking the ready task first in
     * input): task indices by position.
     */
    private static int[] topologicalOrder(int n, DagValidator.Indexed indexed) {
        int[] from = indexed.from();
        int[] to = indexed.to();
        int[] indegree = new int[n];
        List<List<Integer>> successors = new ArrayList<>(n);
        for (int v = 0; v < n; v++) {
            successors.add(new ArrayList<>(2));
        }
        for (int i = 0; i < from.length; i++) {
            indegree[to[i]]++;
            successors.get(from[i]).add(to[i]);
        }
        PriorityQueue<Integer> ready = new PriorityQueue<>();
        for (int v = 0; v < n; v++) {
            if (indegree[v] == 0) {
                ready.add(v);
            }
        }
        int[] order = new int[n];
        int p = 0;
        while (!ready.isEmpty()) {
            int v = ready.poll();
            order[p++] = v;
            for (int w : successors.get(v)) {
                if (--indegree[w] == 0) {
                    ready.add(w);
                }
            }
        }
        if (p != n) {
            throw new IllegalStateException("BUG: a validated DAG has no topological order");
        }
        return order;
    }

    /** The nodes whose inputs or outputs change when {@code a -> b} is contracted (a superset), into {@code out}. */
    private static int neighbourhood(Graph graph, int a, int b, int[] out, int[] mark, int stamp) {
        int count = 0;
        for (int v : new int[] {a, b}) {
            if (mark[v] != stamp) {
                mark[v] = stamp;
                out[count++] = v;
            }
        }
        for (int v : new int[] {a, b}) {
            for (int i = 0; i < graph.inCount[v]; i++) {
                int u = graph.in[v][i];
                if (mark[u] != stamp) {
                    mark[u] = stamp;
                    out[count++] = u;
                }
            }
            for (int i = 0; i < graph.outCount[v]; i++) {
                int w = graph.out[v][i];
                if (mark[w] != stamp) {
                    mark[w] = stamp;
                    out[count++] = w;
                }
            }
        }
        return count;
    }

    /** Orders candidate edges by (position of producer, position of consumer). */
    private static long key(int a, int b) {
        return ((long) a << 32) | b;
    }

    private static void forget(Graph graph, int v, TreeSet<Long> contractible) {
        for (int i = 0; i < graph.inCount[v]; i++) {
            contractible.remove(key(graph.in[v][i], v));
        }
        for (int i = 0; i < graph.outCount[v]; i++) {
            contractible.remove(key(v, graph.out[v][i]));
        }
    }

    private static void recheck(Graph graph, int v, TreeSet<Long> contractible) {
        for (int i = 0; i < graph.inCount[v]; i++) {
            check(graph, graph.in[v][i], v, contractible);
        }
        for (int i = 0; i < graph.outCount[v]; i++) {
            check(graph, v, graph.out[v][i], contractible);
        }
    }

    private static void check(Graph graph, int a, int b, TreeSet<Long> contractible) {
        long key = key(a, b);
        if (contractible(graph, a, b)) {
            contractible.add(key);
        } else {
            contractible.remove(key);
        }
    }

    /** Implements the contraction condition of Technique 1 (set $\mathcal{C}$ in Nona, Section III-D). */
    private static boolean contractible(Graph graph, int a, int b) {
        for (int i = 0; i < graph.inCount[b]; i++) {
            int n = graph.in[b][i];
            if (n != a && !graph.has(n, a)) {
                return false;
            }
        }
        for (int i = 0; i < graph.outCount[a]; i++) {
            int n = graph.out[a][i];
            if (n != b && !graph.has(b, n)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Contracts {@code a -> b}: $b$'s other inputs become $a$'s, $b$'s outputs $a$'s, bytes of edges that were
     * already there summed; $b$ leaves the graph.
     */
    private static void merge(Graph graph, int a, int b) {
        if (!contractible(graph, a, b)) {
            throw new IllegalStateException("BUG: edge " + a + "->" + b + " (positions) taken as contractible but it is not");
        }
        for (int i = 0; i < graph.inCount[b]; i++) {
            int n = graph.in[b][i];
            if (n != a) {
                graph.addBytes(n, a, graph.bytes(n, b));
            }
        }
        for (int i = 0; i < graph.outCount[b]; i++) {
            graph.addBytes(a, graph.out[b][i], graph.outBytes[b][i]);
        }
        graph.remove(b);
    }

    private static ContractedDag result(String name, List<Task> tasks, int[] order, Graph graph, double[] ops,
            List<List<String>> groups) {
        List<ContractedNode> contracted = new ArrayList<>();
        List<Edge> edges = new ArrayList<>();
        for (int p = 0; p < order.length; p++) {
            if (groups.get(p) == null) {
                continue;
            }
            String id = tasks.get(order[p]).id();
            contracted.add(new ContractedNode(id, ops[p], groups.get(p), false));
            int k = graph.outCount[p];
            long[] targets = new long[k];
            for (int i = 0; i < k; i++) {
                targets[i] = ((long) graph.out[p][i] << 32) | i;
            }
            Arrays.sort(targets);
            for (long t : targets) {
                int i = (int) t;
                edges.add(new Edge(id, tasks.get(order[graph.out[p][i]]).id(), graph.outBytes[p][i]));
            }
        }
        return new ContractedDag(name, contracted, edges);
    }

    /**
     * A simple directed graph over positions $0..n-1$: per node its successors with the edges' bytes and its
     * predecessors, each in a small array (degrees are small; membership is a scan of the shorter side).
     */
    private static final class Graph {
        final int[][] out;
        final double[][] outBytes;
        final int[] outCount;
        final int[][] in;
        final int[] inCount;

        Graph(int n) {
            out = new int[n][];
            outBytes = new double[n][];
            outCount = new int[n];
            in = new int[n][];
            inCount = new int[n];
            for (int v = 0; v < n; v++) {
                out[v] = new int[2];
                outBytes[v] = new double[2];
                in[v] = new int[2];
            }
        }

        void add(int from, int to, double bytes) {
            if (outCount[from] == out[from].length) {
                out[from] = Arrays.copyOf(out[from], 2 * outCount[from]);
                outBytes[from] = Arrays.copyOf(outBytes[from], 2 * outCount[from]);
            }
            out[from][outCount[from]] = to;
            outBytes[from][outCount[from]++] = bytes;
            if (inCount[to] == in[to].length) {
                in[to] = Arrays.copyOf(in[to], 2 * inCount[to]);
            }
            in[to][inCount[to]++] = from;
        }

        /** The index of {@code to} among {@code from}'s successors, or -1. */
        int outIndex(int from, int to) {
            for (int i = 0; i < outCount[from]; i++) {
                if (out[from][i] == to) {
                    return i;
                }
            }
            return -1;
        }

        boolean has(int from, int to) {
            if (outCount[from] <= inCount[to]) {
                return outIndex(from, to) >= 0;
            }
            for (int i = 0; i < inCount[to]; i++) {
                if (in[to][i] == from) {
                    return true;
                }
            }
            return false;
        }

        double bytes(int from, int to) {
            return outBytes[from][outIndex(from, to)];
        }

        /** Adds {@code bytes} to edge {@code from -> to}, creating it if needed (merged parallel edges sum). */
        void addBytes(int from, int to, double bytes) {
            int i = outIndex(from, to);
            if (i < 0) {
                add(from, to, bytes);
            } else {
                outBytes[from][i] = outBytes[from][i] + bytes;
            }
        }

        /** Removes {@code v} and its edges. */
        void remove(int v) {
            for (int i = 0; i < inCount[v]; i++) {
                int u = in[v][i];
                int k = outIndex(u, v);
                outCount[u]--;
                out[u][k] = out[u][outCount[u]];
                outBytes[u][k] = outBytes[u][outCount[u]];
            }
            for (int i = 0; i < outCount[v]; i++) {
                int w = out[v][i];
                for (int k = 0; k < inCount[w]; k++) {
                    if (in[w][k] == v) {
                        in[w][k] = in[w][--inCount[w]];
                        break;
                    }
                }
            }
            inCount[v] = 0;
            outCount[v] = 0;
        }
    }
}
