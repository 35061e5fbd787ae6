package dev.nona.sim.engine;

import java.util.Arrays;

/**
 * The jobs in flight, in slots that are recycled when a job completes: memory grows with the number of jobs in
 * the system at once, never with the number simulated. Per-task state (inputs still missing, assigned server, the job's tasks left on that server)
 * lives in flat arrays of {@code maxTasks} entries per slot.
 */
final class JobTable {
    private final int maxTasks;
    int[] jobClass = new int[64];
    double[] arrival = new double[64];
    int[] remainingTasks = new int[64];
    boolean[] measured = new boolean[64];
    int[] pendingInputs;
    int[] server;
    /** Per task: the job's first task on the same server (its representative there). */
    int[] firstOnServer;
    /** Per representative task: the job's unfinished tasks on that server. */
    int[] leftOnServer;
    private int[] free = new int[64];
    private int freeCount;
    private int capacity;
    private int inFlight;
    private int maxInFlight;

    JobTable(int maxTasks) {
        this.maxTasks = Math.max(1, maxTasks);
        this.pendingInputs = new int[64 * this.maxTasks];
        this.server = new int[64 * this.maxTasks];
        this.firstOnServer = new int[64 * this.maxTasks];
        this.leftOnServer = new int[64 * this.maxTasks];
        this.capacity = 64;
        for (int i = capacity - 1; i >= 0; i--) {
            free[freeCount++] = i;
        }
    }

    int allocate() {
        if (freeCount == 0) {
            grow();
        }
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        return free[--freeCount];
    }

    void release(int slot) {
        free[freeCount++] = slot;
        inFlight--;
    }

    int base(int slot) {
        return slot * maxTasks;
    }

    int inFlight() {
        return inFlight;
    }

    int maxInFlight() {
        return maxInFlight;
    }

    int capacity() {
        return capacity;
    }

    private void grow() {
        int n = capacity * 2;
        jobClass = Arrays.copyOf(jobClass, n);
        arrival = Arrays.copyOf(arrival, n);
        remainingTasks = Arrays.copyOf(remainingTasks, n);
        measured = Arrays.copyOf(measured, n);
        pendingInputs = Arrays.copyOf(pendingInputs, n * maxTasks);
        server = Arrays.copyOf(server, n * maxTasks);
        firstOnServer = Arrays.copyOf(firstOnServer, n * maxTasks);
        leftOnServer = Arrays.copyOf(leftOnServer, n * maxTasks);
        free = Arrays.copyOf(free, n);
        for (int i = n - 1; i >= capacity; i--) {
            free[freeCount++] = i;
        }
        capacity = n;
    }
}
