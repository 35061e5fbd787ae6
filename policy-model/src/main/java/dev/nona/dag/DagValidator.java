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
        toGraph(dag);
    }

    /**
     * Validates {@code dag} and returns it as a simple directed graph whose vertices are task ids (in
     * input order) and whose edge weights are the edges' bytes.
     */
    public static Graph<String, DefaultWeightedEdge> toGraph(ModelDag dag) {
        if (dag.tasks().isEmpty()) {
            throw new DagValidationException("dag '" + dag.name() + "': tasks is empty (a model needs at least one task)");
        }
        Graph<String, DefaultWeightedEdge> graph = new SimpleDirectedWeightedGraph<>(DefaultWeightedEdge.class);
        for (int i = 0; i < dag.tasks().size(); i++) {
            String id = dag.tasks().get(i).id();
            if (!graph.addVertex(id)) {
                throw new DagValidationException("tasks[" + i + "].id: duplicate task id '" + id + "'");
            }
        }
        for (int i = 0; i < dag.edges().size(); i++) {
            addEdge(graph, dag.edges().get(i), "edges[" + i + "]");
        }
        requireAcyclic(graph);
        return graph;
    }

    static void addEdge(Graph<String, DefaultWeightedEdge> graph, Edge edge, String where) {
        if (!graph.containsVertex(edge.from())) {
            throw new DagValidationException(where + ".from: '" + edge.from() + "' is not a task id");
        }
        if (!graph.containsVertex(edge.to())) {
            throw new DagValidationException(where + ".to: '" + edge.to() + "' is not a task id");
        }
        if (edge.from().equals(edge.to())) {
            throw new DagValidationException(where + ": self-loop on task '" + edge.from() + "'");
        }
        if (graph.containsEdge(edge.from(), edge.to())) {
            throw new DagValidationException(where + ": duplicate edge '" + edge.from() + "' -> '" + edge.to() + "'");
        }
        DefaultWeightedEdge e = graph.addEdge(edge.from(), edge.to());
        graph.setEdgeWeight(e, edge.bytes());
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
