package dev.nona.placement;

import dev.nona.workload.ServerClass;
import java.util.Arrays;
import java.util.function.IntToDoubleFunction;

/**
 * Per block of {@link #BLOCK} servers ($s \gg$ {@link #BLOCK_SHIFT}), a lower bound on $B_s(t) + p/\nu_s$ over the
 * block's up servers whose memory could hold a part ({@link #finishLowerBound}), for the memory-aware rule's scan to
 * pass over blocks that cannot beat its pick. The servers of a block are grouped by memory (up to {@link #KINDS}
 * groups; beyond that the last group takes the rest, at the largest memory among them), and each group keeps the
 * least idle time, the least stored backlog and the greatest rate of its servers (a rate of 0 as $+\infty$), so a
 * part too large for a group's memory does not see that group's idle servers, and a slow group's idle servers do not
 * lower the bound by a fast group's rate.
 *
 * <p>A block is counted again only at the first bound after a server of it changed ({@link #changed}: its backlog
 * or rate), and grouped again only after one went up or down or changed its memory ({@link #regroup}), so keeping
 * the bounds costs a write per change on paths that never ask. Not thread-safe.
 */
final class BlockBounds {
    /** $\log_2$ of {@link #BLOCK}. */
    static final int BLOCK_SHIFT = 6;
    /** Servers per block. */
    static final int BLOCK = 1 << BLOCK_SHIFT;
    /** The most memory groups kept per block. */
    static final int KINDS = 4;

    private final LoadForecast forecast;
    private final UpServers up;
    private int n;
    /** Each server's memory for parts (its owner's, {@link ServerLedger#memoryOf}; unbounded until told). */
    private IntToDoubleFunction memory = s -> ServerClass.UNBOUNDED;
    /** Per server, its group in its block ({@code block * KINDS + k}), or -1 when down; as of its block's layout. */
    private int[] kindOf = new int[0];
    /** Per block: whether a server's values changed since its count, and whether one's memory or liveness did. */
    private boolean[] stale = new boolean[0];
    private boolean[] layoutStale = new boolean[0];
    /** Per block its number of groups; per group ({@code block * KINDS + k}) its memory, idle time, backlog, rate. */
    private int[] kinds = new int[0];
    private double[] kindMemory = new double[0];
    private double[] kindIdleAt = new double[0];
    private double[] kindBacklog = new double[0];
    private double[] kindRate = new double[0];
    /** Per group, 8 units in the last place of its idle time (the bound's slack on that side). */
    private double[] kindSlack = new double[0];
    /** The latest bound's time and 8 units in the last place of it. */
    private double slackAt = Double.NaN;
    private double nowSlack;

    BlockBounds(LoadForecast forecast, UpServers up) {
        this.forecast = forecast;
        this.up = up;
    }

    /** Adds server {@code n}. */
    void addServer() {
        int s = n;
        if (s == kindOf.length) {
            kindOf = Arrays.copyOf(kindOf, Math.max(4, 2 * s));
        }
        n++;
        int b = s >>> BLOCK_SHIFT;
        if (b == stale.length) {
            int c = Math.max(4, 2 * b);
            stale = Arrays.copyOf(stale, c);
            layoutStale = Arrays.copyOf(layoutStale, c);
            kinds = Arrays.copyOf(kinds, c);
            kindMemory = Arrays.copyOf(kindMemory, c * KINDS);
            kindIdleAt = Arrays.copyOf(kindIdleAt, c * KINDS);
            kindBacklog = Arrays.copyOf(kindBacklog, c * KINDS);
            kindRate = Arrays.copyOf(kindRate, c * KINDS);
            kindSlack = Arrays.copyOf(kindSlack, c * KINDS);
        }
        stale[b] = true;
        layoutStale[b] = true;
    }

    /** Server {@code s}'s backlog or rate changed: its block is counted again at its next bound. */
    void changed(int s) {
        stale[s >>> BLOCK_SHIFT] = true;
    }

    /** Server {@code s} went up or down, or its memory changed: its block is grouped and counted at its next bound. */
    void regroup(int s) {
        stale[s >>> BLOCK_SHIFT] = true;
        layoutStale[s >>> BLOCK_SHIFT] = true;
    }

