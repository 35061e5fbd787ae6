package dev.nona.optimize;

import dev.nona.dag.Subgraph;
import dev.nona.dag.Triplet;
import java.util.List;
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
        var expected = new java.util.HashSet<>(subgraph.intermediates());
        for (Triplet t : triplets) {
            var seen = new java.util.HashSet<String>();
            t.parts().forEach(p -> {
                if (p.isEmpty()) {
                    throw new IllegalArgumentException("subgraph " + subgraph.root() + ": triplet " + t + " has an empty part");
                }
                seen.addAll(p);
            });
            int size = t.parts().stream().mapToInt(List::size).sum();
            if (!seen.equals(expected) || size != expected.size()) {
                throw new IllegalArgumentException("subgraph " + subgraph.root() + ": triplet " + t
                        + " does not partition the intermediates " + subgraph.intermediates());
            }
        }
    }

    /** The servers a triplet needs: one per part, and one when there are no intermediates. */
    public static int serversNeeded(Triplet t) {
        return Math.max(1, t.parts().size());
    }
}
