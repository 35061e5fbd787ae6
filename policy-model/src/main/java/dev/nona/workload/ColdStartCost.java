package dev.nona.workload;

import dev.nona.check.Checks;

/**
 * What loading a model part costs on a server that does not hold it ({@code cluster.coldStart} of a workload file):
 * $T_{CS}(b) = F + b / B$ seconds for a part of $b$ bytes, before the part runs.
 *
 * @param fixedSeconds       $F$, finite and $\ge 0$
 * @param loadBytesPerSecond $B$, finite and $> 0$
 */
public record ColdStartCost(double fixedSeconds, double loadBytesPerSecond) {
    public ColdStartCost {
        Checks.nonNegative(fixedSeconds, "cluster.coldStart.fixedSeconds", WorkloadException::new);
        Checks.positive(loadBytesPerSecond, "cluster.coldStart.loadBytesPerSecond", WorkloadException::new);
    }

    /** $T_{CS}(b) = F + b / B$: seconds to load a part of {@code bytes}. */
    public double seconds(double bytes) {
        return fixedSeconds + bytes / loadBytesPerSecond;
    }
}
