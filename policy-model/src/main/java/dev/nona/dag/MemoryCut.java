package dev.nona.dag;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Cuts a contracted node that no server can hold into pieces that fit (beyond the Nona paper, which has no memory).
 *
 * <p>Contraction (Technique 1) merges tasks that always run together, so a chain model such as VGG-16 becomes one
 * node holding every weight. When that node's bytes $b_N$ exceed the largest server memory $M$ the model could not
 * run at all, although each of its tasks fits: splitting a model is what lets it run on servers too small to hold it
 * whole. The node's tasks $t_1, \dots, t_n$ (a topological order) become pieces: $t_1$ alone (the root), $t_n$ alone
 * (the sink) and between them $m \ge 2$ consecutive pieces of at most $M' = M - \max(b_{t_1}, b_{t_n})$ bytes
 * each. The inner pieces are marked {@link Result#notRoots()}: the decomposition keeps them as the intermediates of
 * one subgraph from $t_1$ to $t_n$, so the optimiser's triplets decide which run together and which apart; the layout
 * "each piece on its own server, the root with the first, the sink with the last" always fits. Among the cuts into
 * pieces of at most $M'$ (and at least two), the one of least bytes crossing the cuts is taken (the transfers a split
 * pays), then the one of fewest pieces: a dynamic programme over the $n - 2$ inner tasks, $O(n^2)$.
 *
 * <p>A node is left whole (and its model stays unplaceable) when it has fewer than four tasks or one of its inner
 * tasks is larger than $M'$: the root and the sink each run with a part of the subgraph, so three tasks that fit only
 * apart cannot be laid out. A node that fits, and every node when memory is unbounded, is left as it is: then the
 * result is the input. Stateless, thread-safe.
 */
public final class MemoryCut {
    private MemoryCut() {
    }

    /**
     * The contraction with every node larger than {@code largestMemoryBytes} cut, where it can be.
     *
     * @param contracted   the contraction of {@code dag}
     * @param bytesByTask  each original task's bytes ({@link TaskBytes#byTaskId})
     * @param largestMemoryBytes $M$, the largest server memory ({@code +Infinity}: unbounded, nothing is cut)
     */
    public static Result cut(ModelDag dag, ContractedDag contracted, Map<String, Double> bytesByTask,
            double largestMemoryBytes) {
        List<ContractedNode> nodes = new ArrayList<>();
        Set<String> notRoots = new HashSet<>();
        Map<String, Double> ops = null;
        for (ContractedNode node : contracted.nodes()) {
            List<List<String>> pieces = pieces(dag, node, bytesByTask, largestMemoryBytes);
            if (pieces == null) {
                nodes.add(node);
                continue;
            }
            if (ops == null) {
                ops = new HashMap<>();
                for (Task t : dag.tasks()) {
                    ops.put(t.id(), t.ops());
                }
            }
            for (int p = 0; p < pieces.size(); p++) {
                List<String> tasks = pieces.get(p);
                double sum = 0;
                for (String t : tasks) {
                    sum += ops.get(t);
                }
                nodes.add(new ContractedNode(tasks.get(0), sum, tasks, false));
                if (p > 0 && p < pieces.size() - 1) {
                    notRoots.add(tasks.get(0));
                }
            }
        }
        if (ops == null) {
            return new Result(contracted, Set.of());
        }
        return new Result(new ContractedDag(contracted.name(), nodes, edges(dag, nodes)), notRoots);
    }

