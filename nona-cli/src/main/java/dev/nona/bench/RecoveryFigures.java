package dev.nona.bench;

import dev.nona.calibration.NearestRank;
import dev.nona.check.Checks;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a recovery run's requests show around one fault, from each request's scheduled send time and the receipt
 * time of its first decision (both {@link System#nanoTime()} of the bench's JVM, as {@link LatencyRecorder} keeps
 * them): the latency per {@link #WINDOW} window of scheduled send time, each labelled before, during or after the
 * fault; and how the backlog the fault left drained.
 *
 * <p>The backlog at a time {@code T} is the requests scheduled by {@code T} (less those whose send failed: the broker
 * never accepted them) without a decision by {@code T}. Decisions have <em>caught up</em> at the first decision
 * receipt, from the first decision of the recovered controller on, at which the backlog is no larger than what is
 * normally in flight: the requests of {@code max(2 x p99, 100 ms)}, the p99 of the requests decided before the fault. The drain rate is the decisions
 * received from that first decision until caught up, per second, as a multiple of the arrival rate.
 */
final class RecoveryFigures {
    /** The width of a latency window (by scheduled send time). */
    static final long WINDOW = 5_000_000_000L;
    /** The least latency counted as normally in flight when deciding that decisions caught up. */
    static final double MIN_IN_FLIGHT_MILLIS = 100;

    /**
     * One window's latencies.
     *
     * @param startSecond the window's start, seconds from the first scheduled request
     * @param phase       {@code before} (ends by the fault's start), {@code after} (starts at or after its end) or
     *                    {@code during}
     */
    record Window(long startSecond, String phase, long sent, long decided, double p50Millis, double p99Millis) {
        Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("startSecond", startSecond);
            m.put("phase", phase);
            m.put("sent", sent);
            m.put("decided", decided);
            m.put("p50Millis", p50Millis);
            m.put("p99Millis", p99Millis);
            return m;
        }
    }

    /**
     * @param p99BeforeMillis          p99 latency of the requests decided before the fault's start (those the fault
     *                                 held up count in its windows, not here)
     * @param firstDecisionMillis      from the fault's end to the receipt of the recovered controller's first
     *                                 decision (NaN: none)
     * @param backlogAtFirstDecision   the backlog when that decision arrived
     * @param caughtUpMillis           from the fault's end until decisions caught up (NaN: never)
     * @param drainRateMultiple        decisions per second from the first decision until caught up, over the arrival
     *                                 rate (NaN: nothing to drain)
     * @param inFlightMillis           the latency whose requests count as normally in flight
     */
    record Drain(double p99BeforeMillis, double firstDecisionMillis, long backlogAtFirstDecision,
            double caughtUpMillis, double drainRateMultiple, double inFlightMillis) {}

    private RecoveryFigures() {}

    /**
     * The windows of the requests scheduled so far ({@code scheduled[i] != 0}); {@code faultStart} and
     * {@code faultEnd} in the same clock.
     */
    static List<Window> windows(long[] scheduled, long[] received, Set<Integer> failed, long faultStart,
            long faultEnd) {
        check(scheduled, received);
        int n = scheduledCount(scheduled);
        if (n == 0) {
            return List.of();
        }
        long t0 = scheduled[0];
        int buckets = (int) ((scheduled[n - 1] - t0) / WINDOW) + 1;
        List<List<Long>> latencies = new ArrayList<>();
        long[] sent = new long[buckets];
        for (int b = 0; b < buckets; b++) {
            latencies.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            if (failed.contains(i)) {
                continue;
            }
            int b = (int) ((scheduled[i] - t0) / WINDOW);
            sent[b]++;
            if (received[i] != 0) {
                latencies.get(b).add(received[i] - scheduled[i]);
            }
        }
        List<Window> out = new ArrayList<>();
        for (int b = 0; b < buckets; b++) {
            long ws = t0 + b * WINDOW;
            long we = ws + WINDOW;
            String phase = we - faultStart <= 0 ? "before" : ws - faultEnd >= 0 ? "after" : "during";
            long[] lat = latencies.get(b).stream().mapToLong(Long::longValue).toArray();
            Arrays.sort(lat);
            out.add(new Window(b * WINDOW / 1_000_000_000L, phase, sent[b], lat.length, rank(lat, 0.50),
                    rank(lat, 0.99)));
        }
        return out;
    }

    /**
     * How the backlog drained.
     *
     * @param firstDecision receipt time of the recovered controller's first decision (0: none)
     * @param rate          the arrival rate, requests per second
     */
    static Drain drain(long[] scheduled, long[] received, Set<Integer> failed, long faultStart, long faultEnd,
            long firstDecision, double rate) {
        check(scheduled, received);
        Checks.positive(rate, "rate");
        int n = scheduledCount(scheduled);
        List<Long> before = new ArrayList<>();
        List<Long> sentTimes = new ArrayList<>();
        List<Long> receipts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (failed.contains(i)) {
                continue;
            }
            sentTimes.add(scheduled[i]);
            if (received[i] != 0) {
                receipts.add(received[i]);
                if (received[i] - faultStart < 0) {
                    before.add(received[i] - scheduled[i]);
                }
            }
        }
        long[] beforeLat = before.stream().mapToLong(Long::longValue).sorted().toArray();
        double p99Before = rank(beforeLat, 0.99);
        double inFlightMillis = Math.max(2 * p99Before, MIN_IN_FLIGHT_MILLIS);
        if (firstDecision == 0) {
            return new Drain(p99Before, Double.NaN, -1, Double.NaN, Double.NaN, inFlightMillis);
        }
        long[] sent = sentTimes.stream().mapToLong(Long::longValue).sorted().toArray();
        long[] got = receipts.stream().mapToLong(Long::longValue).sorted().toArray();
        long normal = (long) Math.ceil(rate * inFlightMillis / 1000.0);
        long backlogAtFirst = backlog(sent, got, firstDecision);
        int from = firstIndexAtOrAfter(got, firstDecision);
        double caughtUp = Double.NaN;
        double multiple = Double.NaN;
        long t = firstDecision;
        int k = from;
        while (true) {
            if (backlog(sent, got, t) <= normal) {
                caughtUp = millis(t - faultEnd);
                long decisions = countAtOrBefore(got, t) - countBefore(got, firstDecision);
                double seconds = (t - firstDecision) / 1e9;
                multiple = seconds > 0 && decisions > 0 ? decisions / seconds / rate : Double.NaN;
                break;
            }
            if (k >= got.length) {
                break;
            }
            t = got[k++];
        }
        return new Drain(p99Before, millis(firstDecision - faultEnd), backlogAtFirst, caughtUp,
                Double.isNaN(multiple) ? Double.NaN : Math.round(multiple * 100) / 100.0, inFlightMillis);
    }

    /** Requests scheduled by {@code t} without a decision by {@code t}. */
    private static long backlog(long[] sent, long[] got, long t) {
        return countAtOrBefore(sent, t) - countAtOrBefore(got, t);
    }

    private static int countAtOrBefore(long[] sorted, long t) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] - t <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static int countBefore(long[] sorted, long t) {
        return firstIndexAtOrAfter(sorted, t);
    }

    private static int firstIndexAtOrAfter(long[] sorted, long t) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] - t < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static int scheduledCount(long[] scheduled) {
        int n = 0;
        while (n < scheduled.length && scheduled[n] != 0) {
            n++;
        }
        return n;
    }

    private static void check(long[] scheduled, long[] received) {
        if (scheduled.length != received.length) {
            throw new IllegalArgumentException("scheduled (" + scheduled.length + ") and received ("
                    + received.length + ") must be of one length");
        }
    }

    /** Nearest rank, in milliseconds to 0.01; NaN when there is no latency. */
    private static double rank(long[] sorted, double q) {
        return sorted.length == 0 ? Double.NaN : millis(NearestRank.of(sorted, q));
    }

    private static double millis(long nanos) {
        return Math.round(nanos / 10_000.0) / 100.0;
    }
}
