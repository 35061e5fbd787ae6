package dev.nona.placement;

import java.util.Arrays;

/**
 * Which warm pools each server is in (pool ids {@code >= 0} chosen by the caller, e.g. one per model). A server is
 * in few pools, most often one, so besides its list each server keeps its only pool, when it is in exactly one:
 * {@link #inPool} then reads one int per server, where the list costs two dependent loads (cache misses at
 * thousands of servers). Not thread-safe.
 */
final class WarmPools {
    private static final int NO_POOL = -1;
    private static final int POOLS = -2;

    /** The pools of each server, null: none. */
    private int[][] pools = new int[0][];
    /** Each server's pool when it is in exactly one, else {@link #NO_POOL} (none) or {@link #POOLS} (several). */
    private int[] onlyPool = new int[0];
    private int n;

    /** Adds server {@code n}, in no pool. */
    void addServer() {
        if (n == pools.length) {
            int c = Math.max(4, 2 * n);
            pools = Arrays.copyOf(pools, c);
            onlyPool = Arrays.copyOf(onlyPool, c);
        }
        onlyPool[n++] = NO_POOL;
    }

    /** The pools of server {@code s}, or null when none (not a copy: do not change it). */
    int[] of(int s) {
        return pools[s];
    }

    /**
     * Sets the pools of server {@code s} (copied); the caller checks them ({@link #requirePool}) as it indexes
     * them.
     */
    void set(int s, int[] warmPools) {
        pools[s] = warmPools.length == 0 ? null : warmPools.clone();
        onlyPool[s] = warmPools.length == 0 ? NO_POOL : warmPools.length == 1 ? warmPools[0] : POOLS;
    }

    static void requirePool(int s, int pool) {
        if (pool < 0) {
            throw new IllegalArgumentException("warm pool (" + pool + ") of server " + s + " must be >= 0");
        }
    }

    /** Whether server {@code s} is in pool {@code pool} (false for a negative pool). $O(w)$. */
    boolean inPool(int s, int pool) {
        int only = onlyPool[s];
        if (only != POOLS) {
            return pool >= 0 && only == pool;
        }
        int[] p = pools[s];
        if (p != null && pool >= 0) {
            for (int x : p) {
                if (x == pool) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Reads what {@link #inPool} and a re-rank read of server {@code s} and returns their sum; changes nothing. */
    double touch(int s) {
        int[] p = pools[s];
        return onlyPool[s] + (p == null ? 0 : p[0]);
    }
}
