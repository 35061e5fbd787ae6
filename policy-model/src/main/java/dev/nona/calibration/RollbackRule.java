package dev.nona.calibration;

import java.io.Serializable;
import java.util.Optional;

/**
 * The gate on measurement: is a newly published table observed to do worse than the one it replaced?
 *
 * <p>The two tables ran at different times, possibly at different rates (a rate shift is what usually triggers a
 * new table), so their raw mean JCTs are not comparable: the new table may be slower only because the load went
 * up. The rule therefore compares the new table's observed mean JCT with what the <em>previous</em> table would
 * have given at the new table's rates: the cost model's prediction for the previous table at those rates
 * ($\sum_j \beta_j \tau_j / \sum_j \beta_j$ with the previous table's $\tau_j$, which the solver computes for the
 * safe hot-swap anyway), corrected by how far the previous table's observations were from its predictions (its
 * calibration ratio, observed over predicted). When the rates did not change this is the previous table's observed
 * mean JCT. The new table is rolled back when
 * $\bar T_{new} > (1 + margin) \cdot r_{prev} \cdot \bar\tau_{prev}(\beta_{new})$, with at least {@code minSamples}
 * ok outcomes of each table.
 */
public final class RollbackRule implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * A verdict to roll back, with the figures it was based on.
     *
     * @param observedMeanJctSeconds         the new table's observed mean JCT
     * @param previousExpectedMeanJctSeconds what the previous table would have given at the new rates
     * @param previousObservedMeanJctSeconds the previous table's observed mean JCT (at its own rates)
     * @param previousCalibrationRatio       the previous table's observed over predicted JCT
     */
    public record Rollback(double observedMeanJctSeconds, double previousExpectedMeanJctSeconds,
            double previousObservedMeanJctSeconds, double previousCalibrationRatio) {}

    private final double margin;
    private final long minSamples;

    /**
     * @param margin     how much worse (relative) the new table may be before it is rolled back, {@code >= 0}
     * @param minSamples ok outcomes each table needs before it is judged, {@code >= 1}
     */
    public RollbackRule(double margin, long minSamples) {
        if (!(margin >= 0) || Double.isInfinite(margin)) {
            throw new IllegalArgumentException("rollback margin (" + margin + ") must be a finite number >= 0");
        }
        if (minSamples < 1) {
            throw new IllegalArgumentException("rollback min samples (" + minSamples + ") must be >= 1");
        }
        this.margin = margin;
        this.minSamples = minSamples;
    }

    /**
     * The verdict on the current table.
     *
     * @param current                       ok outcomes of the current table's decisions
     * @param previous                      ok outcomes of the previous table's decisions
     * @param previousPredictedMeanAtNewRates the cost model's mean JCT of the previous table at the current table's
     *                                      rates; NaN when unknown (then the previous table's observed mean is used)
     * @return a rollback, or empty to keep the current table (also while either has too few samples)
     */
    public Optional<Rollback> judge(JctTally current, JctTally previous, double previousPredictedMeanAtNewRates) {
        if (current.samples() < minSamples || previous.samples() < minSamples) {
            return Optional.empty();
        }
        double ratio = previous.ratio();
        double expected = Double.isFinite(previousPredictedMeanAtNewRates) && previousPredictedMeanAtNewRates > 0
                && Double.isFinite(ratio) ? ratio * previousPredictedMeanAtNewRates : previous.observedMean();
        double observed = current.observedMean();
        if (observed > (1 + margin) * expected) {
            return Optional.of(new Rollback(observed, expected, previous.observedMean(), ratio));
        }
        return Optional.empty();
    }

    public long minSamples() {
        return minSamples;
    }

    public double margin() {
        return margin;
    }
}
