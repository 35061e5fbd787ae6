package dev.nona.sim.engine;

/**
 * The servers' state: each runs one task at a time and queues the others FIFO. Items are opaque {@code long}s
 * (the simulator packs job slot and task). Tracks queue lengths and queued work for policies that read live state.
 */
final class Servers {
    private final boolean[] busy;
    private final long[] running;
    private final double[] runningEnd;
    private final LongRing[] queue;
    private final double[] queuedWork;
    private final int[] queueLength;

    Servers(int n) {
        busy = new boolean[n];
        running = new long[n];
        runningEnd = new double[n];
        queue = new LongRing[n];
        for (int s = 0; s < n; s++) {
            queue[s] = new LongRing();
        }
        queuedWork = new double[n];
        queueLength = new int[n];
    }

    boolean busy(int s) {
        return busy[s];
    }

    /** Queues {@code item} behind the running task; {@code work} is its expected service time. */
    void enqueue(int s, long item, double work) {
        queue[s].add(item, work);
        queuedWork[s] += work;
        queueLength[s]++;
    }

    /** Starts {@code item} on idle server {@code s}, ending at {@code end}. */
    void start(int s, long item, double end) {
        busy[s] = true;
        running[s] = item;
        runningEnd[s] = end;
        queueLength[s]++;
    }

    /** Ends the running task and returns it. */
    long finish(int s) {
        busy[s] = false;
        queueLength[s]--;
        return running[s];
    }

    boolean hasQueued(int s) {
        return !queue[s].isEmpty();
    }

    /** Removes the head of the queue (the caller starts it). */
    long pollQueued(int s) {
        queuedWork[s] -= queue[s].peekTag();
        long next = queue[s].poll();
        queueLength[s]--;
        if (queue[s].isEmpty()) {
            queuedWork[s] = 0; // no drift from floating-point sums
        }
        return next;
    }

    int queueLength(int s) {
        return queueLength[s];
    }

    double queuedWorkSeconds(int s, double now) {
        return queuedWork[s] + (busy[s] ? Math.max(0, runningEnd[s] - now) : 0);
    }
}
