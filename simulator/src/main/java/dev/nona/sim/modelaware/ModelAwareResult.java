package dev.nona.sim.modelaware;

import dev.nona.calibration.NearestRank;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one model-aware run measured.
 *
 * @param policy            the policy's name
 * @param seed              the seed of the policy's random choices
 * @param requests          requests completed
 * @param makespanSeconds   end-to-end latency of the whole workload: from the first arrival to the last
 *                          completion (what the thesis's Tables 6.1–6.3 report)
 * @param coldStarts        model loads performed by replicas
 * @param evictions         models evicted from server caches
 * @param latenciesSeconds  each request's latency (arrival to process exit), in request order
 * @param routes            how many inference stages ran warm-local, cold-local and remote
 * @param strategies        how many placements each rule made (for {@code adaptive}: the strategy it chose)
 * @param events            events processed
 */
public record ModelAwareResult(String policy, long seed, int requests, double makespanSeconds, long coldStarts,
                               long evictions, List<Double> latenciesSeconds, Map<String, Long> routes,
                               Map<String, Long> strategies, long events) {
    public ModelAwareResult {
        latenciesSeconds = List.copyOf(latenciesSeconds);
        routes = Map.copyOf(routes);
        strategies = Map.copyOf(strategies);
    }

    public double meanLatencySeconds() {
        return latenciesSeconds.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    public double p99LatencySeconds() {
        return NearestRank.of(latenciesSeconds.stream().mapToDouble(Double::doubleValue).sorted().toArray(), 0.99);
    }

    /** The JSON fields {@code bin/nona simulate} prints for a model-aware workload. */
    public Map<String, Object> toJson() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("policy", policy);
        out.put("seed", seed);
        out.put("jobs", requests);
        out.put("makespanSeconds", round(makespanSeconds));
        out.put("coldStarts", coldStarts);
        out.put("evictions", evictions);
        out.put("meanJctSeconds", round(meanLatencySeconds()));
        out.put("p99JctSeconds", round(p99LatencySeconds()));
        out.put("routes", new TreeMap<>(routes));
        out.put("strategies", new TreeMap<>(strategies));
        out.put("latenciesSeconds", latenciesSeconds.stream().map(ModelAwareResult::round).toList());
        out.put("events", events);
        return out;
    }

    private static double round(double x) {
        return Math.round(x * 1e6) / 1e6;
    }

    @Override
    public String toString() {
        return policy + ": makespan " + makespanSeconds + " s, " + coldStarts + " cold starts, latencies "
                + Arrays.toString(latenciesSeconds.toArray());
    }
}
