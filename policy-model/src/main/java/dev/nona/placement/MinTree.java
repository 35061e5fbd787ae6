package dev.nona.placement;

import java.util.Arrays;
import java.util.function.IntToDoubleFunction;

/**
 * A tournament tree over a growing set of servers (ints), each present or absent, that gives the present server of
 * least key in $O(1)$ and re-ranks one server in $O(\log n)$ after its key changed or it came and went. Each node has
 * four children, side by side in the arrays: half the levels of a binary tree (7 at 10,000 servers, not 14). Keys
 * are read through a function, so one server's key is shared by every tree it is in; ties go to the lower server
 * index.
 * Slots of removed servers are reused when the tree grows (it is compacted first when at most half is in use).
 *
 * <p>Each node keeps its winner's key beside it, read once from the function when that server's leaf is fixed, so
 * a re-rank compares adjacent keys in the tree's own arrays instead of looking up two servers' keys per level (at
 * thousands of servers those look-ups were cache misses). The caller must therefore {@link #update} a present
 * member whenever its key changes (the ledger does, for every tree the server is in). A re-rank stops climbing at
 * the first node whose winner is neither changed nor the re-ranked server: above it nothing changed.
 *
 * <p>In a deferred tree {@link #update} only marks the member: its leaf is re-ranked at the next {@link #min} (or
 * when it comes, goes or the tree grows). A tree that is read less often than its members change then pays one
 * re-rank per member changed between two reads instead of one per change: the ledger's tree of every up server,
 * read only when no warm server is under the target, is re-ranked for every request and every report at thousands
 * of servers (most levels cache misses). A tree read at every pick (a warm pool's) stays eager: deferring it
 * only moved its re-ranks into the pick, and measured slower in the pipeline benchmark. The least member is unique
 * (least key, then lowest index), so {@link #min} is the same as with eager re-ranks. Not thread-safe.
 */
final class MinTree {
    private final IntToDoubleFunction key;
    private final boolean deferred;
    /** Children per node. */
    private static final int ARITY = 4;
    /**
     * Leaves: {@code cap} slots (a power of {@link #ARITY}) at nodes {@code cap .. 2 cap - 1}; node {@code i}'s
     * children are {@code 4i .. 4i + 3}; node 1 is the root (nodes {@code 2k .. 4k - 1} for a power {@code k} of 4
     * are unused).
     */
    private int cap = 1;
    private int[] node = {-1, -1};
    /** The key of {@code node[i]}'s server, as of the last fix of its leaf (undefined where {@code node[i] < 0}). */
    private double[] nodeKey = new double[2];
    /** Slots in use (some may hold removed servers: {@code server[slot] == -1}). */
    private int used;
    private int live;
    private int[] server = {-1};
    private boolean[] present = new boolean[1];
    /** Each server's slot, or -1 when it is not a member. */
    private int[] slotOf = new int[0];
    /** Slots whose key changed since their leaf was fixed ({@link #update}), in {@code pending[0..pendingCount)}. */
    private boolean[] stale = new boolean[1];
    private int[] pending = new int[1];
    private int pendingCount;

    MinTree(IntToDoubleFunction key) {
        this(key, false);
    }

    /** @param deferred whether {@link #update} only marks the member, to be re-ranked at the next {@link #min} */
    MinTree(IntToDoubleFunction key, boolean deferred) {
        this.key = key;
        this.deferred = deferred;
    }

    boolean contains(int s) {
        return s < slotOf.length && slotOf[s] >= 0;
    }

    /** Adds server {@code s}, present or not; it must not be a member. */
    void add(int s, boolean isPresent) {
        if (s >= slotOf.length) {
            int old = slotOf.length;
            slotOf = Arrays.copyOf(slotOf, Math.max(s + 1, 2 * old));
            Arrays.fill(slotOf, old, slotOf.length, -1);
        }
        if (slotOf[s] >= 0) {
            throw new IllegalStateException("BUG: server " + s + " is in the tree already");
        }
        if (used == cap) {
            grow();
        }
        int slot = used++;
        server[slot] = s;
        present[slot] = isPresent;
        slotOf[s] = slot;
        live++;
        fix(slot, s);
    }

    /** Removes server {@code s} if it is a member. */
    void remove(int s) {
        if (!contains(s)) {
            return;
        }
        int slot = slotOf[s];
        slotOf[s] = -1;
        server[slot] = -1;
        present[slot] = false;
        live--;
        fix(slot, s);
    }

