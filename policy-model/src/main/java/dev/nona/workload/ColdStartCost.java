package dev.nona.workload;

import dev.nona.check.Checks;

/**
 * What loading a model part costs on a server that does not hold it ({@code cluster.coldStart} of a workload file):
 * $T_{CS}(b) = F + b / B$ seconds for a part of $b$ bytes, before the part runs, and the weight $w$ the controller's
 * placement rule prices each such second at ({@link #weight}).
 *
 * @param fixedSeconds       $F$, finite and $\ge 0$
 * @param loadBytesPerSecond $B$, finite and $> 0$
 * @param weight             $w$, finite and $> 0$: the seconds of requests' time the placement rule charges for each
 *                           second a load takes, when it weighs loading a model against waiting for a server that holds
 *                           it (1: the load's own time; above 1, loads are avoided more, as where loading weights costs
 *                           more than the time, in storage reads or in the accelerators' memory churn). It changes
 *                           nothing of what a load takes: an executor, the simulator's engine and the cost model use
 *                           {@link #seconds} alone.
 */
public record ColdStartCost(double fixedSeconds, double loadBytesPerSecond, double weight) {
    /** The weight of a load's time when none is given: 1, the load's own time. */
    public static final double DEFAULT_WEIGHT = 1.0;

    public ColdStartCost {
        Checks.nonNegative(fixedSeconds, "cluster.coldStart.fixedSeconds", WorkloadException::new);
        Checks.positive(loadBytesPerSecond, "cluster.coldStart.loadBytesPerSecond", WorkloadException::new);
        Checks.positive(weight, "cluster.coldStart.weight", WorkloadException::new);
    }

    /** $F + b/B$ at the {@link #DEFAULT_WEIGHT}. */
    public ColdStartCost(double fixedSeconds, double loadBytesPerSecond) {
        this(fixedSeconds, loadBytesPerSecond, DEFAULT_WEIGHT);
    }

    /** $T_{CS}(b) = F + b / B$: seconds to load a part of {@code bytes}. */
    public double seconds(double bytes) {
        return fixedSeconds + bytes / loadBytesPerSecond;
    }

    /** $w \cdot T_{CS}(b)$: what the placement rule charges for loading a part of {@code bytes}. */
    public double pricedSeconds(double bytes) {
        return weight * seconds(bytes);
    }
}
