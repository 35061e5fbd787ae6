package dev.nona.dag;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jgrapht.Graph;
import org.jgrapht.Graphs;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.traverse.TopologicalOrderIterator;

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
 * <p>Implementation: the contractible edges are kept in a sorted set keyed by (position of $a$, position
 * of $b$); after a contraction only edges at the merged pair's neighbours can change status, and only
 * those are re-checked. Cost: at most $|T|$ contractions, each re-checking $O(\deg^2)$ edges at
 * $O(\deg)$ each. Stateless, thread-safe.
 */
public final class DagContractor {
    private DagContractor() {
    }

    /** Validates and contracts {@code dag} to the fixed point of Technique 1. */
    public static ContractedDag contract(ModelDag dag) {
        Graph<String, DefaultWeightedEdge> graph = DagValidator.toGraph(dag);
        Map<String, Integer> position = positions(dag, graph);
        String[] idAt = new String[position.size()];
        position.forEach((id, p) -> idAt[p] = id);
        Map<String, Node> nodes = new LinkedHashMap<>();
        for (Task task : dag.tasks()) {
            nodes.put(task.id(), new Node(task.ops(), new ArrayList<>(List.of(task.id()))));
        }
        TreeSet<Long> contractible = new TreeSet<>();
        graph.vertexSet().forEach(v -> recheck(graph, v, position, contractible));
        while (!contractible.isEmpty()) {
            long key = contractible.pollFirst();
            String a = idAt[(int) (key >>> 32)];
            String b = idAt[(int) key];
            Set<String> affected = neighbourhood(graph, a, b);
            affected.forEach(v -> forget(graph, v, position, contractible));
            merge(graph, nodes, a, b);
            affected.remove(b);
            affected.forEach(v -> recheck(graph, v, position, contractible));
        }
        return result(dag.name(), graph, nodes, Comparator.comparing(position::get));
    }

    /** The nodes whose inputs or outputs change when {@code a -> b} is contracted (a superset). */
    private static Set<String> neighbourhood(Graph<String, DefaultWeightedEdge> graph, String a, String b) {
        Set<String> affected = new HashSet<>(List.of(a, b));
        for (String v : List.of(a, b)) {
            affected.addAll(Graphs.predecessorListOf(graph, v));
            affected.addAll(Graphs.successorListOf(graph, v));
        }
        return affected;
    }

    /** Orders candidate edges by (position of producer, position of consumer). */
    private static long key(Map<String, Integer> position, String a, String b) {
        return ((long) position.get(a) << 32) | position.get(b);
    }

    private static void forget(Graph<String, DefaultWeightedEdge> graph, String v, Map<String, Integer> position,
            TreeSet<Long> contractible) {
        graph.incomingEdgesOf(v).forEach(e -> contractible.remove(key(position, graph.getEdgeSource(e), v)));
        graph.outgoingEdgesOf(v).forEach(e -> contractible.remove(key(position, v, graph.getEdgeTarget(e))));
    }

    private static void recheck(Graph<String, DefaultWeightedEdge> graph, String v, Map<String, Integer> position,
            TreeSet<Long> contractible) {
        for (DefaultWeightedEdge e : graph.incomingEdgesOf(v)) {
            check(graph, graph.getEdgeSource(e), v, position, contractible);
        }
        for (DefaultWeightedEdge e : graph.outgoingEdgesOf(v)) {
            check(graph, v, graph.getEdgeTarget(e), position, contractible);
        }
    }

    private static void check(Graph<String, DefaultWeightedEdge> graph, String a, String b, Map<String, Integer> position,
            TreeSet<Long> contractible) {
        long key = key(position, a, b);
        if (contractible(graph, a, b)) {
            contractible.add(key);
        } else {
            contractible.remove(key);
        }
    }

    /** Implements the contraction condition of Technique 1 (set $\mathcal{C}$ in Nona, Section III-D). */
    static <E> boolean contractible(Graph<String, E> graph, String a, String b) {
        for (E in : graph.incomingEdgesOf(b)) {
            String n = graph.getEdgeSource(in);
            if (!n.equals(a) && !graph.containsEdge(n, a)) {
                return false;
            }
        }
        for (E out : graph.outgoingEdgesOf(a)) {
            String n = graph.getEdgeTarget(out);
            if (!n.equals(b) && !graph.containsEdge(b, n)) {
                return false;
            }
        }
        return true;
    }

    private static Map<String, Integer> positions(ModelDag dag, Graph<String, DefaultWeightedEdge> graph) {
        Map<String, Integer> inputIndex = new HashMap<>();
        for (int i = 0; i < dag.tasks().size(); i++) {
            inputIndex.put(dag.tasks().get(i).id(), i);
        }
        Map<String, Integer> position = new HashMap<>();
        var topo = new TopologicalOrderIterator<>(graph, Comparator.comparing(inputIndex::get));
        while (topo.hasNext()) {
            position.put(topo.next(), position.size());
        }
        return position;
    }

    private static void merge(Graph<String, DefaultWeightedEdge> graph, Map<String, Node> nodes, String a, String b) {
        if (!contractible(graph, a, b)) {
            throw new IllegalStateException("BUG: edge " + a + "->" + b + " taken as contractible but it is not");
        }
        for (DefaultWeightedEdge in : List.copyOf(graph.incomingEdgesOf(b))) {
            String n = graph.getEdgeSource(in);
            if (!n.equals(a)) {
                addBytes(graph, n, a, graph.getEdgeWeight(in));
            }
        }
        for (DefaultWeightedEdge out : List.copyOf(graph.outgoingEdgesOf(b))) {
            addBytes(graph, a, graph.getEdgeTarget(out), graph.getEdgeWeight(out));
        }
        graph.removeVertex(b);
        Node merged = nodes.get(a);
        Node absorbed = nodes.remove(b);
        merged.tasks.addAll(absorbed.tasks);
        nodes.put(a, new Node(merged.ops + absorbed.ops, merged.tasks));
    }

    /** Adds {@code bytes} to edge {@code from -> to}, creating it if needed (merged parallel edges sum). */
    private static void addBytes(Graph<String, DefaultWeightedEdge> graph, String from, String to, double bytes) {
        DefaultWeightedEdge existing = graph.getEdge(from, to);
        if (existing == null) {
            graph.setEdgeWeight(graph.addEdge(from, to), bytes);
        } else {
            graph.setEdgeWeight(existing, graph.getEdgeWeight(existing) + bytes);
        }
    }

    private static ContractedDag result(String name, Graph<String, DefaultWeightedEdge> graph, Map<String, Node> nodes,
            Comparator<String> byPosition) {
        List<String> order = graph.vertexSet().stream().sorted(byPosition).toList();
        List<ContractedNode> contracted = new ArrayList<>();
        List<Edge> edges = new ArrayList<>();
        for (String id : order) {
            Node node = nodes.get(id);
            contracted.add(new ContractedNode(id, node.ops, node.tasks, false));
            graph.outgoingEdgesOf(id).stream()
                    .sorted(Comparator.comparing(graph::getEdgeTarget, byPosition))
                    .forEach(e -> edges.add(new Edge(id, graph.getEdgeTarget(e), graph.getEdgeWeight(e))));
        }
        return new ContractedDag(name, contracted, edges);
    }

    private record Node(double ops, List<String> tasks) {
    }
}
