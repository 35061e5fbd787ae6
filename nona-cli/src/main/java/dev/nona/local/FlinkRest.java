package dev.nona.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * A few calls of Flink's REST API: cluster overview, job status and metrics (enough to wait for a cluster and
 * watch a job recover), and job submission as a user does it ({@code /jars/upload}, {@code /jars/<id>/run}: the
 * JobManager runs the jar's entry class itself, so the jar must hold every class the job needs). Thread safe.
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

    /** {@code POST /jars/upload} (multipart, field {@code jarfile}); returns the jar id the JobManager gave it. */
    public String uploadJar(Path jar) {
        String boundary = "nona-" + UUID.randomUUID();
        try {
            byte[] head = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
                    + jar.getFileName() + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n")
                    .getBytes(StandardCharsets.UTF_8);
            byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
            HttpRequest req = HttpRequest.newBuilder(base.resolve("/jars/upload")).timeout(Duration.ofSeconds(120))
                    .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                    .POST(HttpRequest.BodyPublishers.concat(HttpRequest.BodyPublishers.ofByteArray(head),
                            HttpRequest.BodyPublishers.ofFile(jar), HttpRequest.BodyPublishers.ofByteArray(tail)))
                    .build();
            JsonNode body = send(req, "upload of " + jar);
            String file = body.path("filename").asText("");
            if (!"success".equals(body.path("status").asText()) || file.isEmpty()) {
                throw new IllegalStateException("upload of " + jar + " failed: " + body);
            }
            return file.substring(file.lastIndexOf('/') + 1);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot upload " + jar + " to " + base, e);
        }
    }

    /**
     * {@code POST /jars/<jarId>/run}: the JobManager runs {@code entryClass} from the uploaded jar with {@code
     * args}; returns the job id. A job whose main fails (e.g. a class missing from the jar) is an exception
     * carrying the JobManager's error.
     */
    public String runJar(String jarId, String entryClass, int parallelism, List<String> args) {
        ObjectNode request = JSON.createObjectNode();
        request.put("entryClass", entryClass);
        request.put("parallelism", parallelism);
        ArrayNode list = request.putArray("programArgsList");
        args.forEach(list::add);
        HttpRequest req = HttpRequest.newBuilder(base.resolve("/jars/" + jarId + "/run")).timeout(Duration.ofSeconds(120))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(request.toString(), StandardCharsets.UTF_8))
                .build();
        JsonNode body = send(req, "run of " + entryClass + " from jar " + jarId);
        String job = body.path("jobid").asText("");
        if (job.isEmpty()) {
            throw new IllegalStateException("run of " + entryClass + " from jar " + jarId + " returned no job id: " + body);
        }
        return job;
    }

    private JsonNode send(HttpRequest req, String what) {
        try {
            HttpResponse<String> resp = http.send(req, HttpResponse.BodyHandlers.ofString());
            if (resp.statusCode() != 200) {
                throw new IllegalStateException(what + " failed: HTTP " + resp.statusCode() + ": " + resp.body());
            }
            return JSON.readTree(resp.body());
        } catch (IOException e) {
            throw new UncheckedIOException(what + " failed at " + base, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + " interrupted", e);
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

    /**
     * The resource ids of the TaskManagers that run at least one of the job's subtasks
     * ({@code /jobs/<id>/vertices/<vertex>}, field {@code taskmanager-id}); empty when the JobManager does not answer.
     */
    public Set<String> taskManagersRunning(String jobId) {
        Set<String> ids = new TreeSet<>();
        get("/jobs/" + jobId).ifPresent(job -> {
            for (JsonNode v : job.path("vertices")) {
                get("/jobs/" + jobId + "/vertices/" + v.path("id").asText()).ifPresent(vertex -> {
                    for (JsonNode subtask : vertex.path("subtasks")) {
                        String tm = subtask.path("taskmanager-id").asText("");
                        if (!tm.isEmpty() && !"(unassigned)".equals(tm)) {
                            ids.add(tm);
                        }
                    }
                });
            }
        });
        return ids;
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

    /** The id of the job's latest completed checkpoint, or empty when none (or the JobManager does not answer). */
    public OptionalLong latestCompletedCheckpointId(String jobId) {
        return get("/jobs/" + jobId + "/checkpoints").map(n -> n.path("latest").path("completed").path("id"))
                .filter(JsonNode::isNumber).map(id -> OptionalLong.of(id.asLong())).orElse(OptionalLong.empty());
    }

    /**
     * The id of the checkpoint the job's current execution was restored from (after a restart or a JobManager
     * failover), or empty when it started without one.
     */
    public OptionalLong restoredCheckpointId(String jobId) {
        return get("/jobs/" + jobId + "/checkpoints").map(n -> n.path("latest").path("restored").path("id"))
                .filter(JsonNode::isNumber).map(id -> OptionalLong.of(id.asLong())).orElse(OptionalLong.empty());
    }
}
