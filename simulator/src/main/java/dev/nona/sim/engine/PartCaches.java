package dev.nona.sim.engine;

import dev.nona.sim.SimCluster;
import dev.nona.sim.SimJobClass;
import dev.nona.workload.ColdStartCost;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Per-server caches of model parts, the one implementation of the memory rule the DAG simulator
 * ({@link Simulator}, on when the cluster gives memory or a cold start, {@link SimCluster#cachesOn}) and the
 * executor twin (nona-cli's {@code dev.nona.twin.TwinCluster}, with server classes) both run. The caching unit is
 * one task of one model with its bytes (a contracted task of a {@link SimJobClass} in the simulator, an original
 * task of a catalog model in the twin); a <em>part</em> (the tasks of one job placed on one server) needs all of its
 * tasks' units on its server. Models are numbered in the order they are added ({@link #addModel}).
 *
 * <p>A unit on a server is <em>absent</em>, <em>resident</em> (memory reserved: a part that needs it was placed
 * there) or <em>loaded</em> (its bytes are in). Each placed task that has not finished <em>pins</em> its unit:
 * a pinned unit is never evicted. Placing a part reserves its absent units, first evicting idle (unpinned) units
 * least recently used first until they fit; a part fits a server when its units not already pinned there fit in
 * the memory left by the pinned ones ({@link #fits}). The part's first task to start loads every unit of the part
 * not loaded yet: one cold start of {@code coldStart.seconds(missing bytes)} ({@link #load}).
 * An executor that pins only running tasks (the twin) also reserves a part without pinning it ({@link #reserve})
 * and marks units that in-flight parts will still run ({@link #want}), evicted after every other idle unit; the
 * simulator uses neither, so its eviction is plain LRU.
 *
 * <p>Why beside {@link ModelCaches} rather than a generalisation of it: {@code ModelCaches} caches whole models
 * by MB over the {@code ModelRegistry} ledger the thesis's scheduler reads, and the thesis's experiments must stay
 * byte-identical; here the unit is a task's bytes and pins come from placed tasks, a ledger that registry does not
 * keep. Units of zero bytes are never tracked. Adding a model after placements have begun re-lays the tables out
 * ($O(N \cdot \text{units})$; a catalog change, rare). Not thread-safe.
 */
public final class PartCaches {
    private static final byte ABSENT = 0;
    private static final byte RESIDENT = 1;
    private static final byte LOADED = 2;
    /** Relative slack on memory comparisons (per-task bytes spread by ops are not whole numbers). */
    private static final double SLACK = 1e-9;
    /** The heap a unit on a server takes: its state, pins, wants, last use and whether seen (1 + 4 + 4 + 8 + 1 bytes). */
    private static final long BYTES_PER_CELL = 18;

    private final ColdStartCost coldStart;
    private final int servers;
    private final List<String> names = new ArrayList<>();
    private int[] offset = {0};
    private int units;
    private double[] unitBytes = new double[0];
    private byte[] state = new byte[0];
    private int[] pins = new int[0];
    /** Per unit: in-flight parts that will still run it (an executor's hint, {@link #want}; 0 in the simulator). */
    private int[] wants = new int[0];
    private long[] lastUse = new long[0];
    private final double[] memory;
    private final double[] resident;
    private final double[] pinned;
    private long clock;
    private long evictions;
    private long reloads;
    /** Per unit on a server: whether its bytes were ever loaded there. */
    private boolean[] seen = new boolean[0];

    /**
     * Empty caches, holding no model yet.
     *
     * @param memoryBytes per server, its memory for model parts ({@code +Infinity}: not modelled, every part fits)
     * @param coldStart   what loading a part costs, or null (loads take no time)
     */
    public PartCaches(double[] memoryBytes, ColdStartCost coldStart) {
        if (memoryBytes.length < 1) {
            throw new IllegalArgumentException("part caches need at least one server");
        }
        for (int s = 0; s < memoryBytes.length; s++) {
            if (!(memoryBytes[s] > 0)) {
                throw new IllegalArgumentException("memory of server " + s + " (" + memoryBytes[s] + ") must be > 0");
            }
        }
        this.coldStart = coldStart;
        this.servers = memoryBytes.length;
        this.memory = memoryBytes.clone();
        this.resident = new double[servers];
        this.pinned = new double[servers];
    }

    /** The simulator's caches of {@code cluster}, holding {@code classes} as models {@code 0 .. classes.length-1}. */
    PartCaches(SimCluster cluster, SimJobClass[] classes) {
        this(memories(cluster), cluster.coldStart());
        for (SimJobClass c : classes) {
            double[] bytes = new double[c.tasks()];
            for (int t = 0; t < bytes.length; t++) {
                bytes[t] = c.taskBytes(t);
            }
            addModel(c.name(), bytes);
        }
    }

    private static double[] memories(SimCluster cluster) {
        double[] out = new double[cluster.servers()];
        for (int s = 0; s < out.length; s++) {
            out[s] = cluster.memoryBytes(s);
        }
        return out;
    }

    /**
     * Adds a model of tasks weighing {@code taskBytes} (each finite, $\ge 0$), absent on every server.
     *
     * @return its index, the {@code c} of the other methods
     */
    public int addModel(String name, double[] taskBytes) {
        for (int t = 0; t < taskBytes.length; t++) {
            if (!(taskBytes[t] >= 0) || Double.isInfinite(taskBytes[t])) {
                throw new IllegalArgumentException("model '" + name + "': task " + t + " bytes (" + taskBytes[t]
                        + ") must be finite and >= 0");
            }
        }
        int k = taskBytes.length;
        int grown = units + k;
        long cells = (long) servers * grown;
        if (cells > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("model caches for " + servers + " servers and " + grown + " tasks are too large");
        }
        HeapRoom.require(cells * BYTES_PER_CELL, "model caches for " + servers + " servers and " + grown + " tasks");
        byte[] newState = new byte[(int) cells];
        int[] newPins = new int[(int) cells];
        int[] newWants = new int[(int) cells];
        long[] newLastUse = new long[(int) cells];
        boolean[] newSeen = new boolean[(int) cells];
        for (int s = 0; s < servers; s++) {
            System.arraycopy(seen, s * units, newSeen, s * grown, units);
            System.arraycopy(state, s * units, newState, s * grown, units);
            System.arraycopy(pins, s * units, newPins, s * grown, units);
            System.arraycopy(wants, s * units, newWants, s * grown, units);
            System.arraycopy(lastUse, s * units, newLastUse, s * grown, units);
        }
        state = newState;
        pins = newPins;
        wants = newWants;
        lastUse = newLastUse;
        seen = newSeen;
        unitBytes = Arrays.copyOf(unitBytes, grown);
        System.arraycopy(taskBytes, 0, unitBytes, units, k);
        offset = Arrays.copyOf(offset, offset.length + 1);
        offset[offset.length - 1] = grown;
        units = grown;
        names.add(name);
        return names.size() - 1;
    }

    /** Models added so far. */
    public int models() {
        return names.size();
    }

    /** The bytes of task {@code t} of model {@code c}. */
    public double taskBytes(int c, int t) {
        return unitBytes[offset[c] + t];
    }

    private int cell(int s, int c, int t) {
        return s * units + offset[c] + t;
    }

    public double memoryBytes(int s) {
        return memory[s];
    }

    /** Memory not pinned by placed, unfinished tasks: what a part may use once every idle unit is evicted. */
    public double freeBytes(int s) {
        return Math.max(0, memory[s] - pinned[s]);
    }

    /** Whether server {@code s} holds (has reserved or loaded) task {@code t} of class {@code c}. */
    public boolean holds(int s, int c, int t) {
        return taskBytes(c, t) == 0 || state[cell(s, c, t)] != ABSENT;
    }

    /** Bytes the tasks {@code tasks[0..k)} of class {@code c} would add to what is pinned on {@code s}. */
    public double unpinnedBytes(int s, int c, int[] tasks, int k) {
        double sum = 0;
        for (int i = 0; i < k; i++) {
            int t = tasks[i];
            double b = taskBytes(c, t);
            if (b > 0 && pins[cell(s, c, t)] == 0) {
                sum += b;
            }
        }
        return sum;
    }

    /** Whether a part of tasks {@code tasks[0..k)} of class {@code c} fits {@code s} once its idle units are evicted. */
    public boolean fits(int s, int c, int[] tasks, int k) {
        return within(pinned[s] + unpinnedBytes(s, c, tasks, k), memory[s]);
    }

    /** Whether the part would fit {@code s} with nothing else on it (its whole memory). */
    public boolean fitsEmpty(int s, int c, int[] tasks, int k) {
        double sum = 0;
        for (int i = 0; i < k; i++) {
            sum += taskBytes(c, tasks[i]);
        }
        return within(sum, memory[s]);
    }

    private static boolean within(double bytes, double memory) {
        return bytes <= memory * (1 + SLACK);
    }

    /** Bytes of the part's units not held on {@code s} (what its cold start there would load). */
    public double missingBytes(int s, int c, int[] tasks, int k) {
        double sum = 0;
        for (int i = 0; i < k; i++) {
            int t = tasks[i];
            if (state[cell(s, c, t)] == ABSENT) {
                sum += taskBytes(c, t);
            }
        }
        return sum;
    }

    /** Seconds of the cold start the part would take on {@code s} now (0 when every unit is held). */
    public double coldStartSeconds(int s, int c, int[] tasks, int k) {
        double missing = missingBytes(s, c, tasks, k);
        return missing > 0 ? loadSeconds(missing) : 0;
    }

    /** Seconds to load {@code bytes} ($F + b/B$; 0 without a cold-start cost). */
    public double loadSeconds(double bytes) {
        return coldStart == null ? 0 : coldStart.seconds(bytes);
    }

    /**
     * The part is placed on {@code s}: its absent units are reserved (evicting idle units, least recently used first,
     * while they do not fit) and every unit is pinned by its task. A part that does not fit is reserved anyway
     * (the caller has counted the violation): the server is then over its memory until its pins are released.
     */
    public void place(int s, int c, int[] tasks, int k) {
        double need = 0;
        for (int i = 0; i < k; i++) {
            int t = tasks[i];
            if (taskBytes(c, t) > 0 && state[cell(s, c, t)] == ABSENT) {
                need += taskBytes(c, t);
            }
        }
        while (need > 0 && !within(resident[s] + need, memory[s]) && evictOne(s)) {
            // evicted the least recently used idle unit
        }
        for (int i = 0; i < k; i++) {
            int t = tasks[i];
            double b = taskBytes(c, t);
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

    /**
     * The part's absent units on {@code s} are reserved without being pinned (idle once reserved, evictable), when the
     * part fits ({@link #fits}); idle units are evicted, least recently used first, while they do not fit, the part's
     * own held units last. Used by an executor that loads a whole part before its first task while pinning only the
     * tasks that are running (the twin); the simulator pins whole parts ({@link #place}).
     *
     * @return whether the part fitted and its units are all held now
     */
    public boolean reserve(int s, int c, int[] tasks, int k) {
        if (!fits(s, c, tasks, k)) {
            return false;
        }
        double need = 0;
        for (int i = 0; i < k; i++) {
            int t = tasks[i];
            double b = taskBytes(c, t);
            int x = cell(s, c, t);
            if (b > 0 && state[x] == ABSENT) {
                need += b;
            } else if (b > 0) {
                lastUse[x] = ++clock;
            }
        }
        while (need > 0 && !within(resident[s] + need, memory[s]) && evictOne(s)) {
            // evicted the least recently used idle unit
        }
        for (int i = 0; i < k; i++) {
            int t = tasks[i];
            double b = taskBytes(c, t);
            int x = cell(s, c, t);
            if (b > 0 && state[x] == ABSENT) {
                state[x] = RESIDENT;
                resident[s] += b;
                lastUse[x] = ++clock;
            }
        }
        return true;
    }

    /**
     * Evicts one idle unit of {@code s}: the least recently used of those no in-flight part will still run
     * ({@link #want}), else the least recently used idle one. Without wants (the simulator), plain LRU.
     */
    private boolean evictOne(int s) {
        int base = s * units;
        int victim = -1;
        for (int u = 0; u < units; u++) {
            int x = base + u;
            if (state[x] == ABSENT || pins[x] != 0) {
                continue;
            }
            boolean free = wants[x] == 0;
            if (victim < 0 || free && wants[victim] != 0
                    || free == (wants[victim] == 0) && lastUse[x] < lastUse[victim]) {
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

    /**
     * An executor's hint: an in-flight part will run task {@code t} of class {@code c} on {@code s} ({@code +1}), or
     * no longer will ({@code -1}). Idle units still wanted are evicted last ({@link #evictOne}); pins are unchanged.
     */
    public void want(int s, int c, int t, int delta) {
        if (taskBytes(c, t) == 0) {
            return;
        }
        int x = cell(s, c, t);
        if (wants[x] + delta < 0) {
            throw new IllegalStateException("BUG: task " + t + " of " + names.get(c) + " unwanted on server " + s);
        }
        wants[x] += delta;
    }

    /** Task {@code t} of class {@code c} finished on {@code s}: its pin is released (the unit stays, idle once unpinned). */
    public void release(int s, int c, int t) {
        double b = taskBytes(c, t);
        if (b == 0) {
            return;
        }
        int x = cell(s, c, t);
        if (pins[x] <= 0) {
            throw new IllegalStateException("BUG: task " + t + " of " + names.get(c) + " released on server " + s + " unpinned");
        }
        if (--pins[x] == 0) {
            pinned[s] = Math.max(0, pinned[s] - b);
        }
        lastUse[x] = ++clock;
    }

    /** The part's first task starts on {@code s}: its units not loaded are loaded now; returns their bytes. */
    public double load(int s, int c, int[] tasks, int k) {
        double missing = 0;
        boolean again = false;
        for (int i = 0; i < k; i++) {
            int t = tasks[i];
            double b = taskBytes(c, t);
            int x = cell(s, c, t);
            if (b > 0 && state[x] != LOADED) {
                if (state[x] == ABSENT) {
                    throw new IllegalStateException("BUG: task " + t + " of " + names.get(c) + " starts on server " + s + " unreserved");
                }
                again |= seen[x];
                seen[x] = true;
                state[x] = LOADED;
                missing += b;
                lastUse[x] = ++clock;
            }
        }
        if (again) {
            reloads++;
        }
        return missing;
    }

    /** Bytes of model {@code c} loaded on server {@code s} (its units whose load has begun). */
    public double loadedBytes(int s, int c) {
        double sum = 0;
        for (int t = offset[c]; t < offset[c + 1]; t++) {
            if (state[s * units + t] == LOADED) {
                sum += unitBytes[t];
            }
        }
        return sum;
    }

    /** Servers covered. */
    public int servers() {
        return servers;
    }

    /** Loads ({@link #load} calls that loaded bytes) that brought back a unit its server had loaded before and evicted. */
    public long reloads() {
        return reloads;
    }

    /** Units evicted so far. */
    public long evictions() {
        return evictions;
    }
}
