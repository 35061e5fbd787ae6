package dev.nona.sim.stats;

import dev.nona.calibration.QuantileSketch;
import dev.nona.check.Checks;
import java.util.ArrayList;
import java.util.List;

/**
 * Job completion times of a simulation in constant memory: percentiles from policy-model's DDSketch
 * ({@link QuantileSketch}, the one the controller's calibration uses for observed JCTs), plus the exact mean and
 * maximum, on a bucket grid laid from 1 ns (as the simulator's own histogram had, so committed figures reproduce).
 * A quantile is within relative error {@code alpha} of the value of its rank (Masson, Rim and Lee,
 * "DDSketch", VLDB 2019), and never above the maximum. Not thread-safe.
 */
public final class LogHistogram {
    /** Values below this (seconds) count as zero. */
    public static final double MIN_VALUE = QuantileSketch.MIN_VALUE;
    /** Buckets kept at most: over 1e-9 to 1e9 seconds at alpha 0.005 about 4,150 are possible; never collapse. */
    private static final int MAX_BUCKETS = Integer.MAX_VALUE;
    private final QuantileSketch sketch;
    private double sum;
    private double max;

    /** A histogram of relative accuracy {@code alpha}, in (0, 0.5). */
    public LogHistogram(double alpha) {
        if (!(alpha > 0 && alpha < 0.5)) {
            throw new IllegalArgumentException("histogram relative accuracy (" + alpha + ") must be in (0, 0.5)");
        }
        this.sketch = new QuantileSketch(alpha, MAX_BUCKETS, MIN_VALUE);
    }

    public LogHistogram() {
        this(0.005);
    }

    /** Records one value; NaN, infinite and negative values are rejected. */
    public void record(double v) {
        Checks.nonNegative(v, "histogram value");
        sketch.add(v);
        sum += v;
        max = Math.max(max, v);
    }

    public long count() {
        return sketch.count();
    }

    /** Exact mean; NaN when empty. */
    public double mean() {
        return count() == 0 ? Double.NaN : sum / count();
    }

    public double max() {
        return max;
    }

    public double relativeAccuracy() {
        return sketch.relativeAccuracy();
    }

    /** The {@code q}-quantile ({@code 0 <= q <= 1}) within relative error {@code alpha}; NaN when empty. */
    public double quantile(double q) {
        double v = sketch.quantile(q);
        return Double.isNaN(v) ? v : Math.min(v, max);
    }

    /** The empirical CDF as (value, fraction at or below) points, one per non-empty bucket. */
    public List<double[]> cdf() {
        List<double[]> points = new ArrayList<>();
        for (double[] p : sketch.cdf()) {
            points.add(new double[] {Math.min(p[0], max), p[1]});
        }
        return points;
    }

    /** Adds another histogram of the same accuracy into this one. */
    public void merge(LogHistogram other) {
        sketch.merge(other.sketch);
        sum += other.sum;
        max = Math.max(max, other.max);
    }

    @Override
    public String toString() {
        return "LogHistogram[count=" + count() + ", mean=" + mean() + ", p99=" + quantile(0.99) + "]";
    }
}
