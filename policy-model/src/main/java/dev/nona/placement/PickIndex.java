package dev.nona.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The trees a {@link ServerLedger#pick} reads, so that it never scans the servers. Each pool (a warm pool, and pool
 * 0 of every server once asked for) keeps its up servers that are not parked in two {@link MinTree}s keyed by
 * predicted idle time ({@link LoadForecast#idleAt}), one for the servers this placer owns and one for the others;
 * two more trees hold every up server (by owner), and one the parked servers keyed by when they are predicted to
 * fall under the target. A server found at the target by {@link #leastWarm} is parked: out of its pools until that
 * time ({@link #unpark}) or its next report ({@link #reported}).
 *
 * <p>Every change of a server's idle time, presence (up, parked) or owner must reach its trees: the ledger calls
 * {@link #reranked} and {@link #present} after each. A re-rank costs $O(w \log N)$ for a server in $w$ pools. The
 * tree of every up server is deferred ({@link MinTree}): it is read only when no warm server is under the target.
 * Not thread-safe.
 */
final class PickIndex {
    private static final int MINE = 0;
    private static final int OTHERS = 1;

    private final LoadForecast forecast;
    private final WarmPools pools;
    private final UpServers up;
    private final int target;
    private boolean[] owned = new boolean[0];
    private boolean[] parked = new boolean[0];
    /** For a parked server: when its count is predicted to fall under the target. */
    private double[] underFrom = new double[0];
    /** By owner ({@link #MINE}, {@link #OTHERS}): every up server, by predicted idle time. */
    private final MinTree[] any;
    /** By pool + 1 (0: every server), then owner: the pool's up servers not parked, by predicted idle time. */
    private final List<MinTree[]> under = new ArrayList<>();
    /** Whether pool 0 (every server) is kept: from the first pick of {@link ServerLedger#EVERY_SERVER} on. */
    private boolean everyPool;
    private final MinTree parkedTree = new MinTree(s -> underFrom[s]);
    /** Scratch for {@link #least}: servers taken out of a tree for the current search. */
    private int[] skipped = new int[8];

    PickIndex(LoadForecast forecast, WarmPools pools, UpServers up, int target) {
        this.forecast = forecast;
        this.pools = pools;
        this.up = up;
        this.target = target;
        this.any = new MinTree[] {new MinTree(forecast::idleAt, true), new MinTree(forecast::idleAt, true)};
        under.add(new MinTree[] {tree(), tree()});
    }

    private MinTree tree() {
        return new MinTree(forecast::idleAt);
    }

    /** Adds server {@code s} (the next index), owned, not up, in no pool. */
    void addServer(int s) {
        if (s == owned.length) {
            int c = Math.max(4, 2 * s);
            owned = Arrays.copyOf(owned, c);
            parked = Arrays.copyOf(parked, c);
            underFrom = Arrays.copyOf(underFrom, c);
        }
        owned[s] = true;
        any[MINE].add(s, false);
        if (everyPool) {
            under.get(0)[MINE].add(s, false);
        }
        parkedTree.add(s, false);
    }

    boolean owns(int s) {
        return owned[s];
    }

    private int owner(int s) {
        return owned[s] ? MINE : OTHERS;
    }

    /** Moves server {@code s} to this placer's trees or the others'. */
    void setOwned(int s, boolean mine) {
        if (owned[s] == mine) {
            return;
        }
        int before = owner(s);
        owned[s] = mine;
        for (MinTree[] pool : memberships(s)) {
            pool[before].remove(s);
            pool[owner(s)].add(s, false);
        }
        present(s);
    }

    private List<MinTree[]> memberships(int s) {
        List<MinTree[]> m = new ArrayList<>();
        m.add(any);
        if (everyPool) {
            m.add(under.get(0));
        }
        if (pools.of(s) != null) {
            for (int p : pools.of(s)) {
                m.add(under.get(p + 1));
            }
        }
        return m;
    }

    /** Moves server {@code s} from its pools' trees to those of {@code warmPools}, and records them in the pools. */
    void setPools(int s, int[] warmPools) {
        int o = owner(s);
        if (pools.of(s) != null) {
            for (int p : pools.of(s)) {
                under.get(p + 1)[o].remove(s);
            }
        }
        pools.set(s, warmPools);
        for (int p : warmPools) {
            WarmPools.requirePool(s, p);
            while (under.size() <= p + 1) {
                under.add(new MinTree[] {tree(), tree()});
            }
            under.get(p + 1)[o].add(s, up.isUp(s) && !parked[s]);
        }
    }

    /** Sets server {@code s}'s presence in its trees from its flags (up, parked). */
    void present(int s) {
        int o = owner(s);
        any[o].set(s, up.isUp(s));
        boolean available = up.isUp(s) && !parked[s];
        if (everyPool) {
            under.get(0)[o].set(s, available);
        }
        if (pools.of(s) != null) {
            for (int p : pools.of(s)) {
                under.get(p + 1)[o].set(s, available);
            }
        }
        parkedTree.set(s, up.isUp(s) && parked[s]);
    }

    /** Re-ranks server {@code s} after its predicted idle time changed. */
    void reranked(int s) {
        int o = owner(s);
        any[o].update(s);
        if (everyPool) {
            under.get(0)[o].update(s);
        }
        if (pools.of(s) != null) {
            for (int p : pools.of(s)) {
                under.get(p + 1)[o].update(s);
            }
        }
    }

    /** Server {@code s} reported: it returns to its pools (the next pick looks at its new count), re-ranked. */
    void reported(int s) {
        parked[s] = false;
        present(s);
        reranked(s);
    }

    /** Keeps pool 0, of every server, from now on (the first pick of {@link ServerLedger#EVERY_SERVER}). */
    void keepEveryServer() {
        if (everyPool) {
            return;
        }
        everyPool = true;
        for (int x = 0; x < forecast.servers(); x++) {
            under.get(0)[owner(x)].add(x, up.isUp(x) && !parked[x]);
        }
    }

    /** Returns to their pools the parked servers whose count is predicted under the target at {@code now}. */
    void unpark(double now) {
        for (int s = parkedTree.min(); s >= 0 && underFrom[s] <= now; s = parkedTree.min()) {
            parked[s] = false;
            present(s);
        }
    }

    /** The pool's two trees ({@link ServerLedger#EVERY_SERVER}: pool 0), or null when nobody is in it. */
    private MinTree[] pool(int warmPool) {
        return warmPool == ServerLedger.NO_SERVER || warmPool + 1 >= under.size() ? null : under.get(warmPool + 1);
    }

    /**
     * The server of pool {@code warmPool} owned by this placer ({@code mine}) or not, not taken, under the target,
     * with the least predicted backlog at {@code now}; or -1. Servers found at the target are parked.
     */
    int leastWarm(int warmPool, boolean mine, ServerLedger.Taken taken, double now) {
        MinTree[] pool = pool(warmPool);
        return pool == null ? -1 : least(pool[mine ? MINE : OTHERS], taken, now, true);
    }

    /** The up server owned by this placer ({@code mine}) or not, not taken, with the least predicted backlog; or -1. */
    int leastBacklog(boolean mine, ServerLedger.Taken taken, double now) {
        return least(any[mine ? MINE : OTHERS], taken, now, false);
    }

    /**
     * The present server of {@code tree} not taken (and under the target if asked: one found at it is parked) with
     * the least predicted backlog, or -1; the taken ones are put back before returning.
     */
    private int least(MinTree tree, ServerLedger.Taken taken, double now, boolean underTarget) {
        int skips = 0;
        int found = -1;
        for (int s = tree.min(); s >= 0; s = tree.min()) {
            if (underTarget && forecast.ongoing(s, now) >= target) {
                underFrom[s] = forecast.underTargetFrom(s, target);
                parked[s] = true;
                present(s);
                continue;
            }
            if (!taken.taken(s)) {
                found = s;
                break;
            }
            if (skips == skipped.length) {
                skipped = Arrays.copyOf(skipped, 2 * skips);
            }
            skipped[skips++] = s;
            tree.set(s, false);
        }
        for (int i = 0; i < skips; i++) {
            tree.set(skipped[i], true);
        }
        return found;
    }

    /** The tree a pick of pool {@code warmPool} reads first, or null when there is none. */
    private MinTree firstTree(int warmPool) {
        if (warmPool == ServerLedger.EVERY_SERVER) {
            return everyPool ? under.get(0)[MINE] : null;
        }
        return warmPool < 0 || warmPool + 1 >= under.size() ? null : under.get(warmPool + 1)[MINE];
    }

    /** The server a pick of pool {@code warmPool} would start from (the least of this placer's), or -1 when none. */
    int next(int warmPool) {
        MinTree tree = firstTree(warmPool);
        return tree == null ? -1 : tree.min();
    }

    /**
     * Reads what a pick of pool {@code warmPool} and the re-ranks after it read first of server {@code s} (its
     * {@link #next}) in the trees, and returns their sum; changes nothing ({@link ReadAhead}).
     */
    double touch(int warmPool, int s) {
        MinTree tree = firstTree(warmPool);
        return tree == null ? 0 : tree.touch(s) + any[MINE].touch(s);
    }
}
