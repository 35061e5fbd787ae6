package dev.nona.controller.logging;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * Counts occurrences by class and hands out a summary at most once per interval: for per-record signals (dead
 * letters, late requests) that an operator should see in the log without a line per record. The caller logs the
 * summary. Not thread safe (one operator's task thread).
 */
public final class RateLimitedCounts {
    private final long intervalMillis;
    private final LongSupplier clock;
    private final Map<String, Long> counts = new TreeMap<>();
    private long windowStart;
    private long total;

    /** @param clock milliseconds, e.g. {@code System::currentTimeMillis} */
    public RateLimitedCounts(long intervalMillis, LongSupplier clock) {
        if (intervalMillis <= 0) {
            throw new IllegalArgumentException("log interval (" + intervalMillis + " ms) must be > 0");
        }
        this.intervalMillis = intervalMillis;
        this.clock = clock;
        this.windowStart = clock.getAsLong() - intervalMillis; // the first occurrence is summarised at once
    }

    /**
     * Counts one occurrence of {@code kind}; returns the counts since the last summary (and starts a new one) when
     * the interval has passed, else {@code null}.
     */
    public Map<String, Long> add(String kind) {
        counts.merge(kind, 1L, Long::sum);
        total++;
        return clock.getAsLong() - windowStart >= intervalMillis ? drain() : null;
    }

    /** The counts not yet summarised (empty if none), and starts a new interval. */
    public Map<String, Long> drain() {
        Map<String, Long> out = new TreeMap<>(counts);
        counts.clear();
        windowStart = clock.getAsLong();
        return out;
    }

    /** Occurrences since creation. */
    public long total() {
        return total;
    }
}
