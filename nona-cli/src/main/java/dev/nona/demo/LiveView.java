package dev.nona.demo;

import dev.nona.topics.record.ControllerEventType;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The demo's live view on stderr, one block per second: published request rates per model, decisions per
 * second, the table version in use, the link load of the current table, drift events and dead letters, the
 * executor twin's outcomes, and per model the mean observed JCT next to the mean predicted one of the same requests
 * (the ok outcomes read since the last block whose decision was read).
 */
final class LiveView {
    private final PrintStream out;
    private final DemoScenario scenario;
    private final DemoCounters published;
    private final DemoWatcher watcher;
    private Map<String, Long> lastPerModel = Map.of();
    private long lastDecisions;
    private Map<String, double[]> lastJctSums = Map.of();
    private long lastNanos = System.nanoTime();

    LiveView(PrintStream out, DemoScenario scenario, DemoCounters published, DemoWatcher watcher) {
        this.out = out;
        this.scenario = scenario;
        this.published = published;
        this.watcher = watcher;
    }

    /**
     * Per model, the mean observed and the mean predicted JCT of the same requests, the ok outcomes read since the
     * last block whose decision was read, in milliseconds ({@code -} when there was none).
     */
    private String jcts() {
        StringJoiner out = new StringJoiner("  ");
        Map<String, double[]> sums = watcher.observed.sums();
        sums.forEach((model, s) -> {
            double[] before = lastJctSums.getOrDefault(model, new double[3]);
            double n = s[2] - before[2];
            out.add(String.format(Locale.ROOT, "%s %s/%s", model, mean(s[0] - before[0], n),
                    mean(s[1] - before[1], n)));
        });
        lastJctSums = sums;
        return out.toString();
    }

    private static String mean(double sumSeconds, double count) {
        return count > 0 ? String.format(Locale.ROOT, "%.1f", 1000 * sumSeconds / count) : "-";
    }

    /** Prints one block; {@code elapsedSeconds} is the time since requests started. */
    void print(double elapsedSeconds, String phase) {
        long now = System.nanoTime();
        double dt = Math.max(1e-3, (now - lastNanos) / 1e9);
        Map<String, Long> perModel = published.perModelSnapshot();
        StringJoiner rates = new StringJoiner("  ");
        for (String m : scenario.models()) {
            long delta = perModel.getOrDefault(m, 0L) - lastPerModel.getOrDefault(m, 0L);
            rates.add(String.format(Locale.ROOT, "%s %5.1f", m, delta / dt));
        }
        long decisions = watcher.decisions.get();
        double load = watcher.linkLoad.get();
        out.printf(Locale.ROOT, "[%5.1fs %s] requests/s  %s%n", elapsedSeconds, phase, rates);
        out.printf(Locale.ROOT,
                "          published %d (+%d malformed)  decided %d  decisions/s %.0f  table v%d  link load %s"
                        + "  drift events %d  re-optimisations %d  dead letters %d%n",
                published.requests.get(), published.malformed.get(), watcher.decidedIds.size(),
                (decisions - lastDecisions) / dt, watcher.maxTableVersion.get(),
                Double.isNaN(load) ? "-" : String.format(Locale.ROOT, "%.3f", load),
                watcher.events(ControllerEventType.DRIFT_DETECTED),
                watcher.events(ControllerEventType.REOPTIMIZATION_FINISHED), watcher.deadLetterPositions.size());
        out.printf(Locale.ROOT,
                "          outcomes %d (timeouts %d)  JCT ms observed/predicted, same requests (last second)  %s%n",
                watcher.outcomes.get(), watcher.timeoutOutcomes.get(), jcts());
        out.flush();
        lastPerModel = perModel;
        lastDecisions = decisions;
        lastNanos = now;
    }
}
