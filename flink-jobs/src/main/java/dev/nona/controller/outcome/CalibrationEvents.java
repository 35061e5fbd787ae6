package dev.nona.controller.outcome;

import dev.nona.calibration.CalibrationReport;
import dev.nona.calibration.ModelCalibration;
import dev.nona.calibration.ServerTally;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A window's {@link CalibrationReport} as a {@code CALIBRATION} controller event, bounded: the totals, then at
 * most {@link #MAX_MODELS} models (those with the most outcomes) and {@link #MAX_SERVERS} servers (those with the
 * most parts), each as {@code model.<name>.<figure>} and {@code server.<id>.<figure>}; {@code modelsOmitted} and
 * {@code serversOmitted} count the rest; then per table version whose decisions had ok outcomes
 * {@code table.<version>.okOutcomes}, {@code .observedMeanJctSeconds} and {@code .calibrationRatio}. A figure that
 * is NaN (no ok outcome, no timed part) is left out.
 */
final class CalibrationEvents {
    /** Most models listed in one event. */
    static final int MAX_MODELS = 20;
    /** Most servers listed in one event. */
    static final int MAX_SERVERS = 20;

    private CalibrationEvents() {}

    static ControllerEvent of(CalibrationReport report, long time, long windowMillis) {
        Map<String, Object> d = new TreeMap<>();
        d.put("windowMillis", windowMillis);
        putModel(d, "", report.all());
        d.put("models", report.models().size());
        d.put("servers", report.servers().size());
        List<Map.Entry<String, ModelCalibration>> models = report.models().entrySet().stream()
                .sorted(Comparator.comparingLong((Map.Entry<String, ModelCalibration> e) ->
                        e.getValue().outcomes() + e.getValue().missingOutcomes()).reversed()
                        .thenComparing(Map.Entry::getKey))
                .toList();
        models.stream().limit(MAX_MODELS).forEach(e -> putModel(d, "model." + e.getKey() + ".", e.getValue()));
        if (models.size() > MAX_MODELS) {
            d.put("modelsOmitted", models.size() - MAX_MODELS);
        }
        List<Map.Entry<String, ServerTally>> servers = report.servers().entrySet().stream()
                .sorted(Comparator.comparingLong((Map.Entry<String, ServerTally> e) -> e.getValue().parts()).reversed()
                        .thenComparing(Map.Entry::getKey))
                .toList();
        servers.stream().limit(MAX_SERVERS).forEach(e -> putServer(d, "server." + e.getKey() + ".", e.getValue()));
        if (servers.size() > MAX_SERVERS) {
            d.put("serversOmitted", servers.size() - MAX_SERVERS);
        }
        // Per table version (at most a few: the decisions of a window come from the last tables).
        report.versions().forEach((v, t) -> {
            d.put("table." + v + ".okOutcomes", t.samples());
            putFinite(d, "table." + v + ".observedMeanJctSeconds", t.observedMean());
            putFinite(d, "table." + v + ".calibrationRatio", t.ratio());
        });
        return ControllerEvent.of(ControllerEventType.CALIBRATION, time, d);
    }

    private static void putModel(Map<String, Object> d, String prefix, ModelCalibration m) {
        d.put(prefix + "outcomes", m.outcomes());
        d.put(prefix + "okOutcomes", m.ok());
        d.put(prefix + "failedOutcomes", m.failed());
        d.put(prefix + "timedOutOutcomes", m.timeouts());
        d.put(prefix + "missingOutcomes", m.missingOutcomes());
        d.put(prefix + "unmatchedOutcomes", m.unmatchedOutcomes());
        putFinite(d, prefix + "observedMeanJctSeconds", m.observedMeanJctSeconds());
        putFinite(d, prefix + "observedP99JctSeconds", m.observedP99JctSeconds());
        putFinite(d, prefix + "predictedMeanJctSeconds", m.predictedMeanJctSeconds());
        putFinite(d, prefix + "calibrationRatio", m.calibrationRatio());
    }

    private static void putServer(Map<String, Object> d, String prefix, ServerTally s) {
        d.put(prefix + "parts", s.parts());
        putFinite(d, prefix + "effectiveOpsPerSecond", s.effectiveOpsPerSecond());
        d.put(prefix + "coldStarts", s.coldStarts());
        putFinite(d, prefix + "meanColdStartSeconds", s.meanColdStartSeconds());
    }

    private static void putFinite(Map<String, Object> d, String name, double value) {
        if (Double.isFinite(value)) {
            d.put(name, value);
        }
    }
}
