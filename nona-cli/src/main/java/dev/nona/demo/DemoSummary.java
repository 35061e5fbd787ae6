package dev.nona.demo;

import java.util.Map;

/**
 * The demo's result, printed and written as JSON. "Exactly once" holds when every valid request has one
 * decision ({@code lostDecisions == 0}, {@code duplicateDecisions == 0}) and every malformed record one dead
 * letter ({@code deadLetters == malformedPublished}). From the executor twin's {@code placement-outcomes} (warm-up
 * requests excluded): {@code outcomesConsumed} outcome records read, {@code missingOutcomes} decided requests with
 * no outcome, {@code timeoutOutcomes} those that timed out, and the mean and p99 observed JCT of the ok outcomes
 * completed in the second half of the run, the mean predicted JCT of their decisions and the ratio observed over
 * predicted mean (NaN when there is none); {@code partsPerServer}: per server, the parts
 * of ok outcomes it ran, {@code [first half, second half]}. {@code telemetryPublished} counts the twin's server
 * statuses.
 */
public record DemoSummary(
        double seconds,
        int servers,
        long requestsPublished,
        long malformedPublished,
        long telemetryPublished,
        long decisionsConsumed,
        long distinctDecisions,
        long duplicateDecisions,
        long lostDecisions,
        long unexpectedDecisions,
        long fallbackDecisions,
        long deadLetters,
        Map<String, Long> deadLetterReasons,
        long tablesPublished,
        long tablesRejected,
        long tableRecords,
        long lastTableVersion,
        long driftEvents,
        long reoptimizations,
        long infeasibleLoadEvents,
        double lastLinkLoad,
        double decisionsPerSecond,
        Map<String, Long> requestsPerModel,
        long warmupRequests,
        long warmupDeadLetters,
        boolean exactlyOnce,
        long outcomesConsumed,
        long missingOutcomes,
        long timeoutOutcomes,
        double observedMeanJctSeconds,
        double observedP99JctSeconds,
        double predictedMeanJctSeconds,
        double calibrationRatio,
        Map<String, long[]> partsPerServer,
        Baseline baseline) {

    public DemoSummary {
        deadLetterReasons = Map.copyOf(deadLetterReasons);
        requestsPerModel = Map.copyOf(requestsPerModel);
        partsPerServer = Map.copyOf(partsPerServer);
    }

    /**
     * The same arrivals (as the executor twin received them) replayed through a fresh twin in virtual time under a
     * baseline policy's placement: the mean observed JCT of its ok outcomes completed in the second half.
     */
    public record Baseline(String policy, double observedMeanJctSeconds) {}
}
