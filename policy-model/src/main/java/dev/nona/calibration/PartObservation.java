package dev.nona.calibration;

import dev.nona.check.Checks;

/**
 * One part of a completed request as its executor observed it: the stages that ran on one server.
 *
 * @param server         the server, not blank
 * @param ops            the compute cost of the part's stages in operations (the catalog's task ops summed), finite
 *                       and {@code >= 0}, or NaN when unknown (a task or the model not in the catalog)
 * @param spanSeconds    from when the server began the part (a cold start included) to when its last stage
 *                       finished, finite and {@code >= 0}
 * @param computeSeconds the seconds spent computing the stages (no cold start, no wait for inputs), finite and
 *                       {@code >= 0}, or {@code null} when the executor does not report it
 * @param cold           whether the server loaded the model first
 */
public record PartObservation(String server, double ops, double spanSeconds, Double computeSeconds, boolean cold) {
    public PartObservation {
        if (server == null || server.isBlank()) {
            throw new IllegalArgumentException("server ('" + server + "') must not be blank");
        }
        if (!(ops >= 0) && !Double.isNaN(ops) || Double.isInfinite(ops)) {
            throw new IllegalArgumentException("ops (" + ops + ") must be finite and >= 0, or NaN (unknown)");
        }
        Checks.nonNegative(spanSeconds, "span seconds");
        if (computeSeconds != null) {
            Checks.nonNegative(computeSeconds, "compute seconds");
        }
    }

    /**
     * The observed compute time of the part: its {@code computeSeconds} when reported; else its span when it
     * started warm (the span then also holds any wait for inputs between its stages, so a split part's speed is
     * underestimated); NaN for a cold part without {@code computeSeconds}, whose span holds the model load.
     */
    public double observedComputeSeconds() {
        if (computeSeconds != null) {
            return computeSeconds;
        }
        return cold ? Double.NaN : spanSeconds;
    }

    /**
     * The observed cold-start time: span minus {@code computeSeconds} for a cold part that reports it (never below
     * 0: the span is in whole milliseconds), which also holds any wait for inputs between its stages; NaN for a
     * warm part or one without {@code computeSeconds}.
     */
    public double coldStartSeconds() {
        if (!cold || computeSeconds == null) {
            return Double.NaN;
        }
        return Math.max(0.0, spanSeconds - computeSeconds);
    }
}
