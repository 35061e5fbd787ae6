package dev.nona.controller.drift;

import dev.nona.controller.ControllerConfig.DriftSettings;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Decides when estimated arrival rates (or the cluster) have drifted far enough from what the current table
 * was solved for to re-optimise (DESIGN.md §5). A model drifts in a window when
 * $|\beta - \beta_0| / \max(\beta_0, \beta_{min}) > \text{threshold}$, with $\beta_0$ its rate at the last
 * re-optimisation (a model absent from either side counts as rate 0). Re-optimisation triggers when some model
 * has drifted for {@code windows} consecutive windows, or a cluster change is pending; triggers are debounced:
 * none within {@code debounce} of event time after the previous one (a drift or change that outlasts the
 * debounce still triggers once it has passed).
 *
 * <p>Pure and deterministic: state goes in and comes out ({@link DriftState}), so the operator can checkpoint
 * it. $O(\text{models})$ per window. Thread safe (immutable).
 */
public final class DriftDetector implements Serializable {
    private static final long serialVersionUID = 1L;

    private final DriftSettings settings;

    public DriftDetector(DriftSettings settings) {
        this.settings = Objects.requireNonNull(settings, "drift settings");
    }

    /** The state after one window, and the trigger if the window triggers re-optimisation. */
    public record Evaluation(DriftState next, Optional<DriftTrigger> trigger) {}

    /**
     * Evaluates one closed window.
     *
     * @param state     the state after the previous window
     * @param windowEnd the window's end, event time ms
     * @param rates     requests/s per model in this window; missing models count as 0
     */
    public Evaluation evaluate(DriftState state, long windowEnd, Map<String, Double> rates) {
        Set<String> models = new TreeSet<>(state.baseline().keySet());
        models.addAll(rates.keySet());
        Map<String, Integer> streaks = new TreeMap<>();
        Map<String, Double> change = new TreeMap<>();
        boolean sustained = false;
        for (String model : models) {
            double now = rates.getOrDefault(model, 0.0);
            double base = state.baseline().getOrDefault(model, 0.0);
            double relative = relativeChange(base, now);
            if (relative > settings.threshold()) {
                int streak = state.streaks().getOrDefault(model, 0) + 1;
                streaks.put(model, streak);
                change.put(model, relative);
                sustained |= streak >= settings.windows();
            }
        }
        boolean due = sustained || state.pendingCause() != null;
        boolean debounced = state.lastTrigger() != Long.MIN_VALUE
                && windowEnd - state.lastTrigger() < settings.debounce().toMillis();
        if (!due || debounced) {
            return new Evaluation(new DriftState(state.baseline(), streaks, state.lastTrigger(), state.pendingCause()),
                    Optional.empty());
        }
        String cause = state.pendingCause() != null ? state.pendingCause() : "rate";
        return new Evaluation(rebased(rates, windowEnd), Optional.of(new DriftTrigger(windowEnd, cause, rates, change)));
    }

    /** The state right after a re-optimisation for {@code rates} at {@code time} (the new baseline). */
    public DriftState rebased(Map<String, Double> rates, long time) {
        return new DriftState(new HashMap<>(rates), Map.of(), time, null);
    }

    /** $|\beta - \beta_0| / \max(\beta_0, \beta_{min})$; NaN-free for finite non-negative rates. */
    double relativeChange(double base, double now) {
        return Math.abs(now - base) / Math.max(base, settings.minRate());
    }
}
