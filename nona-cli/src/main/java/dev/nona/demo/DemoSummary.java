package dev.nona.demo;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.nona.twin.TwinCluster;
import java.util.List;
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
 * statuses. {@code phases}: each half's mean observed JCT and table versions; {@code rollbacks}: the
 * {@code TABLE_ROLLED_BACK} events; {@code controllerCalibrationRatio}: the controller's own figure, from its
 * {@code CALIBRATION} events of the second half (ok-outcome weighted observed over predicted means), next to the
 * demo's {@code calibrationRatio}; {@code controlSteps}: the control loop's table steps with their causes;
 * {@code learnedSpeeds}: per server, the effective speed the controller learned; {@code partsPerServerPer10Seconds}:
 * per server, the parts of ok outcomes it ran completed in each 10 s from the start of the run (the last bucket
 * includes the drain); {@code stagesPerServerPer10Seconds}: per server, the stages the decisions put on it, by
 * the requests' event time in each 10 s from the start; {@code silencedAtSeconds}: per silenced server, when the
 * twin silenced it, in seconds from the start of the run (negative: before it); {@code timeoutOutcomesByServer}:
 * per server, the timeout outcomes whose decision put a stage on it; {@code lastStageAtSeconds}: per server, the
 * event time of the last stage a decision put on it, in seconds from the start of the run; {@code tables}: the
 * tables read from {@code placement-tables}, with what each was solved for and, per model, the probability that it
 * splits a request over servers; {@code decisionsPerTableVersion}: the decisions (first per request, warm-ups
 * excluded) by the table version they name (0: before the first table); {@code failedSolves}: the control loop's
 * {@code SOLVE_FAILED} and {@code SOLVE_TIMED_OUT} events (a solve that failed or ran out of time, retried later:
 * 0 in a healthy run).
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
        long failedSolves,
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
        Baseline baseline,
        List<Phase> phases,
        long rollbacks,
        double controllerCalibrationRatio,
        List<ControlStep> controlSteps,
        Map<String, LearnedSpeed> learnedSpeeds,
        Map<String, long[]> partsPerServerPer10Seconds,
        Map<String, long[]> stagesPerServerPer10Seconds,
        Map<String, Double> silencedAtSeconds,
        Map<String, Long> timeoutOutcomesByServer,
        Map<String, Double> lastStageAtSeconds,
        List<PublishedTable> tables,
        Map<Long, Long> decisionsPerTableVersion,
        @JsonInclude(JsonInclude.Include.NON_NULL) Memory memory) {

    public DemoSummary {
        deadLetterReasons = Map.copyOf(deadLetterReasons);
        requestsPerModel = Map.copyOf(requestsPerModel);
        partsPerServer = Map.copyOf(partsPerServer);
        phases = List.copyOf(phases);
        controlSteps = List.copyOf(controlSteps);
        learnedSpeeds = Map.copyOf(learnedSpeeds);
        partsPerServerPer10Seconds = Map.copyOf(partsPerServerPer10Seconds);
        stagesPerServerPer10Seconds = Map.copyOf(stagesPerServerPer10Seconds);
        silencedAtSeconds = Map.copyOf(silencedAtSeconds);
        timeoutOutcomesByServer = Map.copyOf(timeoutOutcomesByServer);
        lastStageAtSeconds = Map.copyOf(lastStageAtSeconds);
        tables = List.copyOf(tables);
        decisionsPerTableVersion = Map.copyOf(decisionsPerTableVersion);
    }

    /**
     * What the executor twin's caches of parts did, when memory or cold starts are modelled ({@code demo --workload}
     * of a cluster with memory or a cold-start cost; absent otherwise): cold starts begun, units of idle parts
     * evicted, decisions with a part larger than its server's memory ({@code memoryViolations}, never run: must be
     * 0), parts that waited on their server for running parts to release memory, {@code failed} outcomes, per
     * server class its busy fraction and parts run, and the baseline replay's decisions with a part too large.
     */
    public record Memory(long coldStarts, long evictions, long memoryViolations, long memoryWaits,
            long failedOutcomes, List<TwinCluster.ClassFigures> classes, long baselineMemoryViolations) {
        public Memory {
            classes = List.copyOf(classes);
        }
    }

    /**
     * The same arrivals (as the executor twin received them) replayed through a fresh twin in virtual time under a
     * baseline policy's placement: the mean observed JCT of its ok outcomes completed in the second half, and how
     * many of their parts started cold.
     */
    public record Baseline(String policy, double observedMeanJctSeconds, long coldStartParts) {}

    /**
     * A half of the run ({@code "first half"}, {@code "second half"}): the mean observed JCT of the ok outcomes
     * completed in it, the table versions (ascending) that placed them, and how many of their parts started cold
     * (the model was not loaded on the server).
     */
    public record Phase(String phase, double observedMeanJctSeconds, List<Long> tableVersions, long coldStartParts) {}

    /**
     * A step of the control loop about tables, as its event says: {@code atSeconds} from the start of the run
     * (event time; negative during the warm-up), the event type ({@code REOPTIMIZATION_STARTED},
     * {@code TABLE_PUBLISHED}, {@code TABLE_REJECTED}, {@code TABLE_ROLLED_BACK}), the table version (0 when the
     * event names none), the cause (e.g. {@code rate: ...}, {@code calibration: server s-1 runs at ...}), for a
     * table refused for another reason than its objective that reason (else empty), and the gate's predicted
     * objectives of the candidate and of the current table at the new rates (NaN when the event has none).
     */
    public record ControlStep(double atSeconds, String type, long tableVersion, String cause, String reason,
            double candidateObjective, double currentObjective) {}

    /**
     * A server's effective speed as the controller's {@code CALIBRATION} events report it: when first (seconds from
     * the start of the run), the first and the last figure (ops/s), and in how many events.
     */
    public record LearnedSpeed(double firstAtSeconds, double firstOpsPerSecond, double lastOpsPerSecond, long events) {}

    /**
     * A table as {@code placement-tables} holds it: its version and cause, whether it is the fallback, the cluster it
     * was solved for (the servers, their mean compute rate $\nu$ in ops/s, which is what the controller learned from
     * outcomes where it learned something, and the link capacity $\mu$ in bits/s), the rates (requests/s per model)
     * and, per model, the probability that the table places a request on more than one server (empty for the
     * fallback).
     */
    public record PublishedTable(long version, String cause, boolean fallback, List<String> servers,
            double opsPerSecond, double linkBitsPerSecond, Map<String, Double> ratesPerSecond,
            Map<String, Double> splitProbability) {
        public PublishedTable {
            servers = List.copyOf(servers);
            ratesPerSecond = Map.copyOf(ratesPerSecond);
            splitProbability = Map.copyOf(splitProbability);
        }
    }
}
