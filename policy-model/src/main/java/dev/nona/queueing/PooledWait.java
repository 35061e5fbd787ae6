package dev.nona.queueing;

/**
 * The wait of a customer in a pooled queue (see {@link PooledServers#waits}): it waits not at all with probability
 * $1 - P$, and otherwise for an exponential time of mean $m$, so its mean wait is $W_q = P\,m$.
 *
 * @param probability         $P$, the probability of waiting, in $[0, 1]$
 * @param conditionalMean     $m$, the mean wait of a customer that waits (s), $\ge 0$; $+\infty$ when overloaded
 */
public record PooledWait(double probability, double conditionalMean) {
    /** No waiting at all. */
    public static final PooledWait NONE = new PooledWait(0, 0);

    public PooledWait {
        if (!(probability >= 0 && probability <= 1)) {
            throw new IllegalArgumentException("probability of waiting (" + probability + ") must be in [0, 1]");
        }
        if (!(conditionalMean >= 0)) {
            throw new IllegalArgumentException("conditional mean wait (" + conditionalMean + " s) must be >= 0");
        }
    }

    /** $W_q = P\,m$ (s); $+\infty$ when overloaded, 0 when nobody waits. */
    public double mean() {
        return probability == 0 ? 0 : probability * conditionalMean;
    }

    /** Whether the wait is finite (the servers are stable). */
    public boolean finite() {
        return Double.isFinite(conditionalMean);
    }
}
