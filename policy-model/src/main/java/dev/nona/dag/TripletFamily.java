package dev.nona.dag;

/** Which triplets of a subgraph were enumerated. */
public enum TripletFamily {
    /** Every partition of the intermediates, every root part and sink part: all of $\Omega_t$. */
    EXACT,
    /**
     * Partitions of the subgraph's parallel branches, each branch (a weakly connected component of the
     * intermediates once root and sink are removed) kept whole on one server.
     */
    WHOLE_BRANCHES,
    /** As {@link #WHOLE_BRANCHES}, with at most {@code maxParts} parts (servers) per partition. */
    WHOLE_BRANCHES_AT_MOST_K_PARTS
}
