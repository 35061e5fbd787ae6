package dev.nona.controller.drift;

import dev.nona.controller.ControllerConfig.DriftSettings;
import dev.nona.controller.drift.DriftState.Pool;
import java.io.Serializable;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.commons.math3.distribution.PoissonDistribution;

/**
 * Decides when estimated arrival rates (or the cluster, or the catalog) have drifted far enough from what the
 * current table was solved for to re-optimise (docs/design.md, "Rates, drift and the control loop"). The threshold is the smallest change the detector
 * must catch; the decision is a test on the requests pooled over a streak of windows, not on one window's estimate.
 *
 * <p>Per model, $k_0$ requests over $T_0$ seconds are the <b>baseline</b>: the requests since the last
 * re-optimisation outside streaks ($\beta_0 = k_0/T_0$). A window's $k$ requests over $T$ are <b>drift-like</b>
 * when its estimate points one way ($d = \pm 1$) and they do not show the change to be smaller than the threshold
 * ({@link #atLeastThreshold}). A <b>streak</b> is the run of consecutive drift-like windows pointing the same way;
 * a window that is not drift-like, or points the other way, ends it and the streak's requests join the baseline.
 * A model <b>drifts</b> when its streak ($k_S$ requests over $T_S$, $n$ windows) has
 * <ol>
 *   <li>$n \ge$ {@code windows};</li>
 *   <li>significance: the exact conditional test of two Poisson counts ({@link RateTest#pValue}) rejects
 *       $\beta_S = \beta_0$ at level $\alpha^{w}$, $\alpha$ = {@code significance}, $w$ = {@code windows}: the
 *       false-alarm level of $w$ independent windows each at $\alpha$, but on their pooled count (for a sustained
 *       change the most powerful test);</li>
 *   <li>size: the pooled requests do not show the change to be smaller than the threshold either.</li>
 * </ol>
 * Measured (DriftStatisticsTest, the defaults, $\alpha^w = 10^{-6}$): with 30 s windows (the default) no re-solve
 * over stationary 10-minute streams of 20 models at 1&ndash;100 requests/s, seeds 1&ndash;200 (1 over 1,000); a
 * sustained change of exactly 25% against six windows of baseline is caught within 2 windows in 96&ndash;99% of
 * cases at 20&ndash;100 requests/s. With 10 s windows: the same stationary result (2 over 1,000), 94.6&ndash;98.8% at
 * 50&ndash;100 requests/s but only 15&ndash;34% at 20 (two windows hold about 500 requests against 400: too few to be
 * significant at the level the stationary streams need). A change a little below the threshold, which two windows
 * cannot tell from it, triggers too: +20% at 20 requests/s within 2 windows of 30 s in 77% of cases
 * (docs/controller.md, Drift).
 *
 * <p>Re-optimisation triggers when some model drifts, or a cluster or catalog change is pending; triggers are
 * debounced: none within {@code debounce} of event time after the previous one (a drift or change that outlasts the
 * debounce still triggers once it has passed). After a trigger a drifting model's streak becomes its baseline,
 * a model the last table was not solved for starts from this window, other models keep theirs. A model absent
 * from either side counts as rate 0; only the models the caller names (the catalog) count.
 *
 * <p>Pure and deterministic: state goes in and comes out ({@link DriftState}), so the operator can checkpoint
 * it. $O(\text{models})$ per window. Thread safe (immutable).
 */
public final class DriftDetector implements Serializable {
    private static final long serialVersionUID = 1L;

    private final DriftSettings settings;
    private final double windowSeconds;

    /** @param window the length of the rate windows (every window the detector sees has this length) */
    public DriftDetector(DriftSettings settings, Duration window) {
        this.settings = Objects.requireNonNull(settings, "drift settings");
        if (window.isZero() || window.isNegative()) {
            throw new IllegalArgumentException("rate window (" + window + ") must be > 0");
        }
        this.windowSeconds = window.toMillis() / 1000.0;
    }

    /** The state after one window, and the trigger if the window triggers re-optimisation. */
    public record Evaluation(DriftState next, Optional<DriftTrigger> trigger) {}

    /** {@link #evaluate(DriftState, long, Map, Set)} with every model of the baseline and of the window counting. */
    public Evaluation evaluate(DriftState state, long windowEnd, Map<String, Double> rates) {
        Set<String> models = new TreeSet<>(state.baseline().keySet());
        models.addAll(rates.keySet());
        return evaluate(state, windowEnd, rates, models);
    }

