package dev.nona.calibration;

/**
 * The nearest-rank percentile: of $n$ values in ascending order, the $q$-quantile is the value of 1-based rank
 * $\lceil qn \rceil$ (the least value that at least a fraction $q$ of the values do not exceed), the first value
 * when $q = 0$. So the p99 of 100 values is the 99th, and the p99 of three values is the largest. No interpolation:
 * the result is always one of the values. {@link QuantileSketch} answers the same definition within its relative
 * accuracy. Stateless and thread safe.
 */
public final class NearestRank {
    private NearestRank() {}

    /**
     * The 0-based index of the $q$-quantile among {@code n} sorted values: $\max(0, \lceil qn \rceil - 1)$.
     *
     * @param n how many values, {@code >= 1}
     * @param q in [0, 1] (NaN is rejected)
     */
    public static long index(long n, double q) {
        requireQuantile(q);
        if (n < 1) {
            throw new IllegalArgumentException("values (" + n + ") must be >= 1");
        }
        return Math.max(0, (long) Math.ceil(q * n) - 1);
    }

    /**
     * The $q$-quantile of {@code sorted} (ascending, not checked); NaN when it is empty.
     *
     * @param q in [0, 1]
     */
    public static double of(double[] sorted, double q) {
        if (sorted.length == 0) {
            requireQuantile(q);
            return Double.NaN;
        }
        return sorted[(int) index(sorted.length, q)];
    }

    /**
     * The $q$-quantile of {@code sorted} (ascending, not checked), which must not be empty.
     *
     * @param q in [0, 1]
     */
    public static long of(long[] sorted, double q) {
        return sorted[(int) index(sorted.length, q)];
    }

    private static void requireQuantile(double q) {
        if (!(q >= 0 && q <= 1)) {
            throw new IllegalArgumentException("quantile (" + q + ") must be in [0, 1]");
        }
    }
}
