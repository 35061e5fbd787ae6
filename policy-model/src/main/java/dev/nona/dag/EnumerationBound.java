package dev.nona.dag;

/**
 * How many triplets $(\pi, \pi_k, \pi_l)$ may be enumerated for one subgraph.
 *
 * <p>A subgraph with $m$ intermediates has $\sum_{\pi} |\pi|^2 = \sum_k S(m,k)\,k^2$ triplets ($S$: Stirling
 * numbers of the second kind), which grows like the Bell numbers. When that count exceeds
 * {@code maxTripletsPerSubgraph}, {@link TripletEnumerator} enumerates a reduced family instead (see
 * {@link TripletFamily}) and marks the result {@code capped}.
 *
 * @param maxTripletsPerSubgraph the most triplets enumerated for one subgraph, $\ge 1$
 */
public record EnumerationBound(long maxTripletsPerSubgraph) {
    /** The default bound: {@value #DEFAULT_MAX_TRIPLETS} triplets per subgraph (exact up to 5 intermediates, which have 471 triplets; 6 have 2386). */
    public static final long DEFAULT_MAX_TRIPLETS = 1_000;

    public EnumerationBound {
        if (maxTripletsPerSubgraph < 1) {
            throw new IllegalArgumentException("maxTripletsPerSubgraph (" + maxTripletsPerSubgraph + ") must be >= 1");
        }
    }

    /** The default bound. */
    public static EnumerationBound defaults() {
        return new EnumerationBound(DEFAULT_MAX_TRIPLETS);
    }

    /** No bound in practice (the enumeration is exact unless it would not fit in memory anyway). */
    public static EnumerationBound exact() {
        return new EnumerationBound(Long.MAX_VALUE);
    }
}
