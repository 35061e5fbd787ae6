package dev.nona.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;

/**
 * For a failing ITCase's message: each vertex of a running job with its subtasks' current input watermarks, read
 * from the MiniCluster's REST API ({@code /jobs/<id>/vertices/<vertex>/watermarks}). A test that waits for event
 * time to move (a window to close, a table to be solved) says where it stopped.
 */
final class JobWatermarks {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JobWatermarks() {}

    /** As {@link #describe(URI, String)}, for a MiniCluster's client configuration (its REST address and port). */
    static String describe(Configuration client, String jobId) {
        return describe(URI.create("http://" + client.get(RestOptions.ADDRESS) + ":"
                + client.get(RestOptions.PORT)), jobId);
    }

    static String describe(URI rest, String jobId) {
        try {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            JsonNode job = get(http, rest, "/jobs/" + jobId);
            StringBuilder out = new StringBuilder("watermarks of job " + jobId + " (" + job.path("state").asText() + "):");
            for (JsonNode v : job.path("vertices")) {
                out.append("\n  ").append(v.path("name").asText()).append(" [").append(v.path("status").asText())
                        .append("]:");
                for (JsonNode w : get(http, rest, "/jobs/" + jobId + "/vertices/" + v.path("id").asText() + "/watermarks")) {
                    out.append(' ').append(w.path("id").asText()).append('=').append(w.path("value").asText());
                }
            }
            return out.toString();
        } catch (Exception e) {
            return "watermarks of job " + jobId + " unavailable: " + e;
        }
    }

    private static JsonNode get(HttpClient http, URI rest, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(rest.resolve(path)).timeout(Duration.ofSeconds(5))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }
}
