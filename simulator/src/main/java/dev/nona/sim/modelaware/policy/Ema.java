package dev.nona.sim.modelaware.policy;

import dev.nona.check.Checks;

/**
 * An exponential moving average: $\hat{x} \leftarrow \alpha x + (1 - \alpha)\hat{x}$, started at a prior.
 * Non-finite or negative observations are rejected. Not thread-safe.
 */
public final class Ema {
    private final double alpha;
    private double value;
    private long observations;

    /**
     * @param alpha weight of a new observation, in (0, 1]
     * @param prior the estimate before any observation, finite and $\ge 0$
     */
    public Ema(double alpha, double prior) {
        if (!(alpha > 0 && alpha <= 1)) {
            throw new IllegalArgumentException("EMA alpha (" + alpha + ") must be in (0, 1]");
        }
        this.alpha = alpha;
        this.value = Checks.nonNegative(prior, "EMA prior");
    }

    public void observe(double x) {
        Checks.nonNegative(x, "observed time");
        value = alpha * x + (1 - alpha) * value;
        observations++;
    }

    public double value() {
        return value;
    }

    public long observations() {
        return observations;
    }
}
