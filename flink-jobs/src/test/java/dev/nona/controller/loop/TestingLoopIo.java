package dev.nona.controller.loop;

import dev.nona.controller.optimize.ControllerTable;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.DeadLetter;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** A {@link LoopIo} with clocks set by the test, recording what the loop's parts output and the timers they set. */
final class TestingLoopIo implements LoopIo {
    long now;
    long watermark = Long.MIN_VALUE;
    final TreeSet<Long> processingTimers = new TreeSet<>();
    final TreeSet<Long> eventTimers = new TreeSet<>();
    final List<ControllerTable> tables = new ArrayList<>();
    final List<ControllerEvent> events = new ArrayList<>();
    final List<DeadLetter> deadLetters = new ArrayList<>();

    @Override
    public long now() {
        return now;
    }

    @Override
    public long watermark() {
        return watermark;
    }

    @Override
    public void processingTimer(long time) {
        processingTimers.add(time);
    }

    @Override
    public void eventTimer(long time) {
        eventTimers.add(time);
    }

    @Override
    public void publish(ControllerTable table) {
        tables.add(table);
    }

    @Override
    public void event(ControllerEvent event) {
        events.add(event);
    }

    @Override
    public void deadLetter(DeadLetter rejected) {
        deadLetters.add(rejected);
    }

    List<ControllerEvent> events(ControllerEventType type) {
        return events.stream().filter(e -> e.type() == type).toList();
    }
}
