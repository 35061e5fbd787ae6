package dev.nona.placement;

import java.util.Arrays;
import java.util.function.IntToDoubleFunction;

/**
 * A tournament tree over a growing set of servers (ints), each present or absent, that gives the present server of
 * least key in $O(1)$ and re-ranks one server in $O(\log n)$ after its key changed or it came and went. Keys are read
 * through a function, so one server's key is shared by every tree it is in; ties go to the lower server index.
 * Slots of removed servers are reused when the tree grows (it is compacted first when at most half is in use).
 * Not thread-safe.
 */
final class MinTree {
    private final IntToDoubleFunction key;
    /** Leaves: {@code cap} slots; node {@code i}'s children are {@code 2i, 2i + 1}; node 1 is the root. */
    private int cap = 1;
    private int[] node = {-1, -1};
    /** Slots in use (some may hold removed servers: {@code server[slot] == -1}). */
    private int used;
    private int live;
    private int[] server = {-1};
    private boolean[] present = new boolean[1];
    /** Each server's slot, or -1 when it is not a member. */
    private int[] slotOf = new int[0];

    MinTree(IntToDoubleFunction key) {
        this.key = key;
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
        fix(slot);
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
        fix(slot);
    }

    /** Marks member {@code s} present or absent (no-op for a non-member). */
    void set(int s, boolean isPresent) {
        if (!contains(s)) {
            return;
        }
        int slot = slotOf[s];
        if (present[slot] != isPresent) {
            present[slot] = isPresent;
            fix(slot);
        }
    }

    boolean present(int s) {
        return contains(s) && present[slotOf[s]];
    }

    /** Re-ranks member {@code s} after its key changed. */
    void update(int s) {
        if (contains(s) && present[slotOf[s]]) {
            fix(slotOf[s]);
        }
    }

    /** The present member of least key (lowest index on ties), or -1 when none is present. */
    int min() {
        return node[1];
    }

    int size() {
        return live;
    }

    private void fix(int slot) {
        int i = cap + slot;
        node[i] = present[slot] ? server[slot] : -1;
        for (i >>= 1; i >= 1; i >>= 1) {
            node[i] = better(node[2 * i], node[2 * i + 1]);
        }
    }

    private int better(int a, int b) {
        if (a < 0) {
            return b;
        }
        if (b < 0) {
            return a;
        }
        double ka = key.applyAsDouble(a);
        double kb = key.applyAsDouble(b);
        return ka < kb || (ka == kb && a < b) ? a : b;
    }

    private void grow() {
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
            cap *= 2;
        }
        node = new int[2 * cap];
        server = new int[cap];
        present = new boolean[cap];
        Arrays.fill(node, -1);
        Arrays.fill(server, -1);
        used = live;
        for (int slot = 0; slot < live; slot++) {
            server[slot] = servers[slot];
            present[slot] = flags[slot];
            slotOf[servers[slot]] = slot;
            node[cap + slot] = flags[slot] ? servers[slot] : -1;
        }
        for (int i = cap - 1; i >= 1; i--) {
            node[i] = better(node[2 * i], node[2 * i + 1]);
        }
    }
}
