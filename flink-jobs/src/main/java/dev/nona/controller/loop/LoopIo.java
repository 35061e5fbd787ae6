package dev.nona.controller.loop;

import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.DeadLetter;
import dev.nona.controller.optimize.ControllerTable;
import java.util.Map;

/**
 * What the control loop's parts see of the operator they run in: its clocks, its timers and its outputs. The
 * {@link ControlLoopFunction} binds it to Flink's context for each input or timer; tests record into a plain one.
 */
interface LoopIo {
    /** Processing time, epoch ms. */
    long now();

    /** The current event-time watermark. */
    long watermark();

    /** A processing-time timer at {@code time} (the operator's {@code onTimer} runs then). */
    void processingTimer(long time);

    /** An event-time timer at {@code time}. */
    void eventTimer(long time);

    /** A table to publish (the main output). */
    void publish(ControllerTable table);

    /** An event for {@link ControlLoopFunction#EVENTS}. */
    void event(ControllerEvent event);

    /** An event of {@code type} at {@link #now()}. */
    default void event(ControllerEventType type, Map<String, ?> details) {
        event(ControllerEvent.of(type, now(), details));
    }

    /** An operator command that cannot be applied, for {@link ControlLoopFunction#COMMAND_DEAD_LETTERS}. */
    void deadLetter(DeadLetter rejected);
}