    /** Marks member {@code s} present or absent (no-op for a non-member). */
    void set(int s, boolean isPresent) {
        if (!contains(s)) {
            return;
        }
        int slot = slotOf[s];
        if (present[slot] != isPresent) {
            present[slot] = isPresent;
            fix(slot, s);
        }
    }

    boolean present(int s) {
        return contains(s) && present[slotOf[s]];
    }

    /** Re-ranks member {@code s} after its key changed: now, or at the next {@link #min} when deferred. */
    void update(int s) {
        if (contains(s)) {
            int slot = slotOf[s];
            if (!deferred) {
                if (present[slot]) {
                    fix(slot, s);
                }
                return;
            }
            if (present[slot] && !stale[slot]) {
                if (pendingCount == pending.length) {
                    refresh(); // a slot fixed since it was marked (set, remove) may be listed again
                }
                stale[slot] = true;
                pending[pendingCount++] = slot;
            }
        }
    }

    /**
     * Reads what an update of member {@code s} reads first (its slot's flags, its leaf and the two levels above) and
     * returns a sum of them; changes nothing ({@link ReadAhead}).
     */
    double touch(int s) {
        if (!contains(s)) {
            return 0;
        }
        int slot = slotOf[s];
        int i = cap + slot;
        return nodeKey[i] + node[i] + nodeKey[i >> 2] + node[i >> 2] + nodeKey[i >> 4] + node[i >> 4]
                + (present[slot] ? 1 : 0) + (stale[slot] ? 1 : 0);
    }

    /** The present member of least key (lowest index on ties), or -1 when none is present. */
    int min() {
        if (pendingCount > 0) {
            refresh();
        }
        return node[1];
    }

    /** Re-ranks the members whose key changed since the last {@link #min}. */
    private void refresh() {
        for (int i = 0; i < pendingCount; i++) {
            int slot = pending[i];
            if (stale[slot]) { // else fixed since, or removed
                fix(slot, server[slot]);
            }
        }
        pendingCount = 0;
    }

    int size() {
        return live;
    }

    /** Re-ranks leaf {@code slot}, whose server {@code s} changed key or presence, up to where nothing changes. */
    private void fix(int slot, int s) {
        stale[slot] = false;
        int i = cap + slot;
        int leaf = present[slot] ? server[slot] : -1;
        node[i] = leaf;
        if (leaf >= 0) {
            nodeKey[i] = key.applyAsDouble(leaf);
        }
        for (i >>= 2; i >= 1; i >>= 2) {
            int winner = winner(4 * i);
            int w = node[winner];
            if (w == node[i] && w != s) {
                return; // the same server wins here with the same key: nothing above changes
            }
            node[i] = w;
            nodeKey[i] = nodeKey[winner];
        }
    }

    /**
     * Of sibling nodes {@code first .. first + 3}, the one whose server wins (least key, then lowest index; the first
     * when all are empty).
     */
    private int winner(int first) {
        int best = first;
        int b = node[first];
        double kb = nodeKey[first];
        for (int c = first + 1; c < first + ARITY; c++) {
            int x = node[c];
            if (x < 0) {
                continue;
            }
            double kx = nodeKey[c];
            if (b < 0 || kx < kb || (kx == kb && x < b)) {
                best = c;
                b = x;
                kb = kx;
            }
        }
        return best;
    }

    private void grow() {
        pendingCount = 0; // every leaf is fixed below, from the current keys
        int[] servers = new int[live];
        boolean[] flags = new boolean[live];
        int k = 0;
        for (int slot = 0; slot < used; slot++) {
            if (server[slot] >= 0) {
                servers[k] = server[slot];
                flags[k++] = present[slot];
            }
        }
        if (live * 2 > cap) {
            cap *= ARITY;
        }
        node = new int[2 * cap];
        nodeKey = new double[2 * cap];
        server = new int[cap];
        present = new boolean[cap];
        stale = new boolean[cap];
        pending = new int[cap];
        Arrays.fill(node, -1);
        Arrays.fill(server, -1);
        used = live;
        for (int slot = 0; slot < live; slot++) {
            server[slot] = servers[slot];
            present[slot] = flags[slot];
            slotOf[servers[slot]] = slot;
            node[cap + slot] = flags[slot] ? servers[slot] : -1;
            if (flags[slot]) {
                nodeKey[cap + slot] = key.applyAsDouble(servers[slot]);
            }
        }
        for (int level = cap / ARITY; level >= 1; level /= ARITY) { // the nodes of a level: level .. 2 level - 1
            for (int i = level; i < 2 * level; i++) {
                int winner = winner(ARITY * i);
                node[i] = node[winner];
                nodeKey[i] = nodeKey[winner];
            }
        }
    }
}
