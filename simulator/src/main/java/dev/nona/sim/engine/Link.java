package dev.nona.sim.engine;

/**
 * The bottleneck link's state: one transfer at a time, the others FIFO with their enqueue times. Items are opaque
 * {@code long}s. Accumulates busy time for the utilisation.
 */
final class Link {
    private final LongRing queue = new LongRing();
    private boolean busy;
    private long running;
    private double runningEnd;
    private double busySeconds;

    boolean busy() {
        return busy;
    }

    void enqueue(long item, double now) {
        queue.add(item, now);
    }

    /** Starts {@code item} on the idle link for {@code service} seconds. */
    void start(long item, double now, double service) {
        busy = true;
        running = item;
        runningEnd = now + service;
        busySeconds += service;
    }

    /** Ends the running transfer and returns it. */
    long finish() {
        busy = false;
        return running;
    }

    boolean hasQueued() {
        return !queue.isEmpty();
    }

    double peekEnqueuedAt() {
        return queue.peekTag();
    }

    long pollQueued() {
        return queue.poll();
    }

    int queueLength() {
        return queue.size() + (busy ? 1 : 0);
    }

    /** Seconds the link has been busy up to {@code now}. */
    double busySeconds(double now) {
        return busySeconds - (busy ? Math.max(0, runningEnd - now) : 0);
    }
}
