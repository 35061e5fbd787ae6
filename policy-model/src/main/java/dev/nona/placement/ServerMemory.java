package dev.nona.placement;

import dev.nona.workload.ServerClass;
import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * What each server can hold: its class (a name, or null when its reports give none) and its memory for model parts
 * ({@link ServerClass#UNBOUNDED} when not given: every part fits). A part of $b$ bytes fits server $s$ when
 * $b \le M_s$, the comparison of {@link ServerClass#fits} (a server evicts idle parts to load another, so a part
 * fits when it fits the whole memory). Also keeps the largest memory among the live servers, recomputed only after a
 * server's memory or liveness changed ({@link #changed}). Not thread-safe.
 */
final class ServerMemory {
    /** The relative rounding {@link #couldPin} allows. */
    private static final double ROUNDING = 1e-9;

    private double[] memory = new double[0];
    /** What a new part may use now (memory less what running parts pin); the memory itself unless told. */
    private double[] free = new double[0];
    /** As of when {@link #free} was told (seconds on the placer's clock; {@link #freeKnows}). */
    private double[] freeAt = new double[0];
    private String[] classes = new String[0];
    private boolean[] described = new boolean[0];
    private int describedCount;
    private int n;
    private double largestLive = ServerClass.UNBOUNDED;
    private boolean stale = true;

    /** Adds server {@code n}: no class, unbounded memory. */
    void addServer() {
        if (n == memory.length) {
            int c = Math.max(4, 2 * n);
            memory = Arrays.copyOf(memory, c);
            free = Arrays.copyOf(free, c);
            freeAt = Arrays.copyOf(freeAt, c);
            classes = Arrays.copyOf(classes, c);
            described = Arrays.copyOf(described, c);
        }
        memory[n] = ServerClass.UNBOUNDED;
        free[n] = ServerClass.UNBOUNDED;
        freeAt[n] = Double.NEGATIVE_INFINITY;
        n++;
        stale = true;
    }

    /**
     * Server {@code s}'s class and memory by its latest report.
     *
     * @param serverClass its class, or null when not given
     * @param memoryBytes its memory, {@code > 0}, or {@link ServerClass#UNBOUNDED} when not given
     * @return whether its memory changed
     */
    boolean set(int s, String serverClass, double memoryBytes) {
        if (!(memoryBytes > 0)) {
            throw new IllegalArgumentException("memoryBytes of server " + s + " (" + memoryBytes + ") must be > 0");
        }
        classes[s] = serverClass;
        free[s] = memoryBytes;
        boolean changed = memory[s] != memoryBytes;
        if (changed) {
            memory[s] = memoryBytes;
            stale = true;
        }
        boolean d = serverClass != null || memoryBytes != ServerClass.UNBOUNDED;
        if (d != described[s]) {
            described[s] = d;
            describedCount += d ? 1 : -1;
        }
        return changed;
    }

    /** A server's liveness changed: the largest live memory is recomputed when next asked. */
    void changed() {
        stale = true;
    }

    /** Whether any server's latest report gives a class or a memory (else placement runs as without them). */
    boolean described() {
        return describedCount > 0;
    }

    double memory(int s) {
        return memory[s];
    }

    String serverClass(int s) {
        return classes[s];
    }

    /** Whether a part of {@code bytes} fits server {@code s} ({@link ServerClass#fits}'s comparison). */
    boolean fits(int s, double bytes) {
        return bytes <= memory[s];
    }

    /** Whether a part of {@code bytes} fits server {@code s} now, in its {@link #free} memory. */
    boolean fitsNow(int s, double bytes) {
        return bytes <= free[s];
    }

    /**
     * Whether a part of {@code bytes} fits server {@code s} beside {@code footprint} (the request's other parts
     * there): {@code now}, in its free memory, or else in its whole memory. A part {@code pinned} there ({@code pinned}
     * holds for {@code s}: a request of it is still running there, as the placer predicts) fits now where the request
     * has nothing else: the server's free memory already leaves its bytes out, and running it again needs no more.
     * Without this, a part pinned on every server that held it fitted none of them now, and went where it fitted only
     * the whole memory: to a server whose memory other parts held. {@code pinned} is asked only where it decides.
     */
    boolean fits(int s, double bytes, Footprint footprint, boolean now, IntPredicate pinned) {
        double beside = footprint.on(s);
        double need = bytes + beside;
        if (!now) {
            return fits(s, need);
        }
        return fitsNow(s, need) || (beside == 0 && pinned.test(s));
    }

    /**
     * Server {@code s}'s memory a new part may use now, until its next report ({@code <=} its memory), as of
     * {@code at} (seconds on the placer's clock: when its report was made; {@link #freeKnows}).
     */
    void free(int s, double bytes, double at) {
        if (!(bytes >= 0)) {
            throw new IllegalArgumentException("free memory of server " + s + " (" + bytes + ") must be >= 0");
        }
        free[s] = Math.min(bytes, memory[s]);
        freeAt[s] = at;
    }

    /**
     * Whether server {@code s}'s {@link #free} memory is as of {@code from} or later (seconds on the placer's clock):
     * told after a request was to start there, it leaves out the bytes that request pins while it runs.
     */
    boolean freeKnows(int s, double from) {
        return freeAt[s] >= from;
    }

    /**
     * Whether {@code bytes} could be pinned on server {@code s} by its {@link #free} memory: pinned bytes are out of
     * the free memory, so the two together fit the memory (within {@link #ROUNDING}: a free memory computed as the
     * memory less the pinned bytes, plus those bytes, may come out a last bit above it).
     */
    boolean couldPin(int s, double bytes) {
        return free[s] + bytes <= memory[s] * (1 + ROUNDING);
    }

    double free(int s) {
        return free[s];
    }

    /** The largest memory among the servers {@code live} accepts, 0 when none does. $O(N)$ after a change, else $O(1)$. */
    double largestLive(IntPredicate live) {
        if (stale) {
            double m = 0;
            for (int s = 0; s < n; s++) {
                if (live.test(s)) {
                    m = Math.max(m, memory[s]);
                }
            }
            largestLive = m;
            stale = false;
        }
        return largestLive;
    }
}
