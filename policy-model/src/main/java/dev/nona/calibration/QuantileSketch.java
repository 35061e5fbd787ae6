package dev.nona.calibration;

import dev.nona.check.Checks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A mergeable quantile sketch with a relative-error guarantee, for observed job completion times.
 *
 * <p>Based on C. Masson, J. E. Rim and H. K. Lee, "DDSketch: A Fast and Fully-Mergeable Quantile Sketch with
 * Relative-Error Guarantees", PVLDB 12(12), 2019 (<a href="https://arxiv.org/abs/1908.10693">arXiv:1908.10693</a>).
 * A value $x > 0$ goes to bucket $i = \lceil \log_\gamma x \rceil$ with $\gamma = (1+\alpha)/(1-\alpha)$; the
 * $q$-quantile is the bucket holding the value of nearest rank $\lceil qn \rceil$ (1-based: the least value that
 * at least a fraction $q$ of the values do not exceed), returned as $2\gamma^i/(\gamma+1)$, which is within a
 * factor $1 \pm \alpha$ of that value (the paper's Proposition 3, with the nearest-rank definition in place of
 * the paper's $\lfloor 1 + q(n-1) \rfloor$, so that the p99 of three values is the largest).
 * Values below {@link #MIN_VALUE} count as zero. Two sketches with the same $\alpha$ merge by adding bucket
 * counts, and the merge is exactly the sketch of the union: a window's per-model sketches give the p99 over all
 * models. At most {@code maxBuckets} buckets are kept: past that the lowest buckets are collapsed into one (the
 * paper's collapsing variant), which only affects low quantiles. With $\alpha = 1\%$ a range of $10^{-6}$ to
 * $10^{6}$ seconds needs about 1,400 buckets.
 *
 * <p>Chosen over a bounded random sample because a sample's p99 has a rank error that depends on the sample size
 * and on a random seed, and samples do not merge into the sample of a union; the sketch is deterministic and its
 * memory does not grow with the count. $O(\log b)$ per value for $b$ buckets. Not thread safe.
 */
public final class QuantileSketch {
    /** Values below this (seconds) count as zero. */
    public static final double MIN_VALUE = 1.0e-9;
    /** The default relative accuracy $\alpha$. */
    public static final double DEFAULT_RELATIVE_ACCURACY = 0.01;
    /** The default bound on buckets. */
    public static final int DEFAULT_MAX_BUCKETS = 2048;

    /**
     * The sketch's contents, to checkpoint and restore it.
     *
     * @param relativeAccuracy $\alpha$, in (0, 1)
     * @param maxBuckets       most buckets kept, {@code >= 1}
     * @param zeroCount        values below {@link #MIN_VALUE}, {@code >= 0}
     * @param buckets          count per bucket index, counts {@code > 0} (copied)
     * @param unit             the unit of the bucket grid (see {@link QuantileSketch#QuantileSketch(double, int, double)}); 0 in
     *                         states written before it existed, read as 1
     */
    public record State(double relativeAccuracy, int maxBuckets, long zeroCount, Map<Integer, Long> buckets,
            double unit) {
        public State {
            buckets = Map.copyOf(buckets);
            unit = unit == 0 ? 1.0 : unit;
        }
    }

    private final double alpha;
    private final double gamma;
    private final double logGamma;
    private final int maxBuckets;
    private final double unit;
    private final TreeMap<Integer, Long> buckets = new TreeMap<>();
    private long zeroCount;
    private long count;

    /** A sketch with {@link #DEFAULT_RELATIVE_ACCURACY} and {@link #DEFAULT_MAX_BUCKETS}. */
    public QuantileSketch() {
        this(DEFAULT_RELATIVE_ACCURACY, DEFAULT_MAX_BUCKETS);
    }

    /**
     * @param relativeAccuracy $\alpha$, in (0, 1)
     * @param maxBuckets       most buckets kept, {@code >= 1}
     */
    public QuantileSketch(double relativeAccuracy, int maxBuckets) {
        this(relativeAccuracy, maxBuckets, 1.0);
    }

    /**
     * A sketch whose bucket grid is laid from {@code unit}: bucket $i$ holds $(\gamma^{i-1}, \gamma^i] \cdot unit$
     * (the simulator's histograms use 1 ns, and their committed figures were computed on that grid).
     *
     * @param relativeAccuracy $\alpha$, in (0, 1)
     * @param maxBuckets       most buckets kept, {@code >= 1}
     * @param unit             {@code > 0}
     */
    public QuantileSketch(double relativeAccuracy, int maxBuckets, double unit) {
        Checks.positive(unit, "unit");
        this.unit = unit;
        if (!(relativeAccuracy > 0 && relativeAccuracy < 1)) {
            throw new IllegalArgumentException("relative accuracy (" + relativeAccuracy + ") must be in (0, 1)");
        }
        if (maxBuckets < 1) {
            throw new IllegalArgumentException("max buckets (" + maxBuckets + ") must be >= 1");
        }
        this.alpha = relativeAccuracy;
        this.gamma = (1 + relativeAccuracy) / (1 - relativeAccuracy);
        this.logGamma = Math.log(gamma);
        this.maxBuckets = maxBuckets;
    }

    /** A sketch holding {@code state}. */
    public static QuantileSketch restore(State state) {
        QuantileSketch sketch = new QuantileSketch(state.relativeAccuracy(), state.maxBuckets(), state.unit());
        if (state.zeroCount() < 0) {
            throw new IllegalArgumentException("zero count (" + state.zeroCount() + ") must be >= 0");
        }
        sketch.zeroCount = state.zeroCount();
        sketch.count = state.zeroCount();
        for (Map.Entry<Integer, Long> b : state.buckets().entrySet()) {
            if (!(b.getValue() > 0)) {
                throw new IllegalArgumentException("bucket " + b.getKey() + " count (" + b.getValue() + ") must be > 0");
            }
            sketch.buckets.put(b.getKey(), b.getValue());
            sketch.count += b.getValue();
        }
        return sketch;
    }

    public State state() {
        return new State(alpha, maxBuckets, zeroCount, buckets, unit);
    }

    /** Adds {@code value}, finite and {@code >= 0} (NaN and negative values are errors). */
    public void add(double value) {
        Checks.nonNegative(value, "value");
        count++;
        if (value < MIN_VALUE) {
            zeroCount++;
            return;
        }
        buckets.merge((int) Math.ceil(Math.log(value / unit) / logGamma), 1L, Long::sum);
        collapse();
    }

    /** Adds every value of {@code other}, which must have the same relative accuracy. */
    public void merge(QuantileSketch other) {
        if (other.alpha != alpha || other.unit != unit) {
            throw new IllegalArgumentException("relative accuracy (" + other.alpha + ") and unit (" + other.unit
                    + ") must be this sketch's (" + alpha + ", " + unit + ") to merge");
        }
        other.buckets.forEach((i, c) -> buckets.merge(i, c, Long::sum));
        zeroCount += other.zeroCount;
        count += other.count;
        collapse();
    }

    /** How many values were added. */
    public long count() {
        return count;
    }

    /**
     * The $q$-quantile, within a factor $1 \pm \alpha$ of the value of nearest rank $\lceil qn \rceil$ (0 when
     * that value counted as zero); NaN when the sketch is empty.
     *
     * @param q in [0, 1]
     */
    public double quantile(double q) {
        if (!(q >= 0 && q <= 1)) {
            throw new IllegalArgumentException("quantile (" + q + ") must be in [0, 1]");
        }
        if (count == 0) {
            return Double.NaN;
        }
        long rank = NearestRank.index(count, q); // 0-based
        if (rank < zeroCount) {
            return 0.0;
        }
        long seen = zeroCount;
        for (Map.Entry<Integer, Long> b : buckets.entrySet()) {
            seen += b.getValue();
            if (seen > rank) {
                return 2 * Math.pow(gamma, b.getKey()) * unit / (gamma + 1);
            }
        }
        throw new IllegalStateException("BUG: rank " + rank + " beyond the count " + count);
    }

    /**
     * The empirical CDF: one point per non-empty bucket (zero first, when values counted as zero), as
     * {value, fraction of the values at or below it}, the value being the bucket's representative
     * $2\gamma^i/(\gamma+1)$; empty when the sketch is.
     */
    public List<double[]> cdf() {
        List<double[]> points = new ArrayList<>();
        long seen = zeroCount;
        if (zeroCount > 0) {
            points.add(new double[] {0.0, (double) seen / count});
        }
        for (Map.Entry<Integer, Long> b : buckets.entrySet()) {
            seen += b.getValue();
            points.add(new double[] {2 * Math.pow(gamma, b.getKey()) * unit / (gamma + 1), (double) seen / count});
        }
        return points;
    }

    /** The relative accuracy $\alpha$. */
    public double relativeAccuracy() {
        return alpha;
    }

    private void collapse() {
        while (buckets.size() > maxBuckets) {
            Map.Entry<Integer, Long> lowest = buckets.pollFirstEntry();
            buckets.merge(buckets.firstKey(), lowest.getValue(), Long::sum);
        }
    }
}
