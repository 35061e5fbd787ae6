package dev.nona.sim.modelaware;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.modelaware.ModelProfile;
import dev.nona.modelaware.ModelRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads a model-aware workload file (JSON). It has the workload file's {@code cluster} and {@code models}
 * sections, with model-aware fields, and a {@code requests} script instead of arrival rates:
 *
 * <pre>{@code
 * {"description": "...",
 *  "cluster": {"servers": 8, "coresPerServer": 4, "memoryMbPerServer": 192000,
 *              "networkLatencySeconds": 5.0, "targetOngoingRequests": 3},
 *  "models": [{"name": "t5-small", "sizeMb": 242, "coldStartSeconds": 3.0, "inferenceSeconds": 1.0,
 *              "preSeconds": 0.0, "postSeconds": 5.0,
 *              "catalog": {"coldStartSeconds": 3.0, "inferenceSeconds": 1.0, "cpuSeconds": 0.0}}],
 *  "requests": [{"model": "t5-small", "count": 2, "cores": 4, "arrival": "concurrent"}]}
 * }</pre>
 *
 * Defaults: {@code coresPerServer} 1, {@code memoryMbPerServer} 192000, {@code networkLatencySeconds} 0,
 * {@code targetOngoingRequests} 3, {@code preSeconds}/{@code postSeconds} 0, {@code count} 1, {@code cores} 1,
 * {@code arrival} {@code concurrent}; {@code catalog} (what the controller believes before it observes anything:
 * the priors of the live estimates) defaults field by field to the actual times. Unknown fields and bad values are errors naming the field. Thread-safe.
 */
public final class ThesisWorkloadReader {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ThesisWorkloadReader() {}

    /** Whether the file is a model-aware workload (it has a top-level {@code requests} script). */
    public static boolean isModelAware(Path file) {
        try {
            JsonNode root = JSON.readTree(Files.readString(file));
            return root != null && root.isObject() && root.has("requests");
        } catch (IOException e) {
            return false;
        }
    }

    public static ThesisWorkload read(Path file) {
        try {
            return parse(Files.readString(file));
        } catch (IOException e) {
            throw new IllegalArgumentException("workload file " + file + " cannot be read: " + e.getMessage(), e);
        }
    }

    public static ThesisWorkload parse(String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("workload is not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("workload must be an object with 'cluster', 'models' and 'requests'");
        }
        allow(root, "", Set.of("description", "cluster", "models", "requests"));
        ThesisCluster cluster = cluster(required(root, "", "cluster"));
        List<SimModel> models = new ArrayList<>();
        JsonNode ms = list(root, "models");
        for (int i = 0; i < ms.size(); i++) {
            models.add(model(ms.get(i), "models[" + i + "]"));
        }
        List<RequestGroup> groups = new ArrayList<>();
        JsonNode rs = list(root, "requests");
        for (int i = 0; i < rs.size(); i++) {
            groups.add(group(rs.get(i), "requests[" + i + "]"));
        }
        return new ThesisWorkload(cluster, models, groups);
    }

    private static ThesisCluster cluster(JsonNode n) {
        allow(n, "cluster", Set.of("servers", "coresPerServer", "memoryMbPerServer", "networkLatencySeconds",
                "targetOngoingRequests"));
        return new ThesisCluster(
                whole(n, "cluster", "servers", null),
                whole(n, "cluster", "coresPerServer", 1),
                number(n, "cluster", "memoryMbPerServer", ThesisCluster.DEFAULT_MEMORY_MB),
                number(n, "cluster", "networkLatencySeconds", 0.0),
                whole(n, "cluster", "targetOngoingRequests", ModelRegistry.DEFAULT_TARGET_ONGOING_REQUESTS));
    }

    private static SimModel model(JsonNode n, String path) {
        allow(n, path, Set.of("name", "sizeMb", "coldStartSeconds", "inferenceSeconds", "preSeconds", "postSeconds", "catalog"));
        SimModel actual = new SimModel(text(n, path, "name", null), number(n, path, "sizeMb", null),
                number(n, path, "coldStartSeconds", null), number(n, path, "inferenceSeconds", null),
                number(n, path, "preSeconds", 0.0), number(n, path, "postSeconds", 0.0));
        JsonNode c = n.get("catalog");
        if (c == null || c.isNull()) {
            return actual;
        }
        String cp = path + ".catalog";
        allow(c, cp, Set.of("coldStartSeconds", "inferenceSeconds", "cpuSeconds"));
        ModelProfile truth = actual.profile();
        ModelProfile catalog = new ModelProfile(truth.name(), truth.sizeMb(),
                number(c, cp, "coldStartSeconds", truth.coldStartSeconds()),
                number(c, cp, "inferenceSeconds", truth.inferenceSeconds()),
                number(c, cp, "cpuSeconds", truth.cpuSeconds()));
        return new SimModel(actual.name(), actual.sizeMb(), actual.coldStartSeconds(), actual.inferenceSeconds(),
                actual.preSeconds(), actual.postSeconds(), catalog);
    }

    private static RequestGroup group(JsonNode n, String path) {
        allow(n, path, Set.of("model", "count", "cores", "arrival"));
        return new RequestGroup(text(n, path, "model", null), whole(n, path, "count", 1), whole(n, path, "cores", 1),
                RequestGroup.Arrival.parse(text(n, path, "arrival", "concurrent"), path + ".arrival"));
    }

    private static void allow(JsonNode n, String path, Set<String> known) {
        if (!n.isObject()) {
            throw new IllegalArgumentException((path.isEmpty() ? "workload" : path) + " must be an object");
        }
        n.fieldNames().forEachRemaining(f -> {
            if (!known.contains(f)) {
                throw new IllegalArgumentException("unknown field '" + join(path, f) + "' (known: " + new TreeSet<>(known) + ")");
            }
        });
    }

    private static JsonNode required(JsonNode n, String path, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            throw new IllegalArgumentException("missing field '" + join(path, field) + "'");
        }
        return v;
    }

    private static JsonNode list(JsonNode n, String field) {
        JsonNode v = required(n, "", field);
        if (!v.isArray()) {
            throw new IllegalArgumentException(field + " must be a list");
        }
        return v;
    }

    private static double number(JsonNode n, String path, String field, Double fallback) {
        JsonNode v = n.get(field);
        if ((v == null || v.isNull()) && fallback != null) {
            return fallback;
        }
        v = required(n, path, field);
        if (!v.isNumber()) {
            throw new IllegalArgumentException(join(path, field) + " (" + v + ") must be a number");
        }
        return v.doubleValue();
    }

    private static int whole(JsonNode n, String path, String field, Integer fallback) {
        double d = number(n, path, field, fallback == null ? null : fallback.doubleValue());
        if (d != Math.rint(d) || Math.abs(d) > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(join(path, field) + " (" + d + ") must be a whole number");
        }
        return (int) d;
    }

    private static String text(JsonNode n, String path, String field, String fallback) {
        JsonNode v = n.get(field);
        if ((v == null || v.isNull()) && fallback != null) {
            return fallback;
        }
        v = required(n, path, field);
        if (!v.isTextual()) {
            throw new IllegalArgumentException(join(path, field) + " (" + v + ") must be a string");
        }
        return v.asText();
    }

    private static String join(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }
}