    /**
     * Evaluates one closed window.
     *
     * @param state     the state after the previous window
     * @param windowEnd the window's end, event time ms
     * @param rates     requests/s per model in this window; missing models count as 0
     * @param models    the models that count (the catalog); others are ignored, in the window and the baseline
     */
    public Evaluation evaluate(DriftState state, long windowEnd, Map<String, Double> rates, Set<String> models) {
        Map<String, Pool> pooled = new TreeMap<>();
        Map<String, Integer> streaks = new TreeMap<>();
        Map<String, Pool> streakPools = new TreeMap<>();
        Map<String, Double> change = new TreeMap<>();
        for (String model : models) {
            Pool base = state.pooled().getOrDefault(model,
                    new Pool(Math.round(state.baseline().getOrDefault(model, 0.0) * windowSeconds), windowSeconds));
            Pool streak = state.streakPools().get(model);
            int length = streak == null ? 0 : state.streaks().getOrDefault(model, 0);
            long k = Math.round(rates.getOrDefault(model, 0.0) * windowSeconds);
            int direction = direction(base, k, windowSeconds);
            if (length > 0 && direction != Integer.signum(Double.compare(streak.rate(), base.rate()))) {
                base = base.plus(streak); // the streak ends: it was not a drift
                length = 0;
                direction = direction(base, k, windowSeconds);
            }
            if (direction == 0) {
                pooled.put(model, base.plus(k, windowSeconds));
                continue;
            }
            streak = length == 0 ? new Pool(k, windowSeconds) : streak.plus(k, windowSeconds);
            pooled.put(model, base);
            streaks.put(model, length + 1);
            streakPools.put(model, streak);
            if (length + 1 >= settings.windows() && significant(base, streak)
                    && atLeastThreshold(base, streak.count(), streak.seconds(), direction)) {
                change.put(model, relativeChange(base.rate(), streak.rate()));
            }
        }
        boolean due = !change.isEmpty() || state.pendingCause() != null;
        boolean debounced = state.lastTrigger() != Long.MIN_VALUE
                && windowEnd - state.lastTrigger() < settings.debounce().toMillis();
        Map<String, Double> baseline = new TreeMap<>(state.baseline());
        baseline.keySet().retainAll(models);
        if (!due || debounced) {
            return new Evaluation(new DriftState(baseline, pooled, streaks, state.lastTrigger(), state.pendingCause(),
                    streakPools), Optional.empty());
        }
        String cause = state.pendingCause() != null ? state.pendingCause() : "rate";
        Map<String, Double> counted = new TreeMap<>(rates);
        counted.keySet().retainAll(models);
        for (String model : models) {
            if (change.containsKey(model)) { // its streak is its rate now
                pooled.put(model, streakPools.remove(model));
                streaks.remove(model);
            } else if (!state.baseline().containsKey(model)) { // no table was solved for it: this window is its start
                pooled.put(model, new Pool(Math.round(counted.getOrDefault(model, 0.0) * windowSeconds), windowSeconds));
                streaks.remove(model);
                streakPools.remove(model);
            }
        }
        baseline.putAll(counted);
        return new Evaluation(new DriftState(baseline, pooled, streaks, windowEnd, null, streakPools),
                Optional.of(new DriftTrigger(windowEnd, cause, counted, change)));
    }

    /** The state right after a re-optimisation for {@code rates} at {@code time} (the new baseline, one window). */
    public DriftState rebased(Map<String, Double> rates, long time) {
        Map<String, Pool> pooled = new HashMap<>();
        rates.forEach((m, r) -> pooled.put(m, new Pool(Math.round(r * windowSeconds), windowSeconds)));
        return new DriftState(new HashMap<>(rates), pooled, Map.of(), time, null, Map.of());
    }

    /** $|\beta - \beta_0| / \max(\beta_0, \beta_{min})$; NaN-free for finite non-negative rates. */
    double relativeChange(double base, double now) {
        return Math.abs(now - base) / Math.max(base, settings.minRate());
    }

    /**
     * The way $k$ requests over $t$ seconds point against the baseline, $+1$ or $-1$, when they are drift-like
     * (they do not show the change to be smaller than the threshold, {@link #atLeastThreshold}); else 0.
     */
    int direction(Pool base, long k, double t) {
        int d = Integer.signum(Double.compare(k / t, base.rate()));
        return d != 0 && atLeastThreshold(base, k, t, d) ? d : 0;
    }

    /**
     * Whether $k$ requests over $t$ seconds fail to reject "the change is at least the threshold" in direction $d$,
     * at level {@code thresholdSignificance}. The threshold as a rate ratio:
     * $\rho = 1 + d \cdot \text{threshold} \cdot \max(\beta_0, \beta_{min}) / \beta_0$, so that
     * $\beta = \rho\beta_0$ is exactly the relative change of {@link #relativeChange}; the one-sided exact test of
     * $\beta/\beta_0 \ge \rho$ ($d = +1$) or $\le \rho$ ($d = -1$) is {@link RateTest#pValueRatio} (the conditional
     * binomial C-test for a ratio of Poisson rates, Krishnamoorthy &amp; Thomson 2004). From $\beta_0 = 0$ the
     * threshold is the rate $\text{threshold} \cdot \beta_{min}$, tested exactly on $k$ alone:
     * $P[\mathrm{Poisson}(\text{threshold} \cdot \beta_{min} t) \le k]$. A fall the threshold cannot reach
     * ($\rho \le 0$) never is.
     */
    boolean atLeastThreshold(Pool base, long k, double t, int d) {
        double beta0 = base.rate();
        if (beta0 == 0) {
            return d > 0 && new PoissonDistribution(null, settings.threshold() * settings.minRate() * t,
                    PoissonDistribution.DEFAULT_EPSILON, PoissonDistribution.DEFAULT_MAX_ITERATIONS)
                    .cumulativeProbability((int) Math.min(k, Integer.MAX_VALUE)) >= settings.thresholdSignificance();
        }
        double rho = 1 + d * settings.threshold() * Math.max(beta0, settings.minRate()) / beta0;
        return rho > 0 && RateTest.pValueRatio(base.count(), base.seconds(), k, t, rho, d > 0)
                >= settings.thresholdSignificance();
    }

    /**
     * Whether the streak's requests reject "same rate as the baseline" at level $\alpha^w$
     * ({@link DriftSettings#pooledSignificance()}): the exact conditional test of two Poisson counts,
     * $p = \min(1, 2\min(P[X \le k_S], P[X \ge k_S]))$, $X \sim \mathrm{Binomial}(k_0 + k_S, T_S/(T_0 + T_S))$
     * ({@link RateTest}, Przyborowski &amp; Wilenski 1940), $p < \alpha^w$. Always true with {@code significance} 1.
     */
    boolean significant(Pool base, Pool streak) {
        return settings.significance() >= 1
                || RateTest.pValue(base.count(), base.seconds(), streak.count(), streak.seconds())
                        < settings.pooledSignificance();
    }
}
