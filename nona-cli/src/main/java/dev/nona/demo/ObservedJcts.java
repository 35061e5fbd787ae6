package dev.nona.demo;

import dev.nona.calibration.NearestRank;
import dev.nona.twin.BaselineReplay;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The job completion times the demo reads back: every ok outcome's completion time and observed JCT (for the
 * summary's figures over the second half of the run), the servers of its parts, and per model running sums of
 * observed and predicted JCTs of the same requests (for the live view). Thread safe (one writer, the watcher;
 * readers on other threads).
 */
final class ObservedJcts {
    private final List<String> requestIds = new ArrayList<>();
    private final List<Long> completedAt = new ArrayList<>();
    private final List<Double> jcts = new ArrayList<>();
    private final List<Long> tableVersions = new ArrayList<>();
    private final List<Integer> coldParts = new ArrayList<>();
    private final Map<String, Double> predictedByRequest = new HashMap<>();
    private final List<BaselineReplay.Arrival> arrivals = new ArrayList<>();
    private final Map<String, double[]> perModel = new TreeMap<>();
    /** Per server: event times of the decisions' stages on it (first decision per request). */
    private final Map<String, List<Long>> stagesByServer = new TreeMap<>();
    /** Per server: completion times of the ok outcomes' parts it ran. */
    private final Map<String, List<Long>> partsByServer = new TreeMap<>();

    /**
     * An ok outcome of {@code model}, placed under table {@code tableVersion}, {@code cold} of its parts started
     * cold: completed at {@code completedAtMillis}, observed JCT {@code jctSeconds}.
     */
    synchronized void add(String requestId, String model, long tableVersion, int cold, long completedAtMillis,
            double jctSeconds) {
        requestIds.add(requestId);
        tableVersions.add(tableVersion);
        coldParts.add(cold);
        completedAt.add(completedAtMillis);
        jcts.add(jctSeconds);
        Double predicted = predictedByRequest.get(requestId);
        if (predicted != null) { // an outcome whose decision was not read is in neither sum
            double[] sums = perModel.computeIfAbsent(model, m -> new double[3]);
            sums[0] += jctSeconds;
            sums[1] += predicted;
            sums[2]++;
        }
    }

    /**
     * An outcome (ok or not) says its request arrived at the executor at {@code atMillis} (its completion time
     * less its observed JCT): the arrivals a baseline replays.
     */
    synchronized void arrived(String requestId, String model, long atMillis) {
        arrivals.add(new BaselineReplay.Arrival(requestId, model, atMillis));
    }

    synchronized List<BaselineReplay.Arrival> arrivals() {
        return List.copyOf(arrivals);
    }

    /** An ok outcome completed at {@code completedAtMillis} had a part on {@code server}. */
    synchronized void part(String server, long completedAtMillis) {
        partsByServer.computeIfAbsent(server, k -> new ArrayList<>()).add(completedAtMillis);
    }

    /**
     * Per server, the parts of ok outcomes it ran: {@code [completed before splitMillis, at or after it]}.
     */
    synchronized Map<String, long[]> partsPerServer(long splitMillis) {
        Map<String, long[]> out = new TreeMap<>();
        partsByServer.forEach((server, times) -> {
            long[] n = new long[2];
            times.forEach(t -> n[t >= splitMillis ? 1 : 0]++);
            out.put(server, n);
        });
        return out;
    }

    /** The (first) decision for a request, at event time {@code eventTimeMillis}, put a stage on {@code server}. */
    synchronized void stage(String server, long eventTimeMillis) {
        stagesByServer.computeIfAbsent(server, k -> new ArrayList<>()).add(eventTimeMillis);
    }

    /** Per server, the event time of the last decision's stage on it (the latest by event time). */
    synchronized Map<String, Long> lastStageMillis() {
        Map<String, Long> out = new TreeMap<>();
        stagesByServer.forEach((server, times) -> out.put(server, times.stream().mapToLong(Long::longValue).max()
                .orElseThrow()));
        return out;
    }

