package dev.nona.sim.modelaware.policy;

import dev.nona.check.Checks;

/**
 * The four times of the thesis's analytical model (Section 6.5) for one model, in seconds.
 *
 * @param tCS cold start time $T_{CS}$
 * @param tI  model inference time $T_I$ (also used for $T_{I_{avg}}$ of the requests already in flight)
 * @param tP  pre- plus post-processing time $T_P$ (also used for $T_{P_{avg}}$)
 * @param tN  network transfer time $T_N$ of one remote inference call
 */
public record LatencyEstimates(double tCS, double tI, double tP, double tN) {
    public LatencyEstimates {
        Checks.nonNegative(tCS, "tCS");
        Checks.nonNegative(tI, "tI");
        Checks.nonNegative(tP, "tP");
        Checks.nonNegative(tN, "tN");
    }
}
