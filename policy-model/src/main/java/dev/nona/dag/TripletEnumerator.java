package dev.nona.dag;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jgrapht.Graph;
import org.jgrapht.alg.connectivity.ConnectivityInspector;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.SimpleDirectedGraph;

/**
 * Enumerates a subgraph's triplets $(\pi, \pi_k, \pi_l)$: $\pi$ a partition of its intermediate tasks,
 * the root colocated with part $\pi_k$, the sink with part $\pi_l$ (Nona, CloudNet 2024, Section III-C,
 * Technique 2 "relative assignments"). There are $|\Omega_t| = \sum_\pi |\pi|^2$ of them.
 *
 * <p>Within the {@link EnumerationBound} the enumeration is exact ({@link TripletFamily#EXACT}). Above it,
 * the items partitioned are <em>pieces</em> rather than tasks. The pieces start as the subgraph's parallel
 * branches (weakly connected components of the intermediates). If partitions of the branches fit the
 * bound, the largest piece is cut into two contiguous halves of its topological order for as long as one
 * more piece still fits ({@link TripletFamily#BRANCH_SEGMENTS}); otherwise the branches are kept whole and
 * partitions have at most $K$ parts, $K$ the largest value that fits
 * ({@link TripletFamily#WHOLE_BRANCHES_AT_MOST_K_PARTS}; $K = 1$, colocating everything, always fits).
 * Both reduced families contain "everything on one server" and, while $K$ allows, "each branch on its own
 * server" (the paper's opportunistic baseline). A subgraph without intermediates has no triplet.
 *
 * <p>Order: partitions in lexicographic order of their restricted growth strings over the items in
 * topological order, then root part $k$, then sink part $l$. Stateless, thread-safe.
 */
public final class TripletEnumerator {
    private TripletEnumerator() {
    }

    /** Enumerates {@code subgraph}'s triplets within {@code bound}. */
    public static SubgraphTriplets enumerate(Subgraph subgraph, EnumerationBound bound) {
        List<String> intermediates = subgraph.intermediates();
        int m = intermediates.size();
        BigInteger exact = SetPartitions.tripletCount(m, m);
        BigInteger max = BigInteger.valueOf(bound.maxTripletsPerSubgraph());
        if (exact.compareTo(max) <= 0) {
            List<List<String>> singletons = intermediates.stream().map(List::of).toList();
            return new SubgraphTriplets(subgraph, triplets(singletons, m), exact, TripletFamily.EXACT, m);
        }
        List<List<String>> branches = branches(subgraph);
        int b = branches.size();
        if (SetPartitions.tripletCount(b, b).compareTo(max) <= 0) {
            List<List<String>> pieces = segments(branches, max);
            return new SubgraphTriplets(subgraph, triplets(pieces, pieces.size()), exact, TripletFamily.BRANCH_SEGMENTS,
                    pieces.size());
        }
        int k = 1;
        while (k < b && SetPartitions.tripletCount(b, k + 1).compareTo(max) <= 0) {
            k++;
        }
        return new SubgraphTriplets(subgraph, triplets(branches, k), exact,
                TripletFamily.WHOLE_BRANCHES_AT_MOST_K_PARTS, k);
    }

    /**
     * Refines {@code branches} while one more piece still fits the bound: the largest piece (the first
     * one on ties) is cut into two contiguous halves of its topological order, the first half the larger.
     */
    static List<List<String>> segments(List<List<String>> branches, BigInteger max) {
        List<List<String>> pieces = new ArrayList<>(branches);
        while (SetPartitions.tripletCount(pieces.size() + 1, pieces.size() + 1).compareTo(max) <= 0) {
            int largest = 0;
            for (int i = 1; i < pieces.size(); i++) {
                if (pieces.get(i).size() > pieces.get(largest).size()) {
                    largest = i;
                }
            }
            List<String> piece = pieces.get(largest);
            if (piece.size() < 2) {
                break;
            }
            int half = (piece.size() + 1) / 2;
            pieces.set(largest, piece.subList(0, half));
            pieces.add(largest + 1, piece.subList(half, piece.size()));
        }
        return pieces;
    }

    /** Every triplet over partitions of {@code items} (groups of node ids) into at most {@code maxParts} parts. */
    private static List<Triplet> triplets(List<List<String>> items, int maxParts) {
        List<Triplet> result = new ArrayList<>();
        SetPartitions.forEach(items.size(), maxParts, rgs -> {
            int count = 0;
            for (int a : rgs) {
                count = Math.max(count, a + 1);
            }
            List<List<String>> groups = new ArrayList<>(count);
            for (int p = 0; p < count; p++) {
                groups.add(new ArrayList<>());
            }
            for (int i = 0; i < rgs.length; i++) {
                groups.get(rgs[i]).addAll(items.get(i));
            }
            // unmodifiable and null-free (List.copyOf), so the triplets of this partition share it
            for (int p = 0; p < count; p++) {
                groups.set(p, List.copyOf(groups.get(p)));
            }
            List<List<String>> parts = List.copyOf(groups);
            for (int k = 0; k < count; k++) {
                for (int l = 0; l < count; l++) {
                    result.add(new Triplet(parts, k, l));
                }
            }
        });
        return result;
    }

    /** The intermediates' weakly connected components, each in topological order, ordered by first node. */
    static List<List<String>> branches(Subgraph subgraph) {
        Graph<String, DefaultEdge> inner = new SimpleDirectedGraph<>(DefaultEdge.class);
        subgraph.intermediates().forEach(inner::addVertex);
        for (Edge e : subgraph.edges()) {
            if (inner.containsVertex(e.from()) && inner.containsVertex(e.to())) {
                inner.addEdge(e.from(), e.to());
            }
        }
        Map<String, Integer> position = new HashMap<>();
        subgraph.intermediates().forEach(id -> position.put(id, position.size()));
        List<Set<String>> components = new ConnectivityInspector<>(inner).connectedSets();
        List<List<String>> branches = new ArrayList<>();
        for (Set<String> component : components) {
            branches.add(component.stream().sorted((x, y) -> position.get(x) - position.get(y)).toList());
        }
        branches.sort((x, y) -> position.get(x.get(0)) - position.get(y.get(0)));
        return branches;
    }
}
