package dev.nona.calibration;

/**
 * One model's figures over a window. The JCT figures are over the outcomes with status {@code ok} that were joined
 * with their decision; they are NaN when there were none.
 *
 * @param outcomes                outcomes joined with their decision (ok, failed and timed out)
 * @param ok                      of which ok
 * @param failed                  of which failed
 * @param timeouts                of which timed out
 * @param missingOutcomes         decisions that got no outcome within the bound
 * @param unmatchedOutcomes       outcomes whose decision never came (not in {@code outcomes})
 * @param observedMeanJctSeconds  mean observed JCT
 * @param observedP99JctSeconds   p99 of the observed JCT ({@link QuantileSketch}, within 1%)
 * @param predictedMeanJctSeconds mean of the decisions' predicted JCT $\tau_j$
 * @param calibrationRatio        observed over predicted mean JCT: 1 when the cost model is right, 2 when requests
 *                                take twice as long as it says; NaN when the predicted mean is 0
 */
public record ModelCalibration(long outcomes, long ok, long failed, long timeouts, long missingOutcomes,
        long unmatchedOutcomes, double observedMeanJctSeconds, double observedP99JctSeconds,
        double predictedMeanJctSeconds, double calibrationRatio) {}