    /** Where each server's memory for parts is read from now on; every block is grouped again at its next bound. */
    void memoryOf(IntToDoubleFunction memory) {
        this.memory = memory;
        Arrays.fill(layoutStale, true);
        Arrays.fill(stale, true);
    }

    /**
     * A lower bound on $B_s(t) + p/\nu_s$ ({@link LoadForecast#backlog} plus {@code ops} at the server's rate, 0 at
     * rate 0, each as the caller computes it in floating point) over the up servers of block {@code block} whose memory
     * holds {@code bytes} (a part fits a server only if it fits its whole memory, {@link ServerMemory#fits}); $+\infty$
     * when there is none. Per memory group that holds the part: the least of its backlogs at {@code now} at the
     * greatest of its rates. A server's backlog at {@code now} is its stored one while {@code now} is before its
     * update, else its idle time less {@code now}; it is at least the least of both over the group, less 8 units in
     * the last place of the times (more than the rounding of either way of computing it, for times {@code >= 0}).
     * $O(${@link #KINDS}$)$, or $O(${@link #BLOCK}$)$ when a server of the block changed since its last bound.
     */
    double finishLowerBound(int block, double ops, double bytes, double now) {
        if (stale[block]) {
            count(block);
        }
        if (now != slackAt) {
            slackAt = now;
            nowSlack = 8 * Math.ulp(now);
        }
        double least = Double.POSITIVE_INFINITY;
        for (int k = block * KINDS, end = k + kinds[block]; k < end; k++) {
            if (bytes <= kindMemory[k]) {
                double slack = Math.max(kindSlack[k], nowSlack); // 8 ulps of the larger time
                double drained = Math.min(kindBacklog[k], kindIdleAt[k] - now - slack);
                double bound = (drained > 0 ? drained : 0) + ops / kindRate[k]; // a group's rate is > 0 (0 as +inf)
                if (bound < least) {
                    least = bound;
                }
            }
        }
        return least;
    }

    /** Counts block {@code block}'s groups again from its servers' backlogs and rates. */
    private void count(int block) {
        if (layoutStale[block]) {
            group(block);
        }
        for (int k = block * KINDS, end = k + kinds[block]; k < end; k++) {
            kindIdleAt[k] = Double.POSITIVE_INFINITY;
            kindBacklog[k] = Double.POSITIVE_INFINITY;
            kindRate[k] = 0;
        }
        for (int s = block << BLOCK_SHIFT, end = Math.min(n, s + BLOCK); s < end; s++) {
            int k = kindOf[s];
            if (k >= 0) {
                double rate = forecast.rate(s);
                kindIdleAt[k] = Math.min(kindIdleAt[k], forecast.idleAt(s));
                kindBacklog[k] = Math.min(kindBacklog[k], forecast.storedBacklog(s));
                kindRate[k] = Math.max(kindRate[k], rate > 0 ? rate : Double.POSITIVE_INFINITY);
            }
        }
        for (int k = block * KINDS, end = k + kinds[block]; k < end; k++) {
            kindSlack[k] = 8 * Math.ulp(kindIdleAt[k]);
        }
        stale[block] = false;
    }

    /**
     * Groups block {@code block}'s up servers by memory: up to {@link #KINDS} groups, the last taking the rest at the
     * largest memory among them.
     */
    private void group(int block) {
        int first = block * KINDS;
        int groups = 0;
        for (int s = block << BLOCK_SHIFT, end = Math.min(n, s + BLOCK); s < end; s++) {
            if (!up.isUp(s)) {
                kindOf[s] = -1;
                continue;
            }
            double m = memory.applyAsDouble(s);
            int k = first;
            while (k < first + groups && kindMemory[k] != m) {
                k++;
            }
            if (k == first + groups) {
                if (groups < KINDS) {
                    groups++;
                    kindMemory[k] = m;
                } else {
                    k = first + KINDS - 1;
                    kindMemory[k] = Math.max(kindMemory[k], m);
                }
            }
            kindOf[s] = k;
        }
        kinds[block] = groups;
        layoutStale[block] = false;
    }
}
