package dev.nona.placement;

import java.util.random.RandomGenerator;

/**
 * Samples an index from a fixed discrete distribution in $O(1)$: Vose's alias method (one uniform double, one
 * comparison). Building is $O(n)$.
 *
 * <p>Based on: M. D. Vose, "A linear algorithm for generating random numbers with a given distribution", IEEE
 * Transactions on Software Engineering 17(9), 1991.
 *
 * <p>Immutable and thread-safe (the generator is the caller's).
 */
public final class AliasTable {
    private final double[] prob;
    private final int[] alias;

    /**
     * @param weights non-negative, finite, not all zero; they need not sum to 1
     */
    public AliasTable(double[] weights) {
        int n = weights.length;
        if (n == 0) {
            throw new IllegalArgumentException("alias table needs at least one weight");
        }
        double sum = 0;
        for (int i = 0; i < n; i++) {
            if (!(weights[i] >= 0) || Double.isInfinite(weights[i])) {
                throw new IllegalArgumentException("weight " + i + " (" + weights[i] + ") must be finite and >= 0");
            }
            sum += weights[i];
        }
        if (!(sum > 0)) {
            throw new IllegalArgumentException("weights sum to " + sum + "; need > 0");
        }
        prob = new double[n];
        alias = new int[n];
        double[] scaled = new double[n];
        int[] small = new int[n];
        int[] large = new int[n];
        int ns = 0;
        int nl = 0;
        for (int i = 0; i < n; i++) {
            scaled[i] = weights[i] * n / sum;
            if (scaled[i] < 1) {
                small[ns++] = i;
            } else {
                large[nl++] = i;
            }
        }
        while (ns > 0 && nl > 0) {
            int s = small[--ns];
            int l = large[--nl];
            prob[s] = scaled[s];
            alias[s] = l;
            scaled[l] = scaled[l] + scaled[s] - 1;
            if (scaled[l] < 1) {
                small[ns++] = l;
            } else {
                large[nl++] = l;
            }
        }
        while (nl > 0) {
            int l = large[--nl];
            prob[l] = 1;
            alias[l] = l;
        }
        while (ns > 0) { // only through rounding
            int s = small[--ns];
            prob[s] = 1;
            alias[s] = s;
        }
    }

    /** Number of outcomes. */
    public int size() {
        return prob.length;
    }

    /**
     * Draws an index with probability proportional to its weight. One uniform double serves as both the column
     * (its integer part after scaling by $n$) and the coin (its fractional part); a single outcome draws nothing.
     */
    public int sample(RandomGenerator rnd) {
        int n = prob.length;
        if (n == 1) {
            return 0;
        }
        double u = rnd.nextDouble() * n;
        int i = (int) u;
        if (i >= n) { // only if nextDouble() * n rounds up to n
            i = n - 1;
        }
        return u - i < prob[i] ? i : alias[i];
    }
}
