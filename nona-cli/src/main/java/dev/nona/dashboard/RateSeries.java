package dev.nona.dashboard;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts per key (a model, a server) in one-second buckets of event time, keeping the last {@code horizonSeconds}
 * seconds before the newest event seen; older buckets are dropped. Not thread-safe: {@link DashboardState} guards it.
 */
final class RateSeries {
    private final int horizonSeconds;
    /** second (epoch) -> key -> count */
    private final TreeMap<Long, Map<String, Long>> buckets = new TreeMap<>();
    private long newestSecond;

    RateSeries(int horizonSeconds) {
        if (horizonSeconds < 1) {
            throw new IllegalArgumentException("horizon (" + horizonSeconds + " s) must be >= 1");
        }
        this.horizonSeconds = horizonSeconds;
    }

    void add(String key, long eventTimeMillis, long count) {
        long second = Math.floorDiv(eventTimeMillis, 1000L);
        boolean first = buckets.isEmpty();
        if (!first && second <= newestSecond - horizonSeconds) {
            return; // older than the horizon: a late record does not move the chart
        }
        buckets.computeIfAbsent(second, s -> new TreeMap<>()).merge(key, count, Long::sum);
        if (first || second > newestSecond) {
            newestSecond = second;
            buckets.headMap(newestSecond - horizonSeconds, true).clear();
        }
    }

    /** Epoch seconds from the oldest to the newest bucket, every second (gaps are zero), or empty. */
    List<Long> seconds() {
        List<Long> out = new ArrayList<>();
        if (buckets.isEmpty()) {
            return out;
        }
        for (long s = buckets.firstKey(); s <= newestSecond; s++) {
            out.add(s);
        }
        return out;
    }

    /** Per key, the count of each of {@link #seconds()} (the newest second is still filling). */
    Map<String, List<Long>> perKey() {
        List<Long> seconds = seconds();
        Map<String, List<Long>> out = new TreeMap<>();
        buckets.values().forEach(b -> b.keySet().forEach(k -> out.putIfAbsent(k, new ArrayList<>())));
        out.forEach((key, counts) -> seconds.forEach(s -> counts.add(buckets.getOrDefault(s, Map.of()).getOrDefault(key, 0L))));
        return out;
    }

    /**
     * Per key, the mean count per second over the {@code seconds} full seconds before the newest (still filling)
     * one; empty when no bucket is there.
     */
    Map<String, Double> meanPerSecond(int seconds) {
        Map<String, Double> out = new TreeMap<>();
        if (buckets.isEmpty()) {
            return out;
        }
        Map<String, Long> sums = new TreeMap<>();
        buckets.subMap(newestSecond - seconds, true, newestSecond, false).values()
                .forEach(b -> b.forEach((k, n) -> sums.merge(k, n, Long::sum)));
        sums.forEach((k, n) -> out.put(k, n / (double) seconds));
        return out;
    }
}
