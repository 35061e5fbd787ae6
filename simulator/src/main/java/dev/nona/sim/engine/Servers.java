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
    private final double[] runningStart;
    /** Expected seconds of work placed on each server and not yet finished, whether its inputs are in or not. */
    private final double[] assignedWork;
    private final int[] assignedTasks;
    private final int[] assignedJobs;
    /** Seconds each server spent running tasks (cold starts included), up to its last finished task. */
    private final double[] busySeconds;

    /**
     * The heap one server takes here: its queue (a {@link LongRing} of 16 longs and 16 doubles, with the headers
     * about 320 bytes) and its entries in the arrays (65 bytes), rounded up.
     */
    static final long BYTES_PER_SERVER = 400;

    Servers(int n) {
        HeapRoom.require(n * BYTES_PER_SERVER, "the simulated cluster's " + n + " servers");
        busy = new boolean[n];
        running = new long[n];
        runningEnd = new double[n];
        queue = new LongRing[n];
        for (int s = 0; s < n; s++) {
            queue[s] = new LongRing();
        }
        queuedWork = new double[n];
        queueLength = new int[n];
        runningStart = new double[n];
        assignedWork = new double[n];
        assignedTasks = new int[n];
        assignedJobs = new int[n];
        busySeconds = new double[n];
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
    void start(int s, long item, double now, double end) {
        busy[s] = true;
        runningStart[s] = now;
        running[s] = item;
        runningEnd[s] = end;
        queueLength[s]++;
    }

    /** Ends the running task at {@code now} and returns it. */
    long finish(int s, double now) {
        busySeconds[s] += now - runningStart[s];
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

    /** A task of expected {@code work} seconds is placed on {@code s} (it may wait for its inputs). */
    void assign(int s, double work) {
        assignedWork[s] += work;
        assignedTasks[s]++;
    }

    /** A job has its first task on {@code s} ({@code +1}) or its last one there finished ({@code -1}). */
    void jobs(int s, int delta) {
        assignedJobs[s] += delta;
    }

    int assignedJobs(int s) {
        return assignedJobs[s];
    }

    /** A task of expected {@code work} seconds placed on {@code s} finished. */
    void release(int s, double work) {
        if (--assignedTasks[s] == 0) {
            assignedWork[s] = 0; // no drift from floating-point sums
        } else {
            assignedWork[s] -= work;
        }
    }

    /** Seconds {@code s} has been busy up to {@code now}. */
    double busySeconds(int s, double now) {
        return busySeconds[s] + (busy[s] ? now - runningStart[s] : 0);
    }

    int queueLength(int s) {
        return queueLength[s];
    }

    double queuedWorkSeconds(int s, double now) {
        return queuedWork[s] + (busy[s] ? Math.max(0, runningEnd[s] - now) : 0);
    }

    /** Expected seconds of work placed on {@code s} and not done: the running task's rest, the queue, and tasks awaiting inputs. */
    double assignedWorkSeconds(int s, double now) {
        return Math.max(0, assignedWork[s] - (busy[s] ? now - runningStart[s] : 0));
    }
}
