package dev.nona.dag;

import java.math.BigInteger;
import java.util.List;
import java.util.Objects;

/**
 * The enumerated triplets $\Omega_t$ (or a reduced family of them) of one subgraph.
 *
 * @param subgraph   the subgraph
 * @param triplets   the enumerated triplets, in a deterministic order
 * @param exactCount $|\Omega_t| = \sum_\pi |\pi|^2$, the number of triplets without any bound
 * @param family     which family was enumerated
 * @param maxParts   the largest number of parts in an enumerated partition
 */
public record SubgraphTriplets(Subgraph subgraph, List<Triplet> triplets, BigInteger exactCount, TripletFamily family,
        int maxParts) {
    public SubgraphTriplets {
        Objects.requireNonNull(subgraph, "subgraph");
        Objects.requireNonNull(exactCount, "exactCount");
        Objects.requireNonNull(family, "family");
        triplets = List.copyOf(triplets);
    }

    /** True iff a bound applied: fewer triplets than $|\Omega_t|$ were enumerated. */
    public boolean capped() {
        return family != TripletFamily.EXACT;
    }
}
