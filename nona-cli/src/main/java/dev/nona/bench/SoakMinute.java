package dev.nona.bench;

import dev.nona.calibration.NearestRank;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One minute's figures of a soak ({@link SoakBenchmark}): the requests scheduled in it and their latencies, beside
 * what the {@link SoakSampler} saw at its end.
 *
 * @param minute            0-based
 * @param sent              requests scheduled in it
 * @param decided           of them, decided by the end of the run
 * @param p50Millis         their median latency, outside the probe (NaN: none decided)
 * @param p99Millis         their p99, outside the probe: without the requests scheduled from 1 s before this
 *                          benchmark's {@code jcmd} call for the full collection to its return (the probe's
 *                          own pause, which a busy machine stretches to seconds, is not the controller's)
 * @param p99AllMillis      the p99 of every request of the minute, the probe's pause included
 * @param probeExcluded     requests of the minute left out of {@code p50Millis} and {@code p99Millis}
 * @param kafkaP99Millis    p99 of the same requests' own receipt from {@code inference-requests}: Kafka alone
 * @param heapAfterGcBytes  the controller's heap after the full collection at its end (NaN: not measured)
 * @param heapFrom          {@code full-gc} (the requested full collection), {@code lowest-gc} (jcmd failed: the
 *                          lowest "after" of the minute's pauses) or {@code none}
 * @param heapCommittedBytes the heap committed after that collection
 * @param fullGcMillis      that collection's pause (NaN: none): it delays the next minute's first requests
 * @param gcPauses          the controller's other pauses in the minute
 * @param gcPauseMillis     their sum
 * @param checkpointBytes   the newest completed checkpoint's files at its end (NaN: none yet)
 * @param checkpoint        that checkpoint's directory name ({@code chk-N})
 * @param loadAverage       the machine's 1-minute load average at its end (NaN: unknown)
 * @param twinBacklog       at its end, decisions read by this benchmark's reader but not yet by the executor
 *                          twin (about; the two read on their own threads): a twin that falls behind delays
 *                          the outcomes, and the controller holds each decision until its outcome arrives
 *                          ({@code outcomes.max-wait}), so its heap and checkpoint grow with that backlog
 */
public record SoakMinute(int minute, long sent, long decided, double p50Millis, double p99Millis,
        double p99AllMillis, long probeExcluded, double kafkaP99Millis, double heapAfterGcBytes, String heapFrom,
        double heapCommittedBytes, double fullGcMillis, int gcPauses, double gcPauseMillis, double checkpointBytes,
        String checkpoint, double loadAverage, long twinBacklog) {
    Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("minute", minute);
        m.put("sent", sent);
        m.put("decided", decided);
        m.put("p50Millis", finite(p50Millis));
        m.put("p99Millis", finite(p99Millis));
        m.put("p99AllMillis", finite(p99AllMillis));
        m.put("probeExcluded", probeExcluded);
        m.put("kafkaP99Millis", finite(kafkaP99Millis));
        m.put("heapAfterGcBytes", whole(heapAfterGcBytes));
        m.put("heapFrom", heapFrom);
        m.put("heapCommittedBytes", whole(heapCommittedBytes));
        m.put("fullGcMillis", finite(fullGcMillis));
        m.put("gcPauses", gcPauses);
        m.put("gcPauseMillis", finite(gcPauseMillis));
        m.put("checkpointBytes", whole(checkpointBytes));
        m.put("checkpoint", checkpoint);
        m.put("loadAverage", finite(loadAverage));
        m.put("twinBacklog", twinBacklog);
        return m;
    }

    /** Each minute's counts and latencies from the recorders, beside what the sampler saw at its end. */
    static List<SoakMinute> of(SoakBenchmark.Settings s, LatencyRecorder latency, LatencyRecorder kafkaAlone,
            List<SoakSampler.Sample> samples, List<long[]> probes) {
        List<SoakMinute> out = new ArrayList<>();
        for (int m = 0; m < s.minutes(); m++) {
            long from = s.firstOf(m);
            long to = Math.min(s.requests(), s.firstOf(m + 1));
            double[] all = latency.latenciesScheduledBetween(from, to);
            Arrays.sort(all);
            List<double[]> parts = new ArrayList<>();
            long kept = 0;
            for (long[] range : outside(from, to, probes)) {
                parts.add(latency.latenciesScheduledBetween(range[0], range[1]));
                kept += range[1] - range[0];
            }
            double[] lat = parts.stream().flatMapToDouble(Arrays::stream).sorted().toArray();
            double[] kafka = kafkaAlone.latenciesScheduledBetween(from, to);
            Arrays.sort(kafka);
            SoakSampler.Sample x = m < samples.size() ? samples.get(m) : SoakSampler.Sample.NONE;
            out.add(new SoakMinute(m, to - from, all.length, rank(lat, 0.50), rank(lat, 0.99), rank(all, 0.99),
                    to - from - kept, rank(kafka, 0.99),
                    x.heapAfter(), x.heapFrom(), x.heapCommitted(), x.fullGcMillis(), x.pauses(), x.pauseMillis(),
                    x.checkpointBytes(), x.checkpoint(), x.load(), x.twinBacklog()));
        }
        return out;
    }

    /**
     * The parts of the index range {@code [from, to)} outside every range of {@code excluded} (each {@code [a, b)}),
     * in order.
     */
    static List<long[]> outside(long from, long to, List<long[]> excluded) {
        List<long[]> sorted = new ArrayList<>(excluded);
        sorted.sort((x, y) -> Long.compare(x[0], y[0]));
        List<long[]> out = new ArrayList<>();
        long at = from;
        for (long[] e : sorted) {
            if (e[1] <= at || e[0] >= to) {
                continue;
            }
            if (e[0] > at) {
                out.add(new long[] {at, e[0]});
            }
            at = Math.max(at, e[1]);
        }
        if (at < to) {
            out.add(new long[] {at, to});
        }
        return out;
    }

    private static double rank(double[] sorted, double q) {
        return sorted.length == 0 ? Double.NaN : NearestRank.of(sorted, q);
    }

    private static Double finite(double x) {
        return Double.isFinite(x) ? Math.round(x * 100) / 100.0 : null;
    }

    private static Long whole(double x) {
        return Double.isFinite(x) ? Math.round(x) : null;
    }
}
