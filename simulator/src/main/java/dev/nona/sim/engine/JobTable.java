package dev.nona.sim.engine;

import java.util.Arrays;

/**
 * The jobs in flight, in slots that are recycled when a job completes: memory grows with the number of jobs in
 * the system at once, never with the number simulated. Per-task state (inputs still missing, assigned server, the job's tasks left on that server)
 * lives in flat arrays of {@code maxTasks} entries per slot. The slots never grow past the run's limit on jobs in
 * flight ({@link #defaultLimit} unless configured), which bounds the memory of an unstable run.
 */
final class JobTable {
    /** Memory the default limit allows the jobs in flight: a quarter of the 2 GB heap {@code bin/nona} gives the JVM. */
    static final long DEFAULT_BUDGET_BYTES = 512L << 20;

    private final int maxTasks;
    private final int maxSlots;
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
    /** Per representative task, when part caches are on ({@link #trackPartLoads}): whether its part has loaded. */
    boolean[] partLoaded;
    private int[] free = new int[64];
    private int freeCount;
    private int capacity;
    private int inFlight;
    private int maxInFlight;

    /**
     * @param maxTasks the most tasks a job has
     * @param maxSlots the most jobs in flight the run allows (the slots never grow past it)
     */
    JobTable(int maxTasks, int maxSlots) {
        if (maxSlots < 1) {
            throw new IllegalArgumentException("max slots (" + maxSlots + ") must be >= 1");
        }
        this.maxTasks = Math.max(1, maxTasks);
        this.maxSlots = maxSlots;
        this.pendingInputs = new int[64 * this.maxTasks];
        this.server = new int[64 * this.maxTasks];
        this.firstOnServer = new int[64 * this.maxTasks];
        this.leftOnServer = new int[64 * this.maxTasks];
        this.capacity = 64;
        for (int i = capacity - 1; i >= 0; i--) {
            free[freeCount++] = i;
        }
    }

    /**
     * The default limit on jobs in flight for jobs of at most {@code maxTasks} tasks and {@code maxEdges} edges:
     * {@link #DEFAULT_BUDGET_BYTES} over the memory one job in flight may take, which is its slot (21 bytes), its
     * per-task state (four ints per task) and, at worst, one queued item (a long) per task and per edge waiting in
     * the servers' and the link's queues.
     */
    /** Keeps {@link #partLoaded} from now on (runs with part caches; off otherwise, so the paper's runs use no more memory). */
    void trackPartLoads() {
        partLoaded = new boolean[server.length];
    }

    static int defaultLimit(int maxTasks, int maxEdges) {
        long bytesPerJob = 21 + 16L * Math.max(1, maxTasks) + 8L * (Math.max(1, maxTasks) + Math.max(0, maxEdges));
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, DEFAULT_BUDGET_BYTES / bytesPerJob));
    }

    int allocate() {
        if (freeCount == 0) {
            if (capacity >= maxSlots) {
                throw new IllegalStateException("BUG: more than " + maxSlots + " jobs in flight; the run should have stopped at its limit");
            }
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
        int n = (int) Math.min(2L * capacity, Math.max(maxSlots, capacity));
        jobClass = Arrays.copyOf(jobClass, n);
        arrival = Arrays.copyOf(arrival, n);
        remainingTasks = Arrays.copyOf(remainingTasks, n);
        measured = Arrays.copyOf(measured, n);
        pendingInputs = Arrays.copyOf(pendingInputs, n * maxTasks);
        server = Arrays.copyOf(server, n * maxTasks);
        firstOnServer = Arrays.copyOf(firstOnServer, n * maxTasks);
        leftOnServer = Arrays.copyOf(leftOnServer, n * maxTasks);
        if (partLoaded != null) {
            partLoaded = Arrays.copyOf(partLoaded, n * maxTasks);
        }
        free = Arrays.copyOf(free, n);
        for (int i = n - 1; i >= capacity; i--) {
            free[freeCount++] = i;
        }
        capacity = n;
    }
}
