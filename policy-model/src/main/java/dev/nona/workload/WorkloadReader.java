package dev.nona.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads a workload file (JSON, or YAML when the name ends in {@code .yaml}/{@code .yml}):
 *
 * <pre>{@code
 * {"cluster": {"servers": 80, "opsPerSecond": 1.0e13, "linkBitsPerSecond": 1.0e10},
 *  "models": [{"name": "resnet18", "dag": {"zoo": "resnet18"}, "ratePerSecond": 200},
 *             {"name": "mine", "dag": {"file": "mine.json"}, "ratePerSecond": 5}],
 *  "background": {"comm": {"ratePerSecond": 950, "bytes": 1.0e7}, "compute": {"ratePerSecond": 10, "ops": 1.0e9}}}
 * }</pre>
 *
 * Relative DAG paths resolve against the workload file's folder. Unknown and missing fields are errors that name
 * the field by its path, e.g. {@code models[1].dag.fiel}. Thread-safe.
 */
public final class WorkloadReader {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private WorkloadReader() {}

    /** Reads a workload file; relative DAG paths resolve against its folder. */
    public static Workload read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new WorkloadException("workload file " + file + " cannot be read: " + DagSources.ioMessage(e), e);
        }
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        boolean yaml = name.endsWith(".yaml") || name.endsWith(".yml");
        Path base = file.toAbsolutePath().getParent();
        return parse(text, yaml, base);
    }

    /** Parses workload text (JSON, or YAML when {@code yaml}); relative paths resolve against {@code baseDir}. */
    public static Workload parse(String text, boolean yaml, Path baseDir) {
        JsonNode root;
        try {
            root = (yaml ? YAML : JSON).readTree(text);
        } catch (JsonProcessingException e) {
            throw new WorkloadException("workload is not valid " + (yaml ? "YAML" : "JSON") + ": " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new WorkloadException("workload must be an object with 'cluster' and 'models'");
        }
        return new WorkloadReader.Walker(baseDir).workload(root);
    }

    /** Walks the tree; every accessor knows its path for messages. */
    private record Walker(Path baseDir) {
        Workload workload(JsonNode n) {
            allow(n, "", Set.of("cluster", "models", "background"));
            Cluster cluster = cluster(required(n, "", "cluster"));
            JsonNode ms = required(n, "", "models");
            if (!ms.isArray()) {
                throw new WorkloadException("models must be a list");
            }
            List<ModelSpec> models = new ArrayList<>();
            for (int i = 0; i < ms.size(); i++) {
                models.add(model(ms.get(i), "models[" + i + "]"));
            }
            JsonNode bg = n.get("background");
            return new Workload(cluster, models, bg == null || bg.isNull() ? Background.NONE : background(bg));
        }

        Cluster cluster(JsonNode n) {
            allow(n, "cluster", Set.of("servers", "opsPerSecond", "linkBitsPerSecond", "serverClasses", "coldStart"));
            ColdStartCost coldStart = coldStart(n.get("coldStart"));
            JsonNode classes = n.get("serverClasses");
            if (classes != null && !classes.isNull()) {
                for (String uniform : List.of("servers", "opsPerSecond")) {
                    if (n.has(uniform)) {
                        throw new WorkloadException("cluster.serverClasses and cluster." + uniform
                                + " are both given: give either serverClasses or servers + opsPerSecond");
                    }
                }
                return Cluster.ofClasses(serverClasses(classes), number(n, "cluster", "linkBitsPerSecond"), coldStart);
            }
            int servers = whole(n, "cluster", "servers", 1);
            double ops = number(n, "cluster", "opsPerSecond");
            return new Cluster(servers, ops, number(n, "cluster", "linkBitsPerSecond"), null, coldStart);
        }

        List<ServerClass> serverClasses(JsonNode list) {
            if (!list.isArray() || list.isEmpty()) {
                throw new WorkloadException("cluster.serverClasses (" + list + ") must be a non-empty list");
            }
            List<ServerClass> out = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                String path = "cluster.serverClasses[" + i + "]";
                JsonNode c = list.get(i);
                allow(c, path, Set.of("name", "count", "opsPerSecond", "memoryBytes"));
                String name = text(c, path, "name");
                if (name.isBlank()) {
                    throw new WorkloadException(path + ".name (\"" + name + "\") must not be blank");
                }
                int count = whole(c, path, "count", 1);
                double ops = finite(c, path, "opsPerSecond", false);
                double memory = c.has("memoryBytes") ? finite(c, path, "memoryBytes", false) : ServerClass.UNBOUNDED;
                out.add(new ServerClass(name, count, ops, memory));
            }
            return out;
        }

        ColdStartCost coldStart(JsonNode n) {
            if (n == null || n.isNull()) {
                return null;
            }
            allow(n, "cluster.coldStart", Set.of("fixedSeconds", "loadBytesPerSecond", "weight", "rentHalfLifeSeconds"));
            return new ColdStartCost(finite(n, "cluster.coldStart", "fixedSeconds", true),
                    finite(n, "cluster.coldStart", "loadBytesPerSecond", false),
                    n.has("weight") ? finite(n, "cluster.coldStart", "weight", false) : ColdStartCost.DEFAULT_WEIGHT,
                    n.has("rentHalfLifeSeconds") ? finite(n, "cluster.coldStart", "rentHalfLifeSeconds", false)
                            : ColdStartCost.DEFAULT_RENT_HALF_LIFE_SECONDS);
        }

        ModelSpec model(JsonNode n, String path) {
            allow(n, path, Set.of("name", "dag", "ratePerSecond", "coldStart", "sizeBytes"));
            String name = text(n, path, "name");
            JsonNode cs = n.get("coldStart");
            ColdStart coldStart = null;
            if (cs != null && !cs.isNull()) {
                allow(cs, path + ".coldStart", Set.of("seconds", "warmServers"));
                double warm = number(cs, path + ".coldStart", "warmServers");
                if (warm != Math.rint(warm) || warm < 0 || warm > Integer.MAX_VALUE) {
                    throw new WorkloadException(path + ".coldStart.warmServers (" + warm + ") must be a whole number >= 0");
                }
                coldStart = new ColdStart(number(cs, path + ".coldStart", "seconds"), (int) warm);
            }
            double size = n.has("sizeBytes") ? finite(n, path, "sizeBytes", true) : ModelSpec.NO_SIZE;
            return new ModelSpec(name, dag(required(n, path, "dag"), path + ".dag"), number(n, path, "ratePerSecond"), coldStart, size);
        }

        DagSource dag(JsonNode n, String path) {
            if (!n.isObject()) {
                throw new WorkloadException(path + " must be one of {\"zoo\": NAME}, {\"file\": PATH}, {\"pipedream\": PATH, ...}");
            }
            if (n.has("zoo")) {
                allow(n, path, Set.of("zoo"));
                return new DagSource.Zoo(text(n, path, "zoo"));
            }
            if (n.has("file")) {
                allow(n, path, Set.of("file"));
                return new DagSource.File(resolve(text(n, path, "file")));
            }
            if (n.has("pipedream")) {
                Map<String, Object> options = new LinkedHashMap<>();
                var it = n.fields();
                while (it.hasNext()) {
                    var e = it.next();
                    if (e.getKey().equals("pipedream")) {
                        continue;
                    }
                    JsonNode v = e.getValue();
                    if (!v.isValueNode() || v.isNull()) {
                        throw new WorkloadException(path + "." + e.getKey() + " must be a string, number or boolean");
                    }
                    options.put(e.getKey(), v.isNumber() ? (Object) v.doubleValue() : v.isBoolean() ? (Object) v.booleanValue() : v.asText());
                }
                return new DagSource.PipeDream(resolve(text(n, path, "pipedream")), options);
            }
            String first = n.fieldNames().hasNext() ? n.fieldNames().next() : "(none)";
            throw new WorkloadException("unknown field '" + path + "." + first + "': dag must be one of {\"zoo\": NAME}, {\"file\": PATH}, {\"pipedream\": PATH, ...}");
        }

        Background background(JsonNode n) {
            allow(n, "background", Set.of("comm", "compute"));
            Background.Comm comm = Background.Comm.NONE;
            Background.Compute compute = Background.Compute.NONE;
            JsonNode c = n.get("comm");
            if (c != null && !c.isNull()) {
                allow(c, "background.comm", Set.of("ratePerSecond", "bytes"));
                comm = new Background.Comm(number(c, "background.comm", "ratePerSecond"), number(c, "background.comm", "bytes"));
            }
            JsonNode p = n.get("compute");
            if (p != null && !p.isNull()) {
                allow(p, "background.compute", Set.of("ratePerSecond", "ops"));
                compute = new Background.Compute(number(p, "background.compute", "ratePerSecond"), number(p, "background.compute", "ops"));
            }
            return new Background(comm, compute);
        }

        Path resolve(String p) {
            Path path = Path.of(p);
            return path.isAbsolute() || baseDir == null ? path : baseDir.resolve(path).normalize();
        }

        static void allow(JsonNode n, String path, Set<String> known) {
            if (!n.isObject()) {
                throw new WorkloadException((path.isEmpty() ? "workload" : path) + " must be an object");
            }
            var names = n.fieldNames();
            while (names.hasNext()) {
                String f = names.next();
                if (!known.contains(f)) {
                    throw new WorkloadException("unknown field '" + join(path, f) + "' (known: " + new TreeSet<>(known) + ")");
                }
            }
        }

        static JsonNode required(JsonNode n, String path, String field) {
            JsonNode v = n.get(field);
            if (v == null || v.isNull()) {
                throw new WorkloadException("missing field '" + join(path, field) + "'");
            }
            return v;
        }

        static double number(JsonNode n, String path, String field) {
            JsonNode v = required(n, path, field);
            if (!v.isNumber()) {
                throw new WorkloadException(join(path, field) + " (" + v + ") must be a number");
            }
            return v.doubleValue();
        }

        /** A finite number, $\ge 0$ when {@code zeroAllowed}, else $> 0$; the error names the field and the value. */
        static double finite(JsonNode n, String path, String field, boolean zeroAllowed) {
            double v = number(n, path, field);
            if (Double.isNaN(v) || Double.isInfinite(v) || v < 0 || (!zeroAllowed && v == 0)) {
                throw new WorkloadException(join(path, field) + " (" + n.get(field) + ") must be finite and "
                        + (zeroAllowed ? ">= 0" : "> 0"));
            }
            return v;
        }

        /** A whole number at least {@code min}; the error names the field and the value. */
        static int whole(JsonNode n, String path, String field, int min) {
            double v = number(n, path, field);
            if (v != Math.rint(v)) {
                throw new WorkloadException(join(path, field) + " (" + n.get(field) + ") must be a whole number");
            }
            if (v > Integer.MAX_VALUE) {
                throw new WorkloadException(join(path, field) + " (" + n.get(field) + ") must be at most " + Integer.MAX_VALUE);
            }
            if (v < min) {
                throw new WorkloadException(join(path, field) + " (" + n.get(field) + ") must be >= " + min);
            }
            return (int) v;
        }

        static String text(JsonNode n, String path, String field) {
            JsonNode v = required(n, path, field);
            if (!v.isTextual()) {
                throw new WorkloadException(join(path, field) + " (" + v + ") must be a string");
            }
            return v.asText();
        }

        static String join(String path, String field) {
            return path.isEmpty() ? field : path + "." + field;
        }
    }
}
