package dev.nona.demo;

import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the demo keeps of the controller's events beyond their counts: the control loop's steps about tables
 * ({@code REOPTIMIZATION_STARTED}, {@code TABLE_PUBLISHED}, {@code TABLE_REJECTED}, {@code TABLE_ROLLED_BACK}) with
 * their time, table version and cause, and from each {@code CALIBRATION} event its overall observed and predicted
 * mean JCT and each server's effective speed. Thread safe (one writer, the watcher; readers on other threads).
 */
final class ControlTimeline {
    private static final Set<ControllerEventType> STEPS = Set.of(ControllerEventType.REOPTIMIZATION_STARTED,
            ControllerEventType.TABLE_PUBLISHED, ControllerEventType.TABLE_REJECTED,
            ControllerEventType.TABLE_ROLLED_BACK);
    private static final String SERVER = "server.";
    private static final String SPEED = ".effectiveOpsPerSecond";

    private final List<ControllerEvent> steps = new ArrayList<>();
    /** Per CALIBRATION event: {time, ok outcomes, observed mean, predicted mean}. */
    private final List<double[]> calibrations = new ArrayList<>();
    /** Per server: {time, effective ops/s} of every CALIBRATION event that names its speed. */
    private final Map<String, List<double[]>> speeds = new TreeMap<>();

    synchronized void accept(ControllerEvent e) {
        if (STEPS.contains(e.type())) {
            steps.add(e);
        } else if (e.type() == ControllerEventType.CALIBRATION) {
            Map<String, Object> d = e.details();
            calibrations.add(new double[] {e.time(), number(d.get("okOutcomes")),
                    number(d.get("observedMeanJctSeconds")), number(d.get("predictedMeanJctSeconds"))});
            d.forEach((key, value) -> {
                if (key.startsWith(SERVER) && key.endsWith(SPEED)) {
                    String server = key.substring(SERVER.length(), key.length() - SPEED.length());
                    speeds.computeIfAbsent(server, s -> new ArrayList<>()).add(new double[] {e.time(), number(value)});
                }
            });
        }
    }

    /** The table steps, their times in seconds from {@code startMillis}. */
    synchronized List<DemoSummary.ControlStep> steps(long startMillis) {
        return steps.stream().map(e -> new DemoSummary.ControlStep((e.time() - startMillis) / 1000.0, e.type().name(),
                e.details().get("tableVersion") instanceof Number v ? v.longValue() : 0L,
                String.valueOf(e.details().getOrDefault("cause", "")),
                String.valueOf(e.details().getOrDefault("reason", "")), number(e.details().get("candidateObjective")),
                number(e.details().get("currentObjective")))).toList();
    }

    /**
     * The controller's own calibration ratio over the CALIBRATION events at or after {@code fromMillis}: the sum of
     * each window's observed mean times its ok outcomes over the same sum of predicted means (NaN when none).
     */
    synchronized double calibrationRatioSince(long fromMillis) {
        double observed = 0;
        double predicted = 0;
        for (double[] c : calibrations) {
            if (c[0] >= fromMillis && Double.isFinite(c[2]) && Double.isFinite(c[3]) && c[1] > 0) {
                observed += c[1] * c[2];
                predicted += c[1] * c[3];
            }
        }
        return predicted > 0 ? observed / predicted : Double.NaN;
    }

    /** Per server: when its effective speed was first reported (seconds from {@code startMillis}), the first and the last. */
    synchronized Map<String, DemoSummary.LearnedSpeed> learnedSpeeds(long startMillis) {
        Map<String, DemoSummary.LearnedSpeed> out = new TreeMap<>();
        speeds.forEach((server, series) -> {
            double[] first = series.get(0);
            double[] last = series.get(series.size() - 1);
            out.put(server, new DemoSummary.LearnedSpeed((first[0] - startMillis) / 1000.0, first[1], last[1],
                    series.size()));
        });
        return out;
    }

    private static double number(Object value) {
        return value instanceof Number n ? n.doubleValue() : Double.NaN;
    }
}
