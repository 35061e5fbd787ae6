package dev.nona.dag;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jgrapht.Graph;
import org.jgrapht.alg.connectivity.KosarajuStrongConnectivityInspector;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleDirectedWeightedGraph;

/**
 * Checks that a {@link ModelDag} is a valid model graph and builds its JGraphT form.
 *
 * <p>A valid graph has at least one task, unique task ids, edges whose endpoints are task ids, no
 * self-loop, no duplicate edge and no directed cycle. Sizes (ops, bytes) are checked by the {@link Task}
 * and {@link Edge} records themselves. Every error is a {@link DagValidationException} whose message names
 * the field (e.g. {@code edges[3].to}) and the offending value; a cycle is reported with one of its cycles.
 *
 * <p>Cost: $O(|T| + |D|)$. Stateless and thread-safe.
 */
public final class DagValidator {
    private DagValidator() {
    }

    /** Validates {@code dag}; returns normally iff it is a valid model DAG. */
    public static void validate(ModelDag dag) {
        index(dag);
    }

    /**
     * Validates {@code dag} and returns it as a simple directed graph whose vertices are task ids (in
     * input order) and whose edge weights are the edges' bytes.
     */
    public static Graph<String, DefaultWeightedEdge> toGraph(ModelDag dag) {
        index(dag);
        return graphOf(dag);
    }

    /**
     * A valid DAG's edges by task index (the task's position in {@code dag.tasks()}): edge {@code i} runs from task
     * {@code from[i]} to task {@code to[i]}, in input order.
     */
    record Indexed(int[] from, int[] to) {}

    /**
     * Validates {@code dag} (the checks of the class comment, in input order: task ids, then each edge's endpoints,
     * self-loop and duplicate, then cycles) and returns its edges by task index: what {@link DagContractor} works on,
     * without building a {@link Graph}.
     */
    static Indexed index(ModelDag dag) {
        List<Task> tasks = dag.tasks();
        if (tasks.isEmpty()) {
            throw new DagValidationException("dag '" + dag.name() + "': tasks is empty (a model needs at least one task)");
        }
        Map<String, Integer> index = new HashMap<>(2 * tasks.size());
        for (int i = 0; i < tasks.size(); i++) {
            String id = tasks.get(i).id();
            if (index.putIfAbsent(id, i) != null) {
                throw new DagValidationException("tasks[" + i + "].id: duplicate task id '" + id + "'");
            }
        }
        List<Edge> edges = dag.edges();
        int[] from = new int[edges.size()];
        int[] to = new int[edges.size()];
        Set<Long> seen = new HashSet<>(2 * edges.size());
        for (int i = 0; i < edges.size(); i++) {
            Edge edge = edges.get(i);
            Integer f = index.get(edge.from());
            if (f == null) {
                throw new DagValidationException("edges[" + i + "].from: '" + edge.from() + "' is not a task id");
            }
            Integer t = index.get(edge.to());
            if (t == null) {
                throw new DagValidationException("edges[" + i + "].to: '" + edge.to() + "' is not a task id");
            }
            if (f.intValue() == t.intValue()) {
                throw new DagValidationException("edges[" + i + "]: self-loop on task '" + edge.from() + "'");
            }
            if (!seen.add(((long) f << 32) | t)) {
                throw new DagValidationException("edges[" + i + "]: duplicate edge '" + edge.from() + "' -> '" + edge.to() + "'");
            }
            from[i] = f;
            to[i] = t;
        }
        if (!acyclic(tasks.size(), from, to)) {
            requireAcyclic(graphOf(dag)); // names one cycle
            throw new IllegalStateException("BUG: dag '" + dag.name() + "' has a cycle that the graph check did not find");
        }
        return new Indexed(from, to);
    }

    /** Kahn's algorithm: whether every one of {@code n} tasks can be taken in an order consistent with the edges. */
    private static boolean acyclic(int n, int[] from, int[] to) {
        int[] indegree = new int[n];
        int[] outStart = new int[n + 1];
        for (int i = 0; i < from.length; i++) {
            indegree[to[i]]++;
            outStart[from[i] + 1]++;
        }
        for (int v = 0; v < n; v++) {
            outStart[v + 1] += outStart[v];
        }
        int[] fill = outStart.clone();
        int[] targets = new int[from.length];
        for (int i = 0; i < from.length; i++) {
            targets[fill[from[i]]++] = to[i];
        }
        int[] ready = new int[n];
        int head = 0;
        int tail = 0;
        for (int v = 0; v < n; v++) {
            if (indegree[v] == 0) {
                ready[tail++] = v;
            }
        }
        while (head < tail) {
            int v = ready[head++];
            for (int k = outStart[v]; k < outStart[v + 1]; k++) {
                if (--indegree[targets[k]] == 0) {
                    ready[tail++] = targets[k];
                }
            }
        }
        return tail == n;
    }

    /** {@code dag} as a JGraphT graph, unchecked (callers validate first). */
    private static Graph<String, DefaultWeightedEdge> graphOf(ModelDag dag) {
        Graph<String, DefaultWeightedEdge> graph = new SimpleDirectedWeightedGraph<>(DefaultWeightedEdge.class);
        for (Task task : dag.tasks()) {
            graph.addVertex(task.id());
        }
        for (Edge edge : dag.edges()) {
            graph.setEdgeWeight(graph.addEdge(edge.from(), edge.to()), edge.bytes());
        }
        return graph;
    }

    /** Throws naming one directed cycle if {@code graph} has any. */
    static void requireAcyclic(Graph<String, DefaultWeightedEdge> graph) {
        Optional<List<String>> cycle = findCycle(graph);
        if (cycle.isPresent()) {
            throw new DagValidationException("edges: the graph has a cycle: " + String.join(" -> ", cycle.get()));
        }
    }

    /** One directed cycle of {@code graph} (first vertex repeated at the end), if it has any. */
    static <E> Optional<List<String>> findCycle(Graph<String, E> graph) {
        for (Set<String> component : new KosarajuStrongConnectivityInspector<>(graph).stronglyConnectedSets()) {
            if (component.size() > 1) {
                return Optional.of(cycleThrough(graph, component));
            }
        }
        return Optional.empty();
    }

    /** A cycle inside a strongly connected set: breadth-first from one vertex back to itself. */
    private static <E> List<String> cycleThrough(Graph<String, E> graph, Set<String> component) {
        String start = component.stream().sorted().findFirst().orElseThrow();
        Map<String, String> parent = new HashMap<>();
        Deque<String> queue = new ArrayDeque<>(List.of(start));
        Set<String> seen = new HashSet<>(List.of(start));
        while (!queue.isEmpty()) {
            String u = queue.poll();
            for (E e : graph.outgoingEdgesOf(u)) {
                String w = graph.getEdgeTarget(e);
                if (w.equals(start)) {
                    List<String> path = new ArrayList<>();
                    for (String x = u; x != null; x = parent.get(x)) {
                        path.add(0, x);
                    }
                    path.add(start);
                    return path;
                }
                if (component.contains(w) && seen.add(w)) {
                    parent.put(w, u);
                    queue.add(w);
                }
            }
        }
        throw new IllegalStateException("BUG: strongly connected set without a cycle through " + start);
    }
}
