package dev.nona.workload;

import dev.nona.check.Checks;

/**
 * What loading a model part costs on a server that does not hold it ({@code cluster.coldStart} of a workload file):
 * $T_{CS}(b) = F + b / B$ seconds for a part of $b$ bytes, before the part runs, and the weight $w$ the controller's
 * placement rule prices each such second at ({@link #weight}), and how soon that rule forgets what not loading a model
 * cost ({@link #rentHalfLifeSeconds}).
 *
 * @param fixedSeconds       $F$, finite and $\ge 0$
 * @param loadBytesPerSecond $B$, finite and $> 0$
 * @param weight             $w$, finite and $> 0$: the seconds of requests' time the placement rule charges for each
 *                           second a load takes, when it weighs loading a model against waiting for a server that holds
 *                           it (1: the load's own time; above 1, loads are avoided more, as where loading weights costs
 *                           more than the time, in storage reads or in the accelerators' memory churn). It changes
 *                           nothing of what a load takes: an executor, the simulator's engine and the cost model use
 *                           {@link #seconds} alone.
 * @param rentHalfLifeSeconds $H$, finite and $> 0$: the half-life of the placement rule's rent,
 *                           what not loading a model where its parts would have finished first has cost them; the
 *                           rule loads the model once the rent reaches the load's price, so with a half-life only
 *                           losses that recur buy a load, not a few spread over a long run (see the rule,
 *                           {@code placement.ExpectedFinishRule}). Like the weight, it changes nothing of what a load
 *                           takes.
 */
public record ColdStartCost(double fixedSeconds, double loadBytesPerSecond, double weight, double rentHalfLifeSeconds) {
    /** The weight of a load's time when none is given: 1, the load's own time. */
    public static final double DEFAULT_WEIGHT = 1.0;
    /**
     * The rent's half-life when none is given: 5 s. Against no decay, on {@code examples/hetero.json} and
     * {@code memory-bound.json} at loads 0.1-0.9 (3 seeds, 50,000 jobs), 1-34% fewer loads at a mean JCT from 0.7%
     * lower to 0.9% higher (docs/benchmarks.md, "The rent's half-life").
     */
    public static final double DEFAULT_RENT_HALF_LIFE_SECONDS = 5.0;

    public ColdStartCost {
        Checks.nonNegative(fixedSeconds, "cluster.coldStart.fixedSeconds", WorkloadException::new);
        Checks.positive(loadBytesPerSecond, "cluster.coldStart.loadBytesPerSecond", WorkloadException::new);
        Checks.positive(weight, "cluster.coldStart.weight", WorkloadException::new);
        Checks.positive(rentHalfLifeSeconds, "cluster.coldStart.rentHalfLifeSeconds", WorkloadException::new);
    }

    /** $F + b/B$ at the {@link #DEFAULT_WEIGHT} and the {@link #DEFAULT_RENT_HALF_LIFE_SECONDS}. */
    public ColdStartCost(double fixedSeconds, double loadBytesPerSecond) {
        this(fixedSeconds, loadBytesPerSecond, DEFAULT_WEIGHT);
    }

    /** $F + b/B$ at weight {@code weight} and the {@link #DEFAULT_RENT_HALF_LIFE_SECONDS}. */
    public ColdStartCost(double fixedSeconds, double loadBytesPerSecond, double weight) {
        this(fixedSeconds, loadBytesPerSecond, weight, DEFAULT_RENT_HALF_LIFE_SECONDS);
    }

    /** $T_{CS}(b) = F + b / B$: seconds to load a part of {@code bytes}. */
    public double seconds(double bytes) {
        return fixedSeconds + bytes / loadBytesPerSecond;
    }

    /** $w \cdot T_{CS}(b)$: what the placement rule charges for loading a part of {@code bytes}. */
    public double pricedSeconds(double bytes) {
        return weight * seconds(bytes);
    }

    /** $2^{-\Delta t / H}$: what is left of a rent {@code elapsedSeconds} after it was counted (1 if none elapsed). */
    public double rentLeft(double elapsedSeconds) {
        return elapsedSeconds <= 0 ? 1 : Math.pow(0.5, elapsedSeconds / rentHalfLifeSeconds);
    }
}
