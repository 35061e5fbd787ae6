package dev.nona.controller.outcome;

import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.PlacementOutcome;

/**
 * A record read from {@code placement-outcomes}: the outcome it carries, or the dead letter it became.
 *
 * @param outcome  the outcome, or {@code null} when rejected
 * @param rejected the dead letter, or {@code null}
 */
public record OutcomeRecord(PlacementOutcome outcome, DeadLetter rejected) {
    public OutcomeRecord {
        if ((outcome == null) == (rejected == null)) {
            throw new IllegalArgumentException("BUG: an outcome record holds exactly one of outcome and rejected");
        }
    }
}
