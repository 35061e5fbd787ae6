package dev.nona.workload;

import dev.nona.dag.DagJson;
import dev.nona.dag.ModelDag;
import dev.nona.dag.PipeDreamConversion;
import dev.nona.dag.PipeDreamImporter;
import dev.nona.zoo.ModelZoo;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Loads the DAG a {@link DagSource} names. PipeDream options: {@code batchSize} (default
 * {@value PipeDreamConversion#DEFAULT_BATCH_SIZE}) and {@code referenceOpsPerSecond} (default
 * {@value PipeDreamConversion#DEFAULT_REFERENCE_OPS_PER_SECOND}); others are errors.
 */
public final class DagSources {
    private static final Set<String> PIPEDREAM_OPTIONS = Set.of("batchSize", "referenceOpsPerSecond");

    private DagSources() {}

    /**
     * Loads the DAG.
     *
     * @param model the model's name, for messages
     * @throws WorkloadException naming the model and the source when it cannot be read or is invalid
     */
    public static ModelDag load(String model, DagSource source) {
        try {
            if (source instanceof DagSource.Zoo z) {
                return ModelZoo.load(z.name());
            }
            if (source instanceof DagSource.File f) {
                return DagJson.read(f.path());
            }
            DagSource.PipeDream p = (DagSource.PipeDream) source;
            return PipeDreamImporter.read(p.path(), conversion(model, p.options()));
        } catch (IOException e) {
            throw new WorkloadException("model '" + model + "': dag " + describe(source) + " cannot be read: " + ioMessage(e), e);
        } catch (IllegalArgumentException e) {
            if (e instanceof WorkloadException w) {
                throw w;
            }
            throw new WorkloadException("model '" + model + "': dag " + describe(source) + ": " + e.getMessage(), e);
        }
    }

    static String ioMessage(IOException e) {
        return e instanceof NoSuchFileException ? "no such file" : e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    private static PipeDreamConversion conversion(String model, Map<String, Object> options) {
        for (String k : options.keySet()) {
            if (!PIPEDREAM_OPTIONS.contains(k)) {
                throw new WorkloadException("model '" + model + "': unknown pipedream option '" + k + "' (known: "
                        + new TreeSet<>(PIPEDREAM_OPTIONS) + ")");
            }
        }
        double batch = number(model, options, "batchSize", PipeDreamConversion.DEFAULT_BATCH_SIZE);
        if (batch != Math.rint(batch)) {
            throw new WorkloadException("model '" + model + "': pipedream batchSize (" + batch + ") must be a whole number");
        }
        return new PipeDreamConversion(number(model, options, "referenceOpsPerSecond",
                PipeDreamConversion.DEFAULT_REFERENCE_OPS_PER_SECOND), (int) batch);
    }

    private static double number(String model, Map<String, Object> options, String key, double dflt) {
        Object v = options.get(key);
        if (v == null) {
            return dflt;
        }
        if (!(v instanceof Double d)) {
            throw new WorkloadException("model '" + model + "': pipedream " + key + " (" + v + ") must be a number");
        }
        return d;
    }

    private static String describe(DagSource s) {
        if (s instanceof DagSource.Zoo z) {
            return "{zoo: " + z.name() + "}";
        }
        if (s instanceof DagSource.File f) {
            return "{file: " + f.path() + "}";
        }
        return "{pipedream: " + ((DagSource.PipeDream) s).path() + "}";
    }
}
