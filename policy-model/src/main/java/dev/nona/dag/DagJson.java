package dev.nona.dag;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Reads and writes the model DAG JSON format (a contract):
 * {@code {"name": "...", "tasks": [{"id": "t1", "ops": 1.0e6}], "edges": [{"from": "t1", "to": "t2", "bytes": 1.0e8}]}}.
 * A task may also carry {@code sizeBytes} (its weights, finite and $\ge 0$; give it for every task or for none).
 *
 * <p>All other fields are required ({@code edges} may be empty); unknown and repeated fields are errors, and
 * numbers must be JSON numbers (a string such as {@code "1e6"} is not coerced). Reading validates the
 * DAG ({@link DagValidator}); every error is a {@link DagValidationException} naming the field (as a path
 * such as {@code tasks[2].ops}) and the value. {@code NaN} and {@code Infinity} literals are parsed so that
 * they are rejected with that message rather than a syntax error. Thread-safe.
 */
public final class DagJson {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .build();

    private DagJson() {
    }

    /** Reads and validates a DAG from {@code file}. */
    public static ModelDag read(Path file) throws IOException {
        return read(Files.readString(file));
    }

    /** Reads and validates a DAG from a JSON document. */
    public static ModelDag read(String json) {
        JsonDag raw;
        try {
            raw = MAPPER.readValue(json, JsonDag.class);
        } catch (UnrecognizedPropertyException e) {
            throw new DagValidationException(prefix(e) + "unknown field '" + e.getPropertyName() + "'", e);
        } catch (JsonMappingException e) {
            if (e.getCause() instanceof StreamReadException syntax) {
                throw malformed(syntax);
            }
            if (e.getPath().isEmpty()) {
                throw new DagValidationException("malformed JSON: the document must be one object with name, tasks and edges", e);
            }
            throw new DagValidationException(prefix(e) + firstLine(e.getOriginalMessage()), e);
        } catch (JsonProcessingException e) {
            throw malformed(e);
        }
        if (raw == null) {
            throw new DagValidationException("malformed JSON: empty document");
        }
        ModelDag dag = raw.toModel();
        DagValidator.validate(dag);
        return dag;
    }

    /** Writes {@code dag} as pretty-printed JSON. */
    public static String write(ModelDag dag) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(JsonDag.of(dag));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("BUG: cannot serialise dag '" + dag.name() + "'", e);
        }
    }

    /** Writes {@code dag} to {@code file}. */
    public static void write(ModelDag dag, Path file) throws IOException {
        Files.writeString(file, write(dag));
    }

    private static DagValidationException malformed(JsonProcessingException e) {
        String message = firstLine(e.getOriginalMessage());
        if (message.startsWith("No content to map")) {
            return new DagValidationException("malformed JSON: empty document", e);
        }
        String line = e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")";
        return new DagValidationException("malformed JSON: " + message + line, e);
    }

    /** The message's first line without Jackson's source-location clutter. */
    private static String firstLine(String message) {
        String first = message.split("\n")[0];
        int clutter = first.indexOf(" (for ");
        if (clutter < 0) {
            clutter = first.indexOf(" (start marker at");
        }
        return clutter < 0 ? first : first.substring(0, clutter);
    }

    private static String prefix(JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            } else if (ref.getFieldName() != null && !(e instanceof UnrecognizedPropertyException && ref == last(e))) {
                path.append(path.length() == 0 ? "" : ".").append(ref.getFieldName());
            }
        }
        return path.length() == 0 ? "" : path + ": ";
    }

    private static JsonMappingException.Reference last(JsonMappingException e) {
        return e.getPath().get(e.getPath().size() - 1);
    }

    private static <T> T required(T value, String field) {
        if (value == null) {
            throw new DagValidationException(field + ": missing (required)");
        }
        return value;
    }

    private record JsonDag(String name, List<JsonTask> tasks, List<JsonEdge> edges) {
        static JsonDag of(ModelDag dag) {
            return new JsonDag(dag.name(),
                    dag.tasks().stream().map(t -> new JsonTask(t.id(), t.ops(), t.hasSize() ? t.sizeBytes() : null)).toList(),
                    dag.edges().stream().map(e -> new JsonEdge(e.from(), e.to(), e.bytes())).toList());
        }

        ModelDag toModel() {
            required(name, "name");
            required(tasks, "tasks");
            required(edges, "edges");
            List<Task> modelTasks = new ArrayList<>();
            for (int i = 0; i < tasks.size(); i++) {
                String where = "tasks[" + i + "]";
                JsonTask t = required(tasks.get(i), where);
                modelTasks.add(withPath(where, () -> new Task(required(t.id, where + ".id"), required(t.ops, where + ".ops"),
                        t.sizeBytes == null ? Task.NO_SIZE : sizeBytes(t.sizeBytes, where + ".sizeBytes"))));
            }
            List<Edge> modelEdges = new ArrayList<>();
            for (int i = 0; i < edges.size(); i++) {
                String where = "edges[" + i + "]";
                JsonEdge e = required(edges.get(i), where);
                modelEdges.add(withPath(where, () -> new Edge(required(e.from, where + ".from"),
                        required(e.to, where + ".to"), required(e.bytes, where + ".bytes"))));
            }
            return new ModelDag(name, modelTasks, modelEdges);
        }

        /** A task's {@code sizeBytes}: finite and >= 0 (NaN is not "not given": it is rejected like any bad value). */
        private static double sizeBytes(double value, String field) {
            if (!(value >= 0) || Double.isInfinite(value)) {
                throw new DagValidationException(field + " (" + value + ") must be finite and >= 0");
            }
            return value;
        }

        private static <T> T withPath(String where, Supplier<T> build) {
            try {
                return build.get();
            } catch (DagValidationException e) {
                throw e.getMessage().startsWith(where) ? e : new DagValidationException(where + ": " + e.getMessage(), e);
            }
        }
    }

    /** A task; {@code sizeBytes} is optional (absent: not given) and is written only when given. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private record JsonTask(String id, Double ops, Double sizeBytes) {
    }

    private record JsonEdge(String from, String to, Double bytes) {
    }
}