    /** The pieces of {@code node} when it must and can be cut, else null. */
    static List<List<String>> pieces(ModelDag dag, ContractedNode node, Map<String, Double> bytesByTask,
            double largestMemoryBytes) {
        List<String> tasks = node.originalTasks();
        int n = tasks.size();
        double[] b = new double[n];
        double total = 0;
        for (int i = 0; i < n; i++) {
            b[i] = bytesByTask.getOrDefault(tasks.get(i), 0.0);
            total += b[i];
        }
        if (!(total > largestMemoryBytes) || n < 4) {
            return null;
        }
        double cap = largestMemoryBytes - Math.max(b[0], b[n - 1]);
        for (int i = 1; i < n - 1; i++) {
            if (!(b[i] <= cap)) {
                return null;
            }
        }
        double[] crossing = crossing(dag, tasks);
        // inner tasks 1..n-2; best[e][k]: least crossing bytes of covering inner tasks 1..e with k pieces (k capped
        // at 2: "two or more"), the cut after task e excluded; from[e][k] the start of the last piece
        int m = n - 2;
        double[][] best = new double[m + 1][3];
        int[][] pieces = new int[m + 1][3];
        int[][] from = new int[m + 1][3];
        for (double[] row : best) {
            Arrays.fill(row, Double.POSITIVE_INFINITY);
        }
        best[0][0] = 0;
        for (int e = 1; e <= m; e++) {
            double sum = 0;
            for (int s = e; s >= 1; s--) { // the last piece is inner tasks s..e
                sum += b[s];
                if (sum > cap) {
                    break;
                }
                for (int k = 0; k < 3; k++) {
                    if (best[s - 1][k] == Double.POSITIVE_INFINITY) {
                        continue;
                    }
                    double cost = best[s - 1][k] + (s > 1 ? crossing[s - 1] : 0);
                    int next = Math.min(2, k + 1);
                    int count = pieces[s - 1][k] + 1;
                    if (cost < best[e][next] || (cost == best[e][next] && count < pieces[e][next])) {
                        best[e][next] = cost;
                        pieces[e][next] = count;
                        from[e][next] = s;
                    }
                }
            }
        }
        if (best[m][2] == Double.POSITIVE_INFINITY) {
            return null;
        }
        List<List<String>> inner = new ArrayList<>();
        int e = m;
        int k = 2;
        while (e > 0) {
            int s = from[e][k];
            inner.add(0, tasks.subList(s, e + 1));
            int count = pieces[e][k] - 1;
            e = s - 1;
            k = Math.min(2, count);
        }
        List<List<String>> out = new ArrayList<>();
        out.add(List.of(tasks.get(0)));
        out.addAll(inner);
        out.add(List.of(tasks.get(n - 1)));
        return out;
    }

    /** {@code crossing[i]}: the bytes of the node's own edges from its tasks $\le i$ to its tasks $> i$. */
    private static double[] crossing(ModelDag dag, List<String> tasks) {
        Map<String, Integer> pos = new HashMap<>();
        for (int i = 0; i < tasks.size(); i++) {
            pos.put(tasks.get(i), i);
        }
        double[] diff = new double[tasks.size() + 1];
        for (Edge e : dag.edges()) {
            Integer u = pos.get(e.from());
            Integer w = pos.get(e.to());
            if (u != null && w != null && u < w) {
                diff[u] += e.bytes();
                diff[w] -= e.bytes();
            }
        }
        double[] out = new double[tasks.size()];
        double run = 0;
        for (int i = 0; i < tasks.size(); i++) {
            run += diff[i];
            out[i] = run;
        }
        return out;
    }

    /**
     * The edges between {@code nodes} from the original edges (each endpoint mapped to its node; an edge inside a
     * node dropped; edges joining the same two nodes summed), ordered by (producer, consumer) position.
     */
    private static List<Edge> edges(ModelDag dag, List<ContractedNode> nodes) {
        Map<String, Integer> nodeOf = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            for (String t : nodes.get(i).originalTasks()) {
                nodeOf.put(t, i);
            }
        }
        Map<Long, Double> bytes = new TreeMap<>();
        for (Edge e : dag.edges()) {
            int u = nodeOf.get(e.from());
            int w = nodeOf.get(e.to());
            if (u != w) {
                bytes.merge(((long) u << 32) | w, e.bytes(), Double::sum);
            }
        }
        List<Edge> out = new ArrayList<>();
        bytes.forEach((key, value) -> out.add(new Edge(nodes.get((int) (key >>> 32)).id(),
                nodes.get((int) (long) key).id(), value)));
        return out;
    }

    /**
     * A contraction after the cut.
     *
     * @param contracted the contracted DAG, its cut nodes replaced by their pieces in place (still a topological order)
     * @param notRoots   the inner pieces' ids: never roots of the decomposition (empty when nothing was cut)
     */
    public record Result(ContractedDag contracted, Set<String> notRoots) {
        public Result {
            notRoots = Set.copyOf(notRoots);
        }
    }
}
