package dev.nona.sim.modelaware;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.sim.modelaware.policy.ModelAwarePolicies;
import java.nio.file.Path;

/**
 * The entry point {@code bin/nona simulate} uses for model-aware workloads (files with a {@code requests}
 * script, see {@link ThesisWorkloadReader}): reads the file, runs one policy, and renders the JSON report with
 * {@code makespanSeconds} and {@code coldStarts}.
 */
public final class ModelAwareSimulation {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ModelAwareSimulation() {}

    /** Whether {@code bin/nona simulate} should hand this workload file to the model-aware simulator. */
    public static boolean handles(Path workload) {
        return ThesisWorkloadReader.isModelAware(workload);
    }

    /** Runs the workload under the named policy; the one-line JSON report. */
    public static String runToJson(Path workload, String policy, long seed) {
        if (!ModelAwarePolicies.contains(policy)) {
            throw new IllegalArgumentException("--policy (" + policy + ") is not a model-aware policy; known: "
                    + String.join(", ", ModelAwarePolicies.names()));
        }
        ModelAwareResult r = new ModelAwareSimulator(ThesisWorkloadReader.read(workload), policy, seed).run();
        try {
            return JSON.writeValueAsString(r.toJson());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("BUG: model-aware report not serialisable", e);
        }
    }
}
