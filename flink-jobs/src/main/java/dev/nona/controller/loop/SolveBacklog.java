package dev.nona.controller.loop;

import java.util.Map;
import java.util.TreeMap;

/**
 * A trigger (drift, cluster change, catalog change, the first table) that no finished solve has answered yet
 * (checkpointed). It is consumed only when a solve started for it, or for a later merge of it, finishes with a
 * verdict (published or rejected); a failed or timed-out solve leaves it here with the next attempt's time. Triggers
 * arriving meanwhile merge into it: their causes are joined and the newest rates win.
 *
 * @param cause      why (joined causes, bounded to {@link Causes#MAX_CHARS})
 * @param rates      requests/s per model to solve for (copied)
 * @param generation bumped by every merge, so a finished solve knows whether a newer trigger arrived meanwhile
 * @param attempts   failed or timed-out attempts so far
 * @param retryAt    processing time (ms) before which no new attempt starts, or {@link Long#MIN_VALUE}
 */
public record SolveBacklog(String cause, Map<String, Double> rates, long generation, int attempts, long retryAt) {
    public SolveBacklog {
        if (cause == null || cause.isBlank()) {
            throw new IllegalArgumentException("BUG: a solve backlog needs a cause, not '" + cause + "'");
        }
        rates = new TreeMap<>(rates);
    }

    static SolveBacklog of(String cause, Map<String, Double> rates) {
        return new SolveBacklog(cause, rates, 1, 0, Long.MIN_VALUE);
    }

    /** This trigger with a newer one merged in (its rates win; the attempts and backoff stay). */
    SolveBacklog merge(String newCause, Map<String, Double> newRates) {
        return new SolveBacklog(Causes.append(cause, newCause), newRates, generation + 1, attempts, retryAt);
    }

    /** After a failed or timed-out attempt at {@code now}: the next one waits {@code delayMillis}. */
    SolveBacklog failed(long now, long delayMillis) {
        return new SolveBacklog(cause, rates, generation, attempts + 1, now + delayMillis);
    }

    /**
     * After a solve for {@code answeredCause} (an older generation) finished: a fresh trigger for what arrived since,
     * with only the causes merged after it.
     */
    SolveBacklog answered(String answeredCause) {
        String rest = cause.startsWith(answeredCause + "; ") ? cause.substring(answeredCause.length() + 2) : cause;
        return new SolveBacklog(rest, rates, generation, 0, Long.MIN_VALUE);
    }
}
