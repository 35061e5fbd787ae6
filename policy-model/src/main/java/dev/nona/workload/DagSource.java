package dev.nona.workload;

import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Where a workload model's DAG comes from: {@code {"zoo": NAME}}, {@code {"file": PATH}} (our JSON DAG format) or
 * {@code {"pipedream": PATH, ...options}}. Paths are already resolved against the workload file's folder.
 */
public sealed interface DagSource {

    /** A model of the built-in zoo, by name. */
    record Zoo(String name) implements DagSource {
        public Zoo {
            Objects.requireNonNull(name, "zoo name");
        }
    }

    /** A DAG in our JSON format. */
    record File(Path path) implements DagSource {
        public File {
            Objects.requireNonNull(path, "dag file");
        }
    }

    /**
     * A PipeDream profiler graph ({@code graph.txt}) with importer options (scalars: strings, numbers, booleans)
     * that the importer checks and reports on.
     */
    record PipeDream(Path path, Map<String, Object> options) implements DagSource {
        public PipeDream {
            Objects.requireNonNull(path, "pipedream file");
            options = Collections.unmodifiableMap(new TreeMap<>(options));
        }
    }
}
