package dev.nona.bench;

import dev.nona.calibration.NearestRank;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * End-to-end latencies of {@code n} requests on one clock ({@link System#nanoTime()} of this JVM): request
 * {@code i} is stamped with its <em>scheduled</em> send time (open loop: a producer that falls behind its
 * schedule adds its lag to the latency instead of hiding it, so coordinated omission cannot flatter the result),
 * and with the time its first decision was received. A second decision for a request is a duplicate; its latency
 * is not counted (the first decision per request id wins).
 *
 * <p>Thread safe: the producer and the consumer may call it from their own threads.
 */
public final class LatencyRecorder {
    /** The percentiles of the decided requests' latencies, in milliseconds. */
    public record Percentiles(double p50, double p90, double p99, double max) {}

    private final long[] scheduled;
    private final long[] received;
    private long decided;
    private long duplicates;
    private int scheduledCount;

    public LatencyRecorder(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("requests (" + n + ") must be >= 0");
        }
        scheduled = new long[n];
        received = new long[n];
    }

    public int size() {
        return scheduled.length;
    }

    /** Request {@code i} is (to be) sent at {@code nanos}. */
    public synchronized void scheduled(int i, long nanos) {
        scheduled[i] = nanos;
        scheduledCount = Math.max(scheduledCount, i + 1);
    }

    /** How many requests have been scheduled (the highest index so far, plus one). */
    public synchronized int scheduledCount() {
        return scheduledCount;
    }

    /** The latencies (ms) of the decided requests with index in {@code [from, to)}. */
    public synchronized double[] latenciesScheduledBetween(long from, long to) {
        List<Double> out = new ArrayList<>();
        for (int i = (int) Math.max(0, from); i < Math.min(to, received.length); i++) {
            if (received[i] != 0) {
                out.add(millis(received[i] - scheduled[i]));
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** The latencies (ms) of the decided requests scheduled in {@code [fromNanos, toNanos)}. */
    public synchronized double[] latenciesScheduledIn(long fromNanos, long toNanos) {
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < scheduledCount; i++) {
            if (received[i] != 0 && scheduled[i] - fromNanos >= 0 && scheduled[i] - toNanos < 0) {
                out.add(millis(received[i] - scheduled[i]));
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** A copy of each request's scheduled send time ({@link System#nanoTime()}; 0: not scheduled yet). */
    public synchronized long[] scheduledNanos() {
        return scheduled.clone();
    }

    /** A copy of each request's first decision's receipt time ({@link System#nanoTime()}; 0: none). */
    public synchronized long[] receivedNanos() {
        return received.clone();
    }

    /** A decision for request {@code i} arrived at {@code nanos}; returns false for a duplicate. */
    public synchronized boolean received(int i, long nanos) {
        if (received[i] != 0) {
            duplicates++;
            return false;
        }
        received[i] = nanos == 0 ? 1 : nanos;
        decided++;
        return true;
    }

    public synchronized long decided() {
        return decided;
    }

    public synchronized long duplicates() {
        return duplicates;
    }

    /**
     * Nearest-rank percentiles ({@link NearestRank}: the smallest latency with at least q of the decided ones at or
     * below it) of the decided requests; all zero when none is decided.
     */
    public synchronized Percentiles percentiles() {
        return percentilesBetween(0, received.length);
    }

    /** {@link #percentiles()} of the decided requests with index in {@code [from, to)}. */
    public synchronized Percentiles percentilesBetween(long from, long to) {
        int lo = (int) Math.max(0, from);
        int hi = (int) Math.min(to, received.length);
        long[] lat = new long[Math.max(0, hi - lo)];
        int k = 0;
        for (int i = lo; i < hi; i++) {
            if (received[i] != 0) {
                lat[k++] = received[i] - scheduled[i];
            }
        }
        lat = Arrays.copyOf(lat, k);
        Arrays.sort(lat);
        return new Percentiles(millis(rank(lat, 0.50)), millis(rank(lat, 0.90)), millis(rank(lat, 0.99)),
                millis(lat.length == 0 ? 0 : lat[lat.length - 1]));
    }

    /**
     * The largest latency, in milliseconds, of the decided requests scheduled in each {@code bucketNanos} from the
     * first one: where the tail happened (e.g. every checkpoint interval, or one long pause).
     */
    public synchronized double[] maxByBucket(long bucketNanos) {
        if (scheduled.length == 0) {
            return new double[0];
        }
        long t0 = scheduled[0];
        double[] max = new double[(int) ((scheduled[scheduled.length - 1] - t0) / bucketNanos) + 1];
        for (int i = 0; i < received.length; i++) {
            if (received[i] != 0) {
                int b = (int) ((scheduled[i] - t0) / bucketNanos);
                max[b] = Math.max(max[b], millis(received[i] - scheduled[i]));
            }
        }
        return max;
    }

    /**
     * The wall-clock time (epoch milliseconds) at which the first request was scheduled, for lining the buckets of
     * {@link #maxByBucket} up with logs; 0 when there is none.
     */
    public synchronized long firstScheduledEpochMillis() {
        if (scheduled.length == 0) {
            return 0;
        }
        return System.currentTimeMillis() - (System.nanoTime() - scheduled[0]) / 1_000_000L;
    }

    /** {@link NearestRank}'s percentile; 0 when there is no latency. */
    private static long rank(long[] sorted, double q) {
        return sorted.length == 0 ? 0 : NearestRank.of(sorted, q);
    }

    /** Nanoseconds as milliseconds, to 0.01 ms. */
    private static double millis(long nanos) {
        return Math.round(nanos / 10_000.0) / 100.0;
    }
}
