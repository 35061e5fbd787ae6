package dev.nona.sim.engine;

import dev.nona.sim.SimCluster;
import dev.nona.sim.SimJobClass;

/**
 * The DAG simulator's per-server caches of model parts, on when the cluster gives memory or a cold start
 * ({@link SimCluster#cachesOn}). The caching unit is one (model, contracted task) with its bytes
 * ({@link SimJobClass#taskBytes}); a <em>part</em> (the tasks of one job placed on one server) needs all of its
 * tasks' units on its server.
 *
 * <p>A unit on a server is <em>absent</em>, <em>resident</em> (memory reserved: a part that needs it was placed
 * there) or <em>loaded</em> (its bytes are in). Each placed task that has not finished <em>pins</em> its unit:
 * a pinned unit is never evicted. Placing a part reserves its absent units, first evicting idle (unpinned) units
 * least recently used first until they fit; a part fits a server when its units not already pinned there fit in
 * the memory left by the pinned ones ({@link #fits}). The part's first task to start loads every unit of the part
 * not loaded yet: one cold start of {@code coldStart.seconds(missing bytes)} ({@link #load}).
 *
 * <p>Why beside {@link ModelCaches} rather than a generalisation of it: {@code ModelCaches} caches whole models
 * by MB over the {@code ModelRegistry} ledger the thesis's scheduler reads, and the thesis's experiments must stay
 * byte-identical; here the unit is a task's bytes and pins come from placed tasks, a ledger that registry does not
 * keep. Units of zero bytes are never tracked. Not thread-safe.
 */
final class PartCaches {
    private static final byte ABSENT = 0;
    private static final byte RESIDENT = 1;
    private static final byte LOADED = 2;
    /** Relative slack on memory comparisons (per-task bytes spread by ops are not whole numbers). */
    private static final double SLACK = 1e-9;

    private final SimCluster cluster;
    private final SimJobClass[] classes;
    private final int[] offset;
    private final int units;
    private final double[] unitBytes;
    private final byte[] state;
    private final int[] pins;
    private final long[] lastUse;
    private final double[] memory;
    private final double[] resident;
    private final double[] pinned;
    private long clock;
    private long evictions;

    PartCaches(SimCluster cluster, SimJobClass[] classes) {
        this.cluster = cluster;
        this.classes = classes;
        this.offset = new int[classes.length + 1];
        for (int c = 0; c < classes.length; c++) {
            offset[c + 1] = offset[c] + classes[c].tasks();
        }
        this.units = offset[classes.length];
        this.unitBytes = new double[units];
        for (int c = 0; c < classes.length; c++) {
            for (int t = 0; t < classes[c].tasks(); t++) {
                unitBytes[offset[c] + t] = classes[c].taskBytes(t);
            }
        }
        int n = cluster.servers();
        long cells = (long) n * units;
        if (cells > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("model caches for " + n + " servers and " + units + " tasks are too large");
        }
        this.state = new byte[(int) cells];
        this.pins = new int[(int) cells];
        this.lastUse = new long[(int) cells];
        this.memory = new double[n];
        for (int s = 0; s < n; s++) {
            memory[s] = cluster.memoryBytes(s);
        }
        this.resident = new double[n];
        this.pinned = new double[n];
    }

    private int cell(int s, int c, int t) {
        return s * units + offset[c] + t;
    }

    double memoryBytes(int s) {
        return memory[s];
    }

    /** Memory not pinned by placed, unfinished tasks: what a part may use once every idle unit is evicted. */
    double freeBytes(int s) {
        return Math.max(0, memory[s] - pinned[s]);
    }

    /** Whether server {@code s} holds (has reserved or loaded) task {@code t} of class {@code c}. */
    boolean holds(int s, int c, int t) {
        return classes[c].taskBytes(t) == 0 || state[cell(s, c, t)] != ABSENT;
    }

    /** Bytes the tasks {@code tasks[0..k)} of class {@code c} would add to what is pinned on {@code s}. */
    double unpinnedBytes(int s, int c, int[] tasks, int k) {
        double sum = 0;
        for (int i = 0; i < k; i++) {
            int t = tasks[i];
            double b = classes[c].taskBytes(t);
            if (b > 0 && pins[cell(s, c, t)] == 0) {
                sum += b;
            }
        }
        return sum;
    }

    /** Whether a part of tasks {@code tasks[0..k)} of class {@code c} fits {@code s} once its idle units are evicted. */
    boolean fits(int s, int c, int[] tasks, int k) {
        return within(pinned[s] + unpinnedBytes(s, c, tasks, k), memory[s]);
    }

