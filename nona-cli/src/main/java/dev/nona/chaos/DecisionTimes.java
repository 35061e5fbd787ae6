package dev.nona.chaos;

import java.util.BitSet;

/**
 * When the controller wrote decisions, to the millisecond: a bit per millisecond from an origin (epoch ms), set when
 * a decision's record timestamp falls in it. A record timestamp is in milliseconds, so what it answers is exact:
 * the first write after a time, the last at or before it. Decisions arrive out of their write order (partitions,
 * lag); the bits do not care. Its memory is a bit per millisecond of the run (450 KB an hour), whatever the rate.
 * Write times before the origin, or {@link #SPAN_MILLIS} (a day) or more after it, are not kept
 * ({@link #untimed()}): a stray far-future timestamp must not grow the bits. Not thread safe.
 */
final class DecisionTimes {
    /** How long after the origin write times are kept: a day (11 MB of bits at most). */
    static final int SPAN_MILLIS = 86_400_000;

    private final long origin;
    private final BitSet written = new BitSet();
    private long untimed;

    /** @param originEpochMillis the earliest write time kept */
    DecisionTimes(long originEpochMillis) {
        this.origin = originEpochMillis;
    }

    /** A decision written (its record timestamp) at {@code writtenAt}, epoch ms. */
    void add(long writtenAt) {
        long i = writtenAt - origin;
        if (i < 0 || i >= SPAN_MILLIS) {
            untimed++;
            return;
        }
        written.set((int) i);
    }

    /** The first write time strictly after {@code t} (epoch ms), or -1 when none was. */
    long firstAfter(long t) {
        long from = Math.max(t + 1 - origin, 0);
        if (from >= Integer.MAX_VALUE) {
            return -1;
        }
        int i = written.nextSetBit((int) from);
        return i < 0 ? -1 : origin + i;
    }

    /** The last write time at or before {@code t} (epoch ms), or -1 when none was. */
    long lastAtOrBefore(long t) {
        long at = Math.min(t - origin, Integer.MAX_VALUE - 1L);
        if (at < 0) {
            return -1;
        }
        int i = written.previousSetBit((int) at);
        return i < 0 ? -1 : origin + i;
    }

    /** Decisions whose write time was not kept (before the origin, or too far after it). */
    long untimed() {
        return untimed;
    }
}
