package dev.nona.controller.serde;

import java.util.Arrays;

/**
 * A bounded map from ids to their JSON fragments, open addressing with linear probing: slot {@code k} holds the id
 * at {@code 2k} and its fragment at {@code 2k + 1}, side by side, so that a look-up of one of thousands of ids costs
 * one cache miss for the slot (ids are mostly the very instances stored, compared by reference first, then by
 * value). Every id keeps its entry (a direct-mapped cache lost about a quarter of 10,000 servers' entries to
 * collisions). It starts at {@link #MIN_SLOTS} slots and doubles when half full, up to {@link #MAX_SLOTS}; when half
 * full at that size, it is cleared.
 *
 * <p>Not thread safe: one per {@link IdCache}.
 */
final class IdTable {
    /** Slots at first. */
    static final int MIN_SLOTS = 1 << 10;
    /** The largest table; when half full at that size, it is cleared. */
    static final int MAX_SLOTS = 1 << 18;

    private Object[] slots = new Object[2 * MIN_SLOTS];
    private int count;

    /** The fragment stored for {@code id}, or null. */
    byte[] get(String id) {
        Object[] table = slots;
        int mask = table.length / 2 - 1;
        int slot = slot(id.hashCode(), mask);
        for (Object known = table[2 * slot]; known != null; known = table[2 * slot]) {
            if (known == id || known.equals(id)) {
                return (byte[]) table[2 * slot + 1];
            }
            slot = (slot + 1) & mask;
        }
        return null;
    }

    /** Stores {@code fragment} for {@code id}, which {@link #get} does not find. */
    void put(String id, byte[] fragment) {
        if (2 * (count + 1) > slots.length / 2) {
            grow();
        }
        Object[] table = slots;
        int mask = table.length / 2 - 1;
        int slot = slot(id.hashCode(), mask);
        while (table[2 * slot] != null) {
            slot = (slot + 1) & mask;
        }
        table[2 * slot] = id;
        table[2 * slot + 1] = fragment;
        count++;
    }

    /** Ids stored. */
    int size() {
        return count;
    }

    /** Slots of the table now (a power of two between {@link #MIN_SLOTS} and {@link #MAX_SLOTS}). */
    int capacity() {
        return slots.length / 2;
    }

    /** A slot for hash {@code h} under {@code mask}: ids like s1, s2, ... spread out. */
    static int slot(int h, int mask) {
        return ((h * 0x9E3779B9) ^ ((h * 0x9E3779B9) >>> 16)) & mask;
    }

    /** Doubles the table, or clears it when it is at its largest. */
    private void grow() {
        Object[] old = slots;
        if (old.length / 2 >= MAX_SLOTS) {
            Arrays.fill(old, null);
            count = 0;
            return;
        }
        Object[] table = new Object[2 * old.length];
        int mask = table.length / 2 - 1;
        for (int i = 0; i < old.length; i += 2) {
            if (old[i] != null) {
                int slot = slot(old[i].hashCode(), mask);
                while (table[2 * slot] != null) {
                    slot = (slot + 1) & mask;
                }
                table[2 * slot] = old[i];
                table[2 * slot + 1] = old[i + 1];
            }
        }
        slots = table;
    }
}
