package dev.nona.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * A few read-only calls of Flink's REST API (cluster overview, job status, job metrics), enough to wait for a
 * cluster and watch a job recover. Thread safe.
 */
public final class FlinkRest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public FlinkRest(URI base) {
        this.base = base;
    }

    public URI base() {
        return base;
    }

    /** {@code GET path} as JSON, or empty when the server does not answer (yet) or answers non-200. */
    public Optional<JsonNode> get(String path) {
        HttpRequest req = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(5)).GET().build();
        try {
            HttpResponse<String> resp = http.send(req, HttpResponse.BodyHandlers.ofString());
            return resp.statusCode() == 200 ? Optional.of(JSON.readTree(resp.body())) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Registered TaskManagers, or -1 when the JobManager does not answer. */
    public int taskManagers() {
        return get("/overview").map(n -> n.path("taskmanagers").asInt(-1)).orElse(-1);
    }

    /** Free task slots, or -1 when the JobManager does not answer. */
    public int availableSlots() {
        return get("/overview").map(n -> n.path("slots-available").asInt(-1)).orElse(-1);
    }

    /** The job's state ({@code RUNNING}, {@code RESTARTING}, ...), or empty when unknown. */
    public Optional<String> jobState(String jobId) {
        return get("/jobs/" + jobId).map(n -> n.path("state").asText());
    }

    /** True when every task of the job is {@code RUNNING}. */
    public boolean allTasksRunning(String jobId) {
        return get("/jobs/" + jobId).map(n -> {
            JsonNode vertices = n.path("vertices");
            if (!vertices.isArray() || vertices.isEmpty()) {
                return false;
            }
            for (JsonNode v : vertices) {
                if (!"RUNNING".equals(v.path("status").asText())) {
                    return false;
                }
            }
            return true;
        }).orElse(false);
    }

    /** A job-level metric (e.g. {@code numRestarts}), or empty when not (yet) reported. */
    public Optional<Double> jobMetric(String jobId, String metric) {
        return get("/jobs/" + jobId + "/metrics?get=" + metric).flatMap(n -> {
            for (JsonNode m : n) {
                if (metric.equals(m.path("id").asText())) {
                    return Optional.of(m.path("value").asDouble());
                }
            }
            return Optional.empty();
        });
    }

    /** Completed checkpoints of the job, or -1 when unknown. */
    public long completedCheckpoints(String jobId) {
        return get("/jobs/" + jobId + "/checkpoints").map(n -> n.path("counts").path("completed").asLong(-1))
                .orElse(-1L);
    }
}
