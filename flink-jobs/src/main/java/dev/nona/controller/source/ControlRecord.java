package dev.nona.controller.source;

import dev.nona.controller.loop.ControlInput;
import dev.nona.topics.record.DeadLetter;

/**
 * A record read from {@code cluster-telemetry} or {@code model-catalog}: the control input it carries, or the
 * dead letter it became.
 *
 * @param input    the input, or {@code null} when rejected
 * @param rejected the dead letter, or {@code null}
 * @param time     event time: the telemetry's event time; 0 for catalog records and rejected ones
 */
public record ControlRecord(ControlInput input, DeadLetter rejected, long time) {
    public ControlRecord {
        if ((input == null) == (rejected == null)) {
            throw new IllegalArgumentException("BUG: a control record holds exactly one of input and rejected");
        }
    }
}
