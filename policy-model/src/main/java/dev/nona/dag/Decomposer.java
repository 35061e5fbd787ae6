package dev.nona.dag;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cuts a contracted DAG at its bottleneck nodes (the roots $\mathcal{R}^j$ of Nona's decision variables).
 *
 * <p>Based on: Nona (CloudNet 2024), Section III-C "Stochastic scheduling": the DAG is divided into
 * subgraphs along nodes that lie on every source-to-sink path. Where the DAG has several sources
 * (sinks), a virtual source (sink) with 0 ops is added, with 0-byte edges to every source (from every
 * sink); its id is {@value #VIRTUAL_SOURCE} ({@value #VIRTUAL_SINK}), suffixed with {@code _} until it
 * does not clash with a task id.
 *
 * <p>With one source and one sink, $v$ is on every path iff no edge $(u,w)$ jumps over it in the
 * topological order ($topo(u) < topo(v) < topo(w)$), so one sweep over the order finds all roots. The
 * nodes strictly between two consecutive roots are that subgraph's intermediates, and every edge has
 * both endpoints in one subgraph.
 *
 * <p>Cost: $O(|T| + |D|)$ after sorting the edges. Stateless, thread-safe.
 */
public final class Decomposer {
    /** Base id of the virtual source. */
    public static final String VIRTUAL_SOURCE = "__source__";
    /** Base id of the virtual sink. */
    public static final String VIRTUAL_SINK = "__sink__";

    private Decomposer() {
    }

    /** Decomposes {@code dag} (whose nodes are in topological order, as {@link DagContractor} returns them). */
    public static Decomposition decompose(ContractedDag dag) {
        return decompose(dag, Set.of());
    }

    /**
     * As {@link #decompose(ContractedDag)}, but the nodes of {@code notRoots} are never roots even where no edge jumps
     * over them: the inner pieces of a node {@link MemoryCut} cut, which stay the intermediates of one subgraph.
     */
    public static Decomposition decompose(ContractedDag dag, Set<String> notRoots) {
        List<ContractedNode> nodes = new ArrayList<>(dag.nodes());
        List<Edge> edges = new ArrayList<>(dag.edges());
        addVirtualEnds(dag, nodes, edges);
        Map<String, Integer> position = new HashMap<>();
        for (ContractedNode node : nodes) {
            position.put(node.id(), position.size());
        }
        boolean[] never = new boolean[nodes.size()];
        notRoots.forEach(id -> never[position.get(id)] = true);
        List<Integer> rootPositions = bottlenecks(nodes.size(), edges, position, never);
        List<String> roots = rootPositions.stream().map(p -> nodes.get(p).id()).toList();
        return new Decomposition(dag, nodes, edges, roots, subgraphs(nodes, edges, position, rootPositions));
    }

    private static void addVirtualEnds(ContractedDag dag, List<ContractedNode> nodes, List<Edge> edges) {
        Set<String> hasInput = new HashSet<>();
        Set<String> hasOutput = new HashSet<>();
        for (Edge e : dag.edges()) {
            hasOutput.add(e.from());
            hasInput.add(e.to());
        }
        List<String> sources = dag.nodes().stream().map(ContractedNode::id).filter(id -> !hasInput.contains(id)).toList();
        List<String> sinks = dag.nodes().stream().map(ContractedNode::id).filter(id -> !hasOutput.contains(id)).toList();
        Set<String> taken = new HashSet<>(dag.nodes().stream().map(ContractedNode::id).toList());
        if (sources.size() > 1) {
            String id = freeId(VIRTUAL_SOURCE, taken);
            nodes.add(0, new ContractedNode(id, 0.0, List.of(), true));
            List<Edge> fromSource = sources.stream().map(s -> new Edge(id, s, 0.0)).toList();
            edges.addAll(0, fromSource);
        }
        if (sinks.size() > 1) {
            String id = freeId(VIRTUAL_SINK, taken);
            nodes.add(new ContractedNode(id, 0.0, List.of(), true));
            sinks.forEach(s -> edges.add(new Edge(s, id, 0.0)));
        }
    }

    private static String freeId(String base, Set<String> taken) {
        String id = base;
        while (taken.contains(id)) {
            id = id + "_";
        }
        taken.add(id);
        return id;
    }

    /** Positions $v$ such that no edge $(u,w)$ has $pos(u) < pos(v) < pos(w)$, but those {@code never} marks. */
    private static List<Integer> bottlenecks(int n, List<Edge> edges, Map<String, Integer> position, boolean[] never) {
        int[] furthest = new int[n];
        Arrays.fill(furthest, -1);
        for (Edge e : edges) {
            int u = position.get(e.from());
            furthest[u] = Math.max(furthest[u], position.get(e.to()));
        }
        List<Integer> roots = new ArrayList<>();
        int reach = -1;
        for (int v = 0; v < n; v++) {
            if (reach <= v && !never[v]) {
                roots.add(v);
            }
            reach = Math.max(reach, furthest[v]);
        }
        return roots;
    }

    private static List<Subgraph> subgraphs(List<ContractedNode> nodes, List<Edge> edges, Map<String, Integer> position,
            List<Integer> roots) {
        List<Subgraph> result = new ArrayList<>();
        for (int i = 0; i + 1 < roots.size(); i++) {
            int from = roots.get(i);
            int to = roots.get(i + 1);
            List<String> intermediates = nodes.subList(from + 1, to).stream().map(ContractedNode::id).toList();
            List<Edge> inside = edges.stream()
                    .filter(e -> position.get(e.from()) >= from && position.get(e.to()) <= to)
                    .toList();
            result.add(new Subgraph(nodes.get(from).id(), nodes.get(to).id(), intermediates, inside));
        }
        return result;
    }
}
