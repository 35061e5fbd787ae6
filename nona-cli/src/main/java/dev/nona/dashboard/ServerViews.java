package dev.nona.dashboard;

import dev.nona.dashboard.DashboardSnapshot.ServerView;
import dev.nona.topics.record.ServerTelemetry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The servers as the page shows them. A server is {@code down} when its last report says so, {@code silent} when
 * its last report was sent (the Kafka record's timestamp) longer than the liveness timeout ago, else {@code up}.
 * The controller judges silence on its own processing-time clock; the record timestamp is the dashboard's nearest
 * equivalent that does not call every report fresh while it catches up on a topic's history.
 */
final class ServerViews {
    /** The line under the servers: which are drained by an operator command ({@code controller-commands}). */
    static String drainedLine(Set<String> drained) {
        return drained.isEmpty() ? "drained: none" : "drained: " + String.join(", ", new TreeSet<>(drained));
    }

    private ServerViews() {}

    private static List<String> sorted(List<String> models) {
        return models.stream().sorted().toList();
    }

    static List<ServerView> of(Map<String, ServerTelemetry> reports, Map<String, Long> reportTimes,
            Map<String, Double> stagesPerSecond, Map<String, Double> requestsPerSecond, long nowMillis,
            Duration livenessTimeout, Set<String> drained, CatalogBytes catalog) {
        TreeSet<String> ids = new TreeSet<>(reports.keySet());
        ids.addAll(stagesPerSecond.keySet());
        List<ServerView> out = new ArrayList<>();
        for (String id : ids) {
            ServerTelemetry t = reports.get(id);
            double stages = stagesPerSecond.getOrDefault(id, 0.0);
            double requests = requestsPerSecond.getOrDefault(id, 0.0);
            if (t == null) {
                out.add(new ServerView(id, "silent", stages, requests, 0, List.of(), List.of(), 0L)); // placed on, never heard
                continue;
            }
            long at = reportTimes.get(id);
            String state = !t.up() ? "down" : nowMillis - at > livenessTimeout.toMillis() ? "silent"
                    : drained.contains(id) ? "drained" : "up";
            out.add(new ServerView(id, state, stages, requests, t.ongoingRequests(),
                    sorted(catalog.whole(t.cachedModels())), sorted(catalog.partly(t.cachedModels())), at));
        }
        return out;
    }
}
