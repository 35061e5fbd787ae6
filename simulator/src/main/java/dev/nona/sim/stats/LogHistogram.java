package dev.nona.sim.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A streaming histogram of positive values in logarithmic buckets, for percentiles of job completion times in
 * constant memory: bucket $i$ holds values in $(\gamma^{i-1}, \gamma^i] \cdot v_{min}$ with
 * $\gamma = (1+\alpha)/(1-\alpha)$, and a quantile is reported as the bucket's midpoint
 * $2\gamma^i v_{min}/(\gamma+1)$, within relative error $\alpha$ of a value of that bucket (the DDSketch bound).
 *
 * <p>Based on Masson, Rim and Lee, "DDSketch: a fast and fully-mergeable quantile sketch with relative-error
 * guarantees", VLDB 2019. Values at or below $v_{min}$ (including 0) count in bucket 0 and report as 0; values above
 * the range count in the last bucket. The mean is exact (a running sum). Not thread-safe.
 */
public final class LogHistogram {
    /** Smallest distinguished value: 1 ns. */
    public static final double MIN_VALUE = 1e-9;
    private final double alpha;
    private final double gamma;
    private final double logGamma;
    private final long[] counts;
    private long count;
    private double sum;
    private double max;

    /** A histogram of relative accuracy {@code alpha} over $[10^{-9}, 10^{9}]$. */
    public LogHistogram(double alpha) {
        if (!(alpha > 0 && alpha < 0.5)) {
            throw new IllegalArgumentException("histogram relative accuracy (" + alpha + ") must be in (0, 0.5)");
        }
        this.alpha = alpha;
        this.gamma = (1 + alpha) / (1 - alpha);
        this.logGamma = Math.log(gamma);
        this.counts = new long[(int) Math.ceil(Math.log(1e18) / logGamma) + 2];
    }

    public LogHistogram() {
        this(0.005);
    }

    /** Records one value; NaN and negative values are rejected. */
    public void record(double v) {
        if (!(v >= 0)) {
            throw new IllegalArgumentException("histogram value (" + v + ") must be >= 0");
        }
        counts[bucket(v)]++;
        count++;
        sum += v;
        max = Math.max(max, v);
    }

    private int bucket(double v) {
        if (v <= MIN_VALUE) {
            return 0;
        }
        int i = (int) Math.ceil(Math.log(v / MIN_VALUE) / logGamma);
        return Math.min(Math.max(i, 1), counts.length - 1);
    }

    private double representative(int i) {
        return i == 0 ? 0 : 2 * Math.pow(gamma, i) * MIN_VALUE / (gamma + 1);
    }

    public long count() {
        return count;
    }

    /** Exact mean; NaN when empty. */
    public double mean() {
        return count == 0 ? Double.NaN : sum / count;
    }

    public double max() {
        return max;
    }

    public double relativeAccuracy() {
        return alpha;
    }

    /** The {@code q}-quantile ({@code 0 <= q <= 1}) within relative error {@code alpha}; NaN when empty. */
    public double quantile(double q) {
        if (!(q >= 0 && q <= 1)) {
            throw new IllegalArgumentException("quantile (" + q + ") must be in [0, 1]");
        }
        if (count == 0) {
            return Double.NaN;
        }
        long rank = (long) Math.ceil(q * count);
        rank = Math.max(rank, 1);
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Math.min(representative(i), max);
            }
        }
        return max;
    }

    /** The empirical CDF as (value, fraction at or below) points, one per non-empty bucket. */
    public List<double[]> cdf() {
        List<double[]> points = new ArrayList<>();
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                seen += counts[i];
                points.add(new double[] {Math.min(representative(i), max), (double) seen / count});
            }
        }
        return points;
    }

    /** Adds another histogram of the same accuracy into this one. */
    public void merge(LogHistogram other) {
        if (other.alpha != alpha) {
            throw new IllegalArgumentException("cannot merge histograms of accuracy " + alpha + " and " + other.alpha);
        }
        for (int i = 0; i < counts.length; i++) {
            counts[i] += other.counts[i];
        }
        count += other.count;
        sum += other.sum;
        max = Math.max(max, other.max);
    }

    @Override
    public String toString() {
        return "LogHistogram[count=" + count + ", mean=" + mean() + ", p99=" + quantile(0.99) + ", buckets=" + Arrays.stream(counts).filter(c -> c > 0).count() + "]";
    }
}
