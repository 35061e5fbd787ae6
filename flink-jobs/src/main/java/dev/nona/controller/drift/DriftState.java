package dev.nona.controller.drift;

import java.util.Map;
import java.util.TreeMap;

/**
 * What the drift detector remembers between windows (checkpointed): the rates of the last re-optimisation, the
 * requests counted since then in windows that were not part of a streak (the pooled baseline of the tests), the
 * current streak of each model (consecutive windows whose change points the same way and may be at least the
 * threshold) with its pooled requests, when it last triggered, and a cluster or catalog change waiting out the
 * debounce. Size: models, never requests.
 *
 * @param baseline     requests/s per model at the last re-optimisation, the rates the table is for (copied)
 * @param pooled       per model, the requests and seconds pooled since the last re-optimisation outside streaks
 *                     (copied; a model missing here has only its baseline window)
 * @param streaks      windows in the current streak per model, only models with a streak (copied)
 * @param lastTrigger  event time (ms) of the last trigger, or {@link Long#MIN_VALUE} if never
 * @param pendingCause a cluster or catalog change not yet acted on, or {@code null}
 * @param streakPools  per model with a streak, the requests and seconds of its windows (copied; {@code null} is
 *                     empty, as in state written before streaks were pooled)
 */
public record DriftState(Map<String, Double> baseline, Map<String, Pool> pooled, Map<String, Integer> streaks,
        long lastTrigger, String pendingCause, Map<String, Pool> streakPools) {
    /**
     * Requests counted over some seconds: one side of a test.
     *
     * @param count   requests, {@code >= 0}
     * @param seconds exposure, {@code >= 0}
     */
    public record Pool(long count, double seconds) {
        public Pool {
            if (count < 0 || !(seconds >= 0)) {
                throw new IllegalArgumentException("pool (" + count + " requests over " + seconds + " s) must be >= 0");
            }
        }

        Pool plus(long k, double t) {
            return new Pool(count + k, seconds + t);
        }

        Pool plus(Pool other) {
            return plus(other.count, other.seconds);
        }

        /** Requests/s, or 0 with no exposure. */
        double rate() {
            return seconds == 0 ? 0 : count / seconds;
        }
    }

    public DriftState {
        baseline = new TreeMap<>(baseline);
        pooled = new TreeMap<>(pooled == null ? Map.of() : pooled);
        streaks = new TreeMap<>(streaks);
        streakPools = new TreeMap<>(streakPools == null ? Map.of() : streakPools);
    }

    /** Before the first re-optimisation. */
    public static DriftState initial() {
        return new DriftState(Map.of(), Map.of(), Map.of(), Long.MIN_VALUE, null, Map.of());
    }

    /** The same state with a cluster or catalog change waiting to be acted on. */
    public DriftState withPendingCause(String cause) {
        return new DriftState(baseline, pooled, streaks, lastTrigger, cause, streakPools);
    }
}
