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

/**
 * Decides when estimated arrival rates (or the cluster, or the catalog) have drifted far enough from what the
 * current table was solved for to re-optimise (DESIGN.md §5).
 *
 * <p>A model drifts in a window when its change is both <b>large</b> and <b>significant</b>:
 * <ul>
 *   <li>large: $|\beta - \beta_0| / \max(\beta_0, \beta_{min}) > \text{threshold}$, with $\beta$ the window's rate
 *       and $\beta_0$ the rate at the last re-optimisation, estimated from the requests of that window and of every
 *       later window in which the model did not drift ($k_0$ requests over $T_0$ seconds, $\beta_0 = k_0/T_0$);</li>
 *   <li>significant: the exact conditional test of two Poisson counts ({@link RateTest}) rejects "same rate" for
 *       the window's $k$ requests over $T$ seconds against $k_0$ over $T_0$ at level {@code significance}.</li>
 * </ul>
 * The relative threshold alone re-solves on noise at low rates: a 10 s window at 1&ndash;2 requests/s holds 10&ndash;20
 * requests, whose Poisson count varies by &plusmn;22&ndash;32%. The test needs no normal approximation and counts the
 * baseline's own noise. At $\ge 20$ requests/s with 10 s windows, once the baseline has pooled about a minute,
 * a change past 25% is significant at the default level, so significance does not delay detection there; right
 * after a re-optimisation the baseline is one window and a change just past the threshold needs a few more
 * windows of baseline (at 20 requests/s: p = 0.018 for 251 requests against 200).
 *
 * <p>Re-optimisation triggers when some model has drifted for {@code windows} consecutive windows, or a cluster or
 * catalog change is pending; triggers are debounced: none within {@code debounce} of event time after the previous
 * one (a drift or change that outlasts the debounce still triggers once it has passed). A model absent from either
 * side counts as rate 0; only the models the caller names (the catalog) count.
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
        Map<String, Integer> streaks = new TreeMap<>();
        Map<String, Pool> pooled = new TreeMap<>();
        Map<String, Double> change = new TreeMap<>();
        boolean sustained = false;
        for (String model : models) {
            double now = rates.getOrDefault(model, 0.0);
            long k = Math.round(now * windowSeconds);
            Pool pool = state.pooled().getOrDefault(model,
                    new Pool(Math.round(state.baseline().getOrDefault(model, 0.0) * windowSeconds), windowSeconds));
            double relative = relativeChange(pool.rate(), now);
            if (relative > settings.threshold() && significant(pool, k)) {
                int streak = state.streaks().getOrDefault(model, 0) + 1;
                streaks.put(model, streak);
                pooled.put(model, pool);
                change.put(model, relative);
                sustained |= streak >= settings.windows();
            } else {
                pooled.put(model, pool.plus(k, windowSeconds));
            }
        }
        boolean due = sustained || state.pendingCause() != null;
        boolean debounced = state.lastTrigger() != Long.MIN_VALUE
                && windowEnd - state.lastTrigger() < settings.debounce().toMillis();
        if (!due || debounced) {
            Map<String, Double> baseline = new TreeMap<>(state.baseline());
            baseline.keySet().retainAll(models);
            return new Evaluation(new DriftState(baseline, pooled, streaks, state.lastTrigger(), state.pendingCause()),
                    Optional.empty());
        }
        String cause = state.pendingCause() != null ? state.pendingCause() : "rate";
        Map<String, Double> counted = new TreeMap<>(rates);
        counted.keySet().retainAll(models);
        return new Evaluation(rebased(counted, windowEnd), Optional.of(new DriftTrigger(windowEnd, cause, counted, change)));
    }

    /** The state right after a re-optimisation for {@code rates} at {@code time} (the new baseline). */
    public DriftState rebased(Map<String, Double> rates, long time) {
        Map<String, Pool> pooled = new HashMap<>();
        rates.forEach((m, r) -> pooled.put(m, new Pool(Math.round(r * windowSeconds), windowSeconds)));
        return new DriftState(new HashMap<>(rates), pooled, Map.of(), time, null);
    }

    /** $|\beta - \beta_0| / \max(\beta_0, \beta_{min})$; NaN-free for finite non-negative rates. */
    double relativeChange(double base, double now) {
        return Math.abs(now - base) / Math.max(base, settings.minRate());
    }

    /**
     * Whether $k$ requests in one window reject "same rate as the pool" at level {@code significance}: the exact
     * conditional test of two Poisson counts, $p = \min(1, 2\min(P[X \le k], P[X \ge k]))$,
     * $X \sim \mathrm{Binomial}(k_0 + k, T/(T_0 + T))$ ({@link RateTest}, Przyborowski &amp; Wilenski 1940), $p < \alpha$.
     */
    boolean significant(Pool pool, long k) {
        return RateTest.pValue(pool.count(), pool.seconds(), k, windowSeconds) < settings.significance();
    }
}
