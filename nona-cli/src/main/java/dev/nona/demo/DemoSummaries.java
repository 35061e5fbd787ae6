package dev.nona.demo;

import dev.nona.topics.record.ControllerEventType;
import dev.nona.twin.RunningTwin;
import dev.nona.twin.TwinExecutor;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Builds the {@link DemoSummary} from what was published and what the watcher read. */
final class DemoSummaries {

    private DemoSummaries() {}

    static DemoSummary of(DemoScenario scenario, DemoCounters published, DemoWatcher watcher,
            RunningTwin twin, double seconds, long warmups, long startMillis, long secondHalfFromMillis,
            DemoSummary.Baseline baseline, long baselineMemoryViolations) {
        long requests = published.requests.get();
        long validDecided = 0;
        long unexpected = 0;
        for (String id : watcher.decidedIds) {
            if (isValidId(id, requests)) {
                validDecided++;
            } else {
                unexpected++;
            }
        }
        long lost = requests - validDecided;
        long deadLetters = watcher.deadLetterPositions.size();
        long duplicates = watcher.duplicates.get();
        boolean exactlyOnce = lost == 0 && duplicates == 0 && unexpected == 0
                && deadLetters == published.malformed.get();
        long missingOutcomes = watcher.decidedIds.stream().filter(id -> !watcher.outcomeIds.contains(id)).count();
        double[] jct = watcher.observed.meanAndP99Since(secondHalfFromMillis);
        double predicted = watcher.observed.predictedMeanSince(secondHalfFromMillis);
        return new DemoSummary(seconds, scenario.servers(), requests, published.malformed.get(),
                twin.summary().telemetryPublished(), watcher.decisions.get(), watcher.decidedIds.size(), duplicates, lost,
                unexpected, watcher.fallbackDecisions.get(), deadLetters, watcher.deadLetterReasons(),
                watcher.events(ControllerEventType.TABLE_PUBLISHED), watcher.events(ControllerEventType.TABLE_REJECTED),
                watcher.tableRecords.get(),
                watcher.maxTableVersion.get(), watcher.events(ControllerEventType.DRIFT_DETECTED),
                watcher.events(ControllerEventType.REOPTIMIZATION_FINISHED),
                watcher.events(ControllerEventType.SOLVE_FAILED) + watcher.events(ControllerEventType.SOLVE_TIMED_OUT),
                watcher.events(ControllerEventType.INFEASIBLE_LOAD), watcher.linkLoad.get(),
                watcher.decisions.get() / Math.max(1e-9, seconds), published.perModelSnapshot(), warmups,
                watcher.warmupDeadLetters.get(), exactlyOnce, watcher.outcomes.get(), missingOutcomes,
                watcher.timeoutOutcomes.get(), jct[0], jct[1], predicted, jct[0] / predicted,
                watcher.observed.partsPerServer(secondHalfFromMillis), baseline,
                List.of(watcher.observed.phase("first half", 0, secondHalfFromMillis),
                        watcher.observed.phase("second half", secondHalfFromMillis, Long.MAX_VALUE)),
                watcher.events(ControllerEventType.TABLE_ROLLED_BACK),
                watcher.timeline.calibrationRatioSince(secondHalfFromMillis), watcher.timeline.steps(startMillis),
                watcher.timeline.learnedSpeeds(startMillis),
                watcher.observed.partsPerServerInBuckets(startMillis, 10_000),
                watcher.observed.stagesPerServerInBuckets(startMillis, 10_000), silencedAt(twin, startMillis),
                watcher.timeoutsByServer(), secondsFrom(watcher.observed.lastStageMillis(), startMillis),
                watcher.tables.list(), watcher.decisionsPerTableVersion(), memory(twin, baselineMemoryViolations));
    }

    /** The twin's caches of parts, when it keeps them (memory or cold starts modelled), else null. */
    private static DemoSummary.Memory memory(RunningTwin twin, long baselineMemoryViolations) {
        if (!twin.options().partCaches()) {
            return null;
        }
        TwinExecutor.Summary t = twin.summary();
        return new DemoSummary.Memory(t.coldStarts(), t.evictions(), t.memoryViolations(), t.memoryWaits(),
                t.failedOutcomes(), t.classes(), baselineMemoryViolations);
    }

    /** Per silenced server, when the twin silences it, in seconds from {@code startMillis}. */
    private static Map<String, Double> silencedAt(RunningTwin twin, long startMillis) {
        Map<String, Double> out = new TreeMap<>();
        twin.options().silenceAfterSeconds().forEach((server, at) ->
                out.put(server, (twin.originMillis() - startMillis) / 1000.0 + at));
        return out;
    }

    private static Map<String, Double> secondsFrom(Map<String, Long> millis, long startMillis) {
        Map<String, Double> out = new TreeMap<>();
        millis.forEach((k, t) -> out.put(k, (t - startMillis) / 1000.0));
        return out;
    }

    /** Valid request ids are {@code r-0 .. r-(n-1)}. */
    static boolean isValidId(String id, long n) {
        if (!id.startsWith("r-")) {
            return false;
        }
        try {
            long k = Long.parseLong(id.substring(2));
            return k >= 0 && k < n;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
