package dev.nona.sim.modelaware;

import dev.nona.sim.engine.EventQueue;
import java.util.Arrays;

/**
 * A discrete-event clock: actions run in time order, ties in scheduling order. The clock is the main engine's
 * {@link EventQueue} (one event heap for both simulators); the actions wait in a slot table its payloads index.
 * Not thread-safe.
 */
final class EventLoop {
    private final EventQueue queue = new EventQueue();
    private Runnable[] actions = new Runnable[64];
    /** Free slots of {@link #actions}, a stack. */
    private int[] free = new int[64];
    private int freeCount;
    private int used;
    private double now;
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
        int slot;
        if (freeCount > 0) {
            slot = free[--freeCount];
        } else {
            if (used == actions.length) {
                actions = Arrays.copyOf(actions, 2 * used);
                free = Arrays.copyOf(free, 2 * used);
            }
            slot = used++;
        }
        actions[slot] = action;
        queue.push(now + delay, slot);
    }

    void run() {
        while (!queue.isEmpty()) {
            now = queue.peekTime();
            int slot = (int) queue.pop();
            Runnable action = actions[slot];
            actions[slot] = null;
            free[freeCount++] = slot;
            processed++;
            action.run();
        }
    }
}
