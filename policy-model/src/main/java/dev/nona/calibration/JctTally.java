package dev.nona.calibration;

/**
 * Observed and predicted job completion times of a set of ok outcomes, summed: what the controller knows of how a
 * table did. Immutable.
 *
 * @param samples            ok outcomes
 * @param observedSeconds    their observed JCTs, summed
 * @param predictedSeconds   their decisions' predicted JCTs, summed
 */
public record JctTally(long samples, double observedSeconds, double predictedSeconds) {
    /** No outcomes. */
    public static final JctTally EMPTY = new JctTally(0, 0, 0);

    public JctTally {
        if (samples < 0) {
            throw new IllegalArgumentException("samples (" + samples + ") must be >= 0");
        }
    }

    /** This tally with one more outcome. */
    public JctTally plus(double observed, double predicted) {
        return new JctTally(samples + 1, observedSeconds + observed, predictedSeconds + predicted);
    }

    /** Both tallies together. */
    public JctTally plus(JctTally other) {
        return new JctTally(samples + other.samples, observedSeconds + other.observedSeconds,
                predictedSeconds + other.predictedSeconds);
    }

    /** Mean observed JCT; NaN without samples. */
    public double observedMean() {
        return samples == 0 ? Double.NaN : observedSeconds / samples;
    }

    /** Mean predicted JCT; NaN without samples. */
    public double predictedMean() {
        return samples == 0 ? Double.NaN : predictedSeconds / samples;
    }

    /** Observed over predicted (ratio of the sums); NaN without samples or when nothing was predicted. */
    public double ratio() {
        return samples == 0 || predictedSeconds <= 0 ? Double.NaN : observedSeconds / predictedSeconds;
    }
}
