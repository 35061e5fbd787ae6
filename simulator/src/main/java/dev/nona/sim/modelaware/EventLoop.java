package dev.nona.sim.modelaware;

import java.util.PriorityQueue;

/** A discrete-event clock: actions run in time order, ties in scheduling order. Not thread-safe. */
final class EventLoop {
    private record Event(double time, long seq, Runnable action) {}

    private final PriorityQueue<Event> queue = new PriorityQueue<>((a, b) -> a.time != b.time
            ? Double.compare(a.time, b.time) : Long.compare(a.seq, b.seq));
    private double now;
    private long seq;
    private long processed;

    double now() {
        return now;
    }

    long processed() {
        return processed;
    }

    void after(double delay, Runnable action) {
        if (!(delay >= 0)) {
            throw new IllegalStateException("BUG: negative delay " + delay);
        }
        queue.add(new Event(now + delay, seq++, action));
    }

    void run() {
        Event e;
        while ((e = queue.poll()) != null) {
            now = e.time;
            processed++;
            e.action.run();
        }
    }
}
