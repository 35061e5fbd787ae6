package dev.nona.controller.drift;

import java.util.Map;
import java.util.TreeMap;

/**
 * What the drift detector remembers between windows (checkpointed): the rates of the last re-optimisation,
 * how many consecutive windows each model has been past the threshold, when it last triggered, and a pending
 * cluster change waiting out the debounce. Size: models, never requests.
 *
 * @param baseline     requests/s per model at the last re-optimisation (copied)
 * @param streaks      consecutive drifting windows per model, only models with a streak (copied)
 * @param lastTrigger  event time (ms) of the last trigger, or {@link Long#MIN_VALUE} if never
 * @param pendingCause a cluster change not yet acted on, or {@code null}
 */
public record DriftState(Map<String, Double> baseline, Map<String, Integer> streaks, long lastTrigger, String pendingCause) {
    public DriftState {
        baseline = new TreeMap<>(baseline);
        streaks = new TreeMap<>(streaks);
    }

    /** Before the first re-optimisation. */
    public static DriftState initial() {
        return new DriftState(Map.of(), Map.of(), Long.MIN_VALUE, null);
    }

    /** The same state with a cluster change waiting to be acted on. */
    public DriftState withPendingCause(String cause) {
        return new DriftState(baseline, streaks, lastTrigger, cause);
    }
}