    /** Per server, the decisions' stages on it by their event time, in buckets as {@link #partsPerServerInBuckets}. */
    synchronized Map<String, long[]> stagesPerServerInBuckets(long fromMillis, long bucketMillis) {
        return inBuckets(stagesByServer, fromMillis, bucketMillis);
    }

    /**
     * Per server, the parts of ok outcomes it ran, in consecutive buckets of {@code bucketMillis} from
     * {@code fromMillis} (parts completed before it in none; the last bucket is the last with a part on any server).
     */
    synchronized Map<String, long[]> partsPerServerInBuckets(long fromMillis, long bucketMillis) {
        return inBuckets(partsByServer, fromMillis, bucketMillis);
    }

    private static Map<String, long[]> inBuckets(Map<String, List<Long>> timesByServer, long fromMillis,
            long bucketMillis) {
        int buckets = 0;
        for (List<Long> times : timesByServer.values()) {
            for (long t : times) {
                if (t >= fromMillis) {
                    buckets = Math.max(buckets, (int) ((t - fromMillis) / bucketMillis) + 1);
                }
            }
        }
        Map<String, long[]> out = new TreeMap<>();
        for (Map.Entry<String, List<Long>> e : timesByServer.entrySet()) {
            long[] n = new long[buckets];
            e.getValue().stream().filter(t -> t >= fromMillis).forEach(t -> n[(int) ((t - fromMillis) / bucketMillis)]++);
            out.put(e.getKey(), n);
        }
        return out;
    }

    /** The (first) decision for {@code requestId} predicted {@code jctSeconds}. */
    synchronized void predicted(String requestId, double jctSeconds) {
        predictedByRequest.putIfAbsent(requestId, jctSeconds);
    }

    /**
     * The mean and the 99th percentile (nearest rank) of the observed JCTs of outcomes completed at or after
     * {@code fromMillis}; NaN for both when there is none.
     */
    synchronized double[] meanAndP99Since(long fromMillis) {
        double[] xs = new double[jcts.size()];
        int n = 0;
        double sum = 0;
        for (int i = 0; i < jcts.size(); i++) {
            if (completedAt.get(i) >= fromMillis) {
                xs[n++] = jcts.get(i);
                sum += jcts.get(i);
            }
        }
        double[] sorted = Arrays.copyOf(xs, n);
        Arrays.sort(sorted);
        return new double[] {n == 0 ? Double.NaN : sum / n, NearestRank.of(sorted, 0.99)};
    }

    /**
     * The mean observed JCT (NaN when there is none), the distinct table versions (ascending) and the parts that
     * started cold of the ok outcomes completed in {@code [fromMillis, toMillis)}.
     */
    synchronized DemoSummary.Phase phase(String name, long fromMillis, long toMillis) {
        double sum = 0;
        int n = 0;
        long cold = 0;
        SortedSet<Long> versions = new TreeSet<>();
        for (int i = 0; i < jcts.size(); i++) {
            long t = completedAt.get(i);
            if (t >= fromMillis && t < toMillis) {
                sum += jcts.get(i);
                n++;
                versions.add(tableVersions.get(i));
                cold += coldParts.get(i);
            }
        }
        return new DemoSummary.Phase(name, n == 0 ? Double.NaN : sum / n, List.copyOf(versions), cold);
    }

    /**
     * The mean predicted JCT of the decisions of the ok outcomes completed at or after {@code fromMillis} (those
     * whose decision was read), NaN when there is none: the prediction for the same requests as
     * {@link #meanAndP99Since}'s observation.
     */
    synchronized double predictedMeanSince(long fromMillis) {
        double sum = 0;
        int n = 0;
        for (int i = 0; i < requestIds.size(); i++) {
            Double p = predictedByRequest.get(requestIds.get(i));
            if (completedAt.get(i) >= fromMillis && p != null) {
                sum += p;
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    /**
     * Per model, over the ok outcomes read so far whose decision was read before them: {observed sum, predicted
     * sum, count} (a copy).
     */
    synchronized Map<String, double[]> sums() {
        Map<String, double[]> out = new TreeMap<>();
        perModel.forEach((m, s) -> out.put(m, s.clone()));
        return out;
    }
}
