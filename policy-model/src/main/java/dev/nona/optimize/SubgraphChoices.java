package dev.nona.optimize;

import dev.nona.dag.Subgraph;
import dev.nona.dag.Triplet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A subgraph with its sample space $\Omega_t$: the triplets $(\pi, \pi_k, \pi_l)$ the optimiser may put
 * probability on. Parts name contracted node ids.
 *
 * @param subgraph the subgraph between root $t$ and sink $\mathcal{N}(t)$
 * @param triplets $\Omega_t$, at least one; every triplet's parts partition the subgraph's intermediates
 */
public record SubgraphChoices(Subgraph subgraph, List<Triplet> triplets) {
    public SubgraphChoices {
        Objects.requireNonNull(subgraph, "subgraph");
        triplets = List.copyOf(triplets);
        if (triplets.isEmpty()) {
            throw new IllegalArgumentException("subgraph " + subgraph.root() + "->" + subgraph.sink() + ": no triplets");
        }
        requirePartitions(subgraph, triplets);
    }

    /**
     * Checks that every triplet's parts are non-empty and partition the intermediates: every id an intermediate, each
     * intermediate in exactly one part. $O(\text{ids})$ per triplet with one mark array, no per-triplet sets (a
     * catalog of 1,000 models has about a million triplets, validated on every solve); a partition shared by consecutive
     * triplets (the same list, as {@code TripletEnumerator} gives them) is checked once.
     */
    private static void requirePartitions(Subgraph subgraph, List<Triplet> triplets) {
        Map<String, Integer> index = new HashMap<>();
        for (String id : subgraph.intermediates()) {
            index.putIfAbsent(id, index.size());
        }
        int expected = index.size();
        int[] mark = new int[expected];
        int stamp = 0;
        List<List<String>> checked = null;
        for (Triplet t : triplets) {
            if (t.parts() == checked) {
                continue; // the same partition as the triplet before (another root or sink part): checked already
            }
            stamp++;
            int distinct = 0;
            int size = 0;
            boolean unknown = false;
            for (List<String> p : t.parts()) {
                if (p.isEmpty()) {
                    throw new IllegalArgumentException("subgraph " + subgraph.root() + ": triplet " + t + " has an empty part");
                }
                for (String id : p) {
                    size++;
                    Integer i = index.get(id);
                    if (i == null) {
                        unknown = true;
                    } else if (mark[i] != stamp) {
                        mark[i] = stamp;
                        distinct++;
                    }
                }
            }
            if (unknown || distinct != expected || size != expected) {
                throw new IllegalArgumentException("subgraph " + subgraph.root() + ": triplet " + t
                        + " does not partition the intermediates " + subgraph.intermediates());
            }
            checked = t.parts();
        }
    }

    /** The servers a triplet needs: one per part, and one when there are no intermediates. */
    public static int serversNeeded(Triplet t) {
        return Math.max(1, t.parts().size());
    }
}
