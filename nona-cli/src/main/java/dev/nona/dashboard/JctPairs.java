package dev.nona.dashboard;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Predicted and observed job completion times of the same requests over the same window. Each {@code ok} outcome is
 * joined with its request's decision by request id (the first decision read wins; either may be read first), and
 * the pair counts, under the outcome's model, in the one-second bucket of its completion time (event time). A
 * {@link #window} covers the pairs completed in the last {@code windowSeconds} seconds up to the newest completion
 * read (that second included): mean predicted and mean observed JCT of exactly those requests, and their ratio.
 *
 * <p>Bounded: at most {@code maxUnpaired} decisions wait for their outcome and as many outcomes for their decision
 * (the oldest is dropped first, so a decision whose outcome never comes is forgotten in time), and only the
 * buckets of the window are kept; a pair completed before the window is not counted. Not thread-safe:
 * {@link DashboardState} guards it.
 */
final class JctPairs {
    /** The default window, seconds of event time: recent, as the page's 5 s rates are, with more requests to mean. */
    static final int WINDOW_SECONDS = 10;
    /** The default bound on decisions (and on outcomes) waiting for their other half. */
    static final int MAX_UNPAIRED = 100_000;

    /**
     * One model's pairs in the window.
     *
     * @param requests           requests with both a decision and an ok outcome in the window
     * @param predictedSumSeconds the sum of their decisions' {@code predictedJctSeconds}
     * @param observedSumSeconds  the sum of their outcomes' {@code observedJctSeconds}
     */
    record Window(long requests, double predictedSumSeconds, double observedSumSeconds) {
        static final Window EMPTY = new Window(0, 0, 0);

        /** Mean predicted JCT of the requests, null when there is none. */
        Double predictedMeanSeconds() {
            return requests == 0 ? null : predictedSumSeconds / requests;
        }

        /** Mean observed JCT of the same requests, null when there is none. */
        Double observedMeanSeconds() {
            return requests == 0 ? null : observedSumSeconds / requests;
        }

        /** Mean observed over mean predicted, null when there is no request or nothing was predicted. */
        Double observedOverPredicted() {
            return requests == 0 || !(predictedSumSeconds > 0) ? null : observedSumSeconds / predictedSumSeconds;
        }

        Window plus(double predictedSeconds, double observedSeconds) {
            return new Window(requests + 1, predictedSumSeconds + predictedSeconds,
                    observedSumSeconds + observedSeconds);
        }

        Window plus(Window other) {
            return new Window(requests + other.requests, predictedSumSeconds + other.predictedSumSeconds,
                    observedSumSeconds + other.observedSumSeconds);
        }
    }

    private record Observed(String model, long completedAtMillis, double jctSeconds) {}

    private final int windowSeconds;
    private final Map<String, Double> predictions;
    private final Map<String, Observed> outcomes;
    /** completion second (epoch) -> model -> its pairs */
    private final TreeMap<Long, Map<String, Window>> buckets = new TreeMap<>();
    private long newestSecond = Long.MIN_VALUE;

    JctPairs() {
        this(WINDOW_SECONDS, MAX_UNPAIRED);
    }

    /**
     * @param windowSeconds seconds of completion time a window covers, {@code >= 1}
     * @param maxUnpaired   decisions (and outcomes) kept waiting for their other half, {@code >= 1}
     */
    JctPairs(int windowSeconds, int maxUnpaired) {
        if (windowSeconds < 1) {
            throw new IllegalArgumentException("JCT window (" + windowSeconds + " s) must be >= 1");
        }
        if (maxUnpaired < 1) {
            throw new IllegalArgumentException("unpaired bound (" + maxUnpaired + ") must be >= 1");
        }
        this.windowSeconds = windowSeconds;
        this.predictions = bounded(maxUnpaired);
        this.outcomes = bounded(maxUnpaired);
    }

    private static <V> Map<String, V> bounded(int max) {
        return new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > max;
            }
        };
    }

    int windowSeconds() {
        return windowSeconds;
    }

    /** A decision for {@code requestId} predicted {@code predictedSeconds}. */
    void predicted(String requestId, double predictedSeconds) {
        Observed o = outcomes.remove(requestId);
        if (o != null) {
            pair(o, predictedSeconds);
        } else {
            predictions.putIfAbsent(requestId, predictedSeconds);
        }
    }

    /**
     * An ok outcome of {@code requestId} of {@code model} completed at {@code completedAtMillis}, {@code jctSeconds}
     * after its arrival.
     */
    void observed(String requestId, String model, long completedAtMillis, double jctSeconds) {
        Observed o = new Observed(model, completedAtMillis, jctSeconds);
        Double predicted = predictions.remove(requestId);
        if (predicted != null) {
            pair(o, predicted);
        } else {
            outcomes.putIfAbsent(requestId, o);
        }
    }

    private void pair(Observed o, double predictedSeconds) {
        long second = Math.floorDiv(o.completedAtMillis(), 1000L);
        if (second > newestSecond) {
            newestSecond = second;
            buckets.headMap(newestSecond - windowSeconds, true).clear();
        } else if (second <= newestSecond - windowSeconds) {
            return; // completed before the window
        }
        buckets.computeIfAbsent(second, s -> new TreeMap<>())
                .merge(o.model(), Window.EMPTY.plus(predictedSeconds, o.jctSeconds()), Window::plus);
    }

    /** Per model, its pairs completed in the window (models with none are absent). */
    Map<String, Window> window() {
        Map<String, Window> out = new TreeMap<>();
        buckets.values().forEach(b -> b.forEach((model, w) -> out.merge(model, w, Window::plus)));
        return out;
    }
}
