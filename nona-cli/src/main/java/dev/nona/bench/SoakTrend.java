package dev.nona.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * The trend of one per-minute series of the soak benchmark (heap after GC, checkpoint size, p99): the least-squares
 * slope of value over minute, and the growth it amounts to over the run relative to the first minutes' level,
 * $g = b \cdot (m_{last} - m_{first}) / \bar{y}_{first}$ with $b$ the slope, $m$ the minutes fitted and
 * $\bar{y}_{first}$ the mean of the first {@link #FIRST_LEVEL_MINUTES} values fitted. The goal: $g \le$
 * {@link #GOAL} for every series. Non-finite values (a minute without a figure) are left out of the fit.
 *
 * <p>How well the minutes pin $g$ down: the half-width of its 95% confidence interval under the least-squares
 * model, $t_{0.975,\,n-2} \cdot \mathrm{SE}(b) \cdot (m_{last} - m_{first}) / \bar{y}_{first}$ with
 * $\mathrm{SE}(b) = \sqrt{\sum_i r_i^2 / ((n-2) \sum_i (m_i - \bar{m})^2)}$ and $r_i$ the residuals. A per-minute p99
 * that moves with the machine's load by tens of percent from minute to minute gives a margin wider than the
 * goal: its growth is then neither shown within the goal nor shown beyond it by that run.
 *
 * @param minutes        the minutes fitted (those after the warm-up with a finite value)
 * @param slopePerMinute $b$, in the series' unit per minute; NaN with fewer than two minutes
 * @param firstLevel     $\bar{y}_{first}$; NaN with no minute
 * @param growth         $g$, a fraction (0.05 is 5%); NaN when the slope is, or the first level is not positive
 * @param growthMargin   the half-width of $g$'s 95% confidence interval (class comment); NaN with fewer than three
 *                       minutes, or when $g$ is NaN
 */
record SoakTrend(int minutes, double slopePerMinute, double firstLevel, double growth, double growthMargin) {
    /** The most a series may grow over the run. */
    static final double GOAL = 0.05;
    /** How many of the first minutes fitted make the level that growth is relative to. */
    static final int FIRST_LEVEL_MINUTES = 3;

    /** The trend of {@code values} (one per minute, minute {@code i} at index {@code i}) from minute {@code from}. */
    static SoakTrend of(double[] values, int from) {
        List<double[]> points = new ArrayList<>();
        for (int i = Math.max(0, from); i < values.length; i++) {
            if (Double.isFinite(values[i])) {
                points.add(new double[] {i, values[i]});
            }
        }
        int n = points.size();
        double level = Double.NaN;
        if (n > 0) {
            int k = Math.min(FIRST_LEVEL_MINUTES, n);
            double sum = 0;
            for (int i = 0; i < k; i++) {
                sum += points.get(i)[1];
            }
            level = sum / k;
        }
        if (n < 2) {
            return new SoakTrend(n, Double.NaN, level, Double.NaN, Double.NaN);
        }
        SimpleRegression fit = new SimpleRegression();
        for (double[] p : points) {
            fit.addData(p[0], p[1]);
        }
        double slope = fit.getSlope();
        double span = points.get(n - 1)[0] - points.get(0)[0];
        double growth = level > 0 ? slope * span / level : Double.NaN;
        // Student's t at 95% times SE(b); NaN with fewer than three points
        double margin = Double.isNaN(growth) ? Double.NaN : fit.getSlopeConfidenceInterval() * span / level;
        return new SoakTrend(n, slope, level, growth, margin);
    }

    /** Whether the series grew no more than {@link #GOAL}; null when its growth is unknown. */
    Boolean withinGoal() {
        return Double.isNaN(growth) ? null : growth <= GOAL;
    }

    /** As the benchmark's JSON prints it (unknown figures as null). */
    Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("minutesFitted", minutes);
        m.put("slopePerMinute", finite(slopePerMinute, 1e4));
        m.put("firstLevel", finite(firstLevel, 1e2));
        m.put("growthOverRun", finite(growth, 1e4));
        m.put("growthMargin95", finite(growthMargin, 1e4));
        m.put("withinGoal", withinGoal());
        return m;
    }

    private static Double finite(double x, double scale) {
        return Double.isFinite(x) ? Math.round(x * scale) / scale : null;
    }
}
