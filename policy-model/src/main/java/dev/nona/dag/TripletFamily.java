package dev.nona.dag;

/** Which triplets of a subgraph were enumerated. */
public enum TripletFamily {
    /** Every partition of the intermediates, every root part and sink part: all of $\Omega_t$. */
    EXACT,
    /**
     * Partitions of pieces: the subgraph's parallel branches (weakly connected components of the
     * intermediates once root and sink are removed), the largest repeatedly cut into two contiguous halves
     * of its topological order while the bound allows one more piece. A piece is never split across parts.
     */
    BRANCH_SEGMENTS,
    /** Partitions of whole branches (see {@link #BRANCH_SEGMENTS}), with at most {@code maxParts} parts (servers) per partition. */
    WHOLE_BRANCHES_AT_MOST_K_PARTS
}