    /** Whether the part would fit {@code s} with nothing else on it (its whole memory). */
    boolean fitsEmpty(int s, int c, int[] tasks, int k) {
        double sum = 0;
        for (int i = 0; i < k; i++) {
            sum += classes[c].taskBytes(tasks[i]);
        }
        return within(sum, memory[s]);
    }

    private static boolean within(double bytes, double memory) {
        return bytes <= memory * (1 + SLACK);
    }

    /** Bytes of the part's units not held on {@code s} (what its cold start there would load). */
    double missingBytes(int s, int c, int[] tasks, int k) {
        double sum = 0;
        for (int i = 0; i < k; i++) {
            int t = tasks[i];
            if (state[cell(s, c, t)] == ABSENT) {
                sum += classes[c].taskBytes(t);
            }
        }
        return sum;
    }

    /** Seconds of the cold start the part would take on {@code s} now (0 when every unit is held). */
    double coldStartSeconds(int s, int c, int[] tasks, int k) {
        double missing = missingBytes(s, c, tasks, k);
        return missing > 0 ? loadSeconds(missing) : 0;
    }

    /** Seconds to load {@code bytes} ($F + b/B$; 0 without a cold-start cost). */
    double loadSeconds(double bytes) {
        return cluster.coldStart() == null ? 0 : cluster.coldStart().seconds(bytes);
    }

    /**
     * The part is placed on {@code s}: its absent units are reserved (evicting idle units, least recently used first,
     * while they do not fit) and every unit is pinned by its task. A part that does not fit is reserved anyway
     * (the caller has counted the violation): the server is then over its memory until its pins are released.
     */
    void place(int s, int c, int[] tasks, int k) {
        double need = 0;
        for (int i = 0; i < k; i++) {
            int t = tasks[i];
            if (classes[c].taskBytes(t) > 0 && state[cell(s, c, t)] == ABSENT) {
                need += classes[c].taskBytes(t);
            }
        }
        while (need > 0 && !within(resident[s] + need, memory[s]) && evictOne(s)) {
            // evicted the least recently used idle unit
        }
        for (int i = 0; i < k; i++) {
            int t = tasks[i];
            double b = classes[c].taskBytes(t);
            if (b == 0) {
                continue;
            }
            int x = cell(s, c, t);
            if (state[x] == ABSENT) {
                state[x] = RESIDENT;
                resident[s] += b;
            }
            if (pins[x]++ == 0) {
                pinned[s] += b;
            }
            lastUse[x] = ++clock;
        }
    }

    private boolean evictOne(int s) {
        int base = s * units;
        int victim = -1;
        for (int u = 0; u < units; u++) {
            int x = base + u;
            if (state[x] != ABSENT && pins[x] == 0 && (victim < 0 || lastUse[x] < lastUse[victim])) {
                victim = x;
            }
        }
        if (victim < 0) {
            return false;
        }
        state[victim] = ABSENT;
        resident[s] = Math.max(0, resident[s] - unitBytes[victim - base]);
        evictions++;
        return true;
    }

    /** Task {@code t} of class {@code c} finished on {@code s}: its pin is released (the unit stays, idle once unpinned). */
    void release(int s, int c, int t) {
        double b = classes[c].taskBytes(t);
        if (b == 0) {
            return;
        }
        int x = cell(s, c, t);
        if (pins[x] <= 0) {
            throw new IllegalStateException("BUG: task " + t + " of " + classes[c].name() + " released on server " + s + " unpinned");
        }
        if (--pins[x] == 0) {
            pinned[s] = Math.max(0, pinned[s] - b);
        }
        lastUse[x] = ++clock;
    }

    /** The part's first task starts on {@code s}: its units not loaded are loaded now; returns their bytes. */
    double load(int s, int c, int[] tasks, int k) {
        double missing = 0;
        for (int i = 0; i < k; i++) {
            int t = tasks[i];
            double b = classes[c].taskBytes(t);
            int x = cell(s, c, t);
            if (b > 0 && state[x] != LOADED) {
                if (state[x] == ABSENT) {
                    throw new IllegalStateException("BUG: task " + t + " of " + classes[c].name() + " starts on server " + s + " unreserved");
                }
                state[x] = LOADED;
                missing += b;
                lastUse[x] = ++clock;
            }
        }
        return missing;
    }

    /** Units evicted so far. */
    long evictions() {
        return evictions;
    }
}
