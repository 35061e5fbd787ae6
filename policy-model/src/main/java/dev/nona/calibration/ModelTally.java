package dev.nona.calibration;

import dev.nona.check.Checks;

/**
 * Accumulates one model's outcomes over a window into a {@link ModelCalibration}. The calibration ratio is a
 * ratio of means, $\bar{o}/\bar{p} = \sum o_i / \sum p_i$ over the ok outcomes $i$ (observed $o_i$, predicted
 * $p_i$), not a mean of per-request ratios, so that a few requests with a tiny prediction cannot dominate it.
 * Not thread safe.
 */
public final class ModelTally {
    /**
     * The tally's contents, to checkpoint and restore it.
     *
     * @param ok                    ok outcomes
     * @param failed                failed outcomes
     * @param timeouts              timed-out outcomes
     * @param missing               missing outcomes
     * @param unmatched             unmatched outcomes
     * @param observedSeconds       sum of the ok outcomes' observed JCT
     * @param predictedSeconds      sum of their decisions' predicted JCT
     * @param observed              the sketch of the observed JCT
     */
    public record State(long ok, long failed, long timeouts, long missing, long unmatched, double observedSeconds,
            double predictedSeconds, QuantileSketch.State observed) {}

    private long ok;
    private long failed;
    private long timeouts;
    private long missing;
    private long unmatched;
    private double observedSeconds;
    private double predictedSeconds;
    private final QuantileSketch observed;

    public ModelTally() {
        this.observed = new QuantileSketch();
    }

    private ModelTally(State s) {
        this.ok = s.ok();
        this.failed = s.failed();
        this.timeouts = s.timeouts();
        this.missing = s.missing();
        this.unmatched = s.unmatched();
        this.observedSeconds = s.observedSeconds();
        this.predictedSeconds = s.predictedSeconds();
        this.observed = QuantileSketch.restore(s.observed());
    }

    public static ModelTally restore(State state) {
        return new ModelTally(state);
    }

    public State state() {
        return new State(ok, failed, timeouts, missing, unmatched, observedSeconds, predictedSeconds, observed.state());
    }

    /**
     * An ok outcome.
     *
     * @param observedJctSeconds  its observed JCT, finite and {@code >= 0}
     * @param predictedJctSeconds its decision's predicted JCT, finite and {@code >= 0}
     */
    public void ok(double observedJctSeconds, double predictedJctSeconds) {
        Checks.nonNegative(predictedJctSeconds, "predicted JCT");
        observed.add(observedJctSeconds); // checks the observed JCT
        ok++;
        observedSeconds += observedJctSeconds;
        predictedSeconds += predictedJctSeconds;
    }

    public void failed() {
        failed++;
    }

    public void timedOut() {
        timeouts++;
    }

    public void missing() {
        missing++;
    }

    public void unmatched() {
        unmatched++;
    }

    /** The sketch of the observed JCT (live: merge it, do not change it). */
    QuantileSketch observed() {
        return observed;
    }

    double observedSeconds() {
        return observedSeconds;
    }

    double predictedSeconds() {
        return predictedSeconds;
    }

    /** Adds {@code other}'s counts and sums to this tally. */
    void merge(ModelTally other) {
        ok += other.ok;
        failed += other.failed;
        timeouts += other.timeouts;
        missing += other.missing;
        unmatched += other.unmatched;
        observedSeconds += other.observedSeconds;
        predictedSeconds += other.predictedSeconds;
        observed.merge(other.observed);
    }

    /** The figures so far. */
    public ModelCalibration result() {
        double observedMean = ok == 0 ? Double.NaN : observedSeconds / ok;
        double predictedMean = ok == 0 ? Double.NaN : predictedSeconds / ok;
        double ratio = ok == 0 || predictedSeconds == 0 ? Double.NaN : observedSeconds / predictedSeconds;
        return new ModelCalibration(ok + failed + timeouts, ok, failed, timeouts, missing, unmatched, observedMean,
                observed.quantile(0.99), predictedMean, ratio);
    }
}
