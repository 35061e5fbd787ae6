package dev.nona.sim.modelaware;

import dev.nona.check.Checks;
import dev.nona.modelaware.ModelProfile;

/**
 * A model as the simulator runs it: its actual times, how the request's CPU time splits into pre-processing
 * (before the inference call) and post-processing (after it), and what the catalog claims, which is where the
 * live estimates of {@code adaptive} start.
 *
 * @param name             unique in the workload
 * @param sizeMb           memory the loaded model occupies, MB
 * @param coldStartSeconds $T_{CS}$; loading occupies the server's model replica
 * @param inferenceSeconds $T_I$ on the replica
 * @param preSeconds       CPU time before the inference call, on the request's own server
 * @param postSeconds      CPU time after the response, on the request's own server
 * @param catalog          what the catalog claims (the estimator's priors); null means the actual times
 */
public record SimModel(String name, double sizeMb, double coldStartSeconds, double inferenceSeconds,
                       double preSeconds, double postSeconds, ModelProfile catalog) {
    public SimModel {
        profileOf(name, sizeMb, coldStartSeconds, inferenceSeconds, preSeconds, postSeconds);
        if (catalog != null && !catalog.name().equals(name)) {
            throw new IllegalArgumentException("model '" + name + "': catalog profile names '" + catalog.name() + "'");
        }
    }

    /** A model whose catalog tells the truth. */
    public SimModel(String name, double sizeMb, double coldStartSeconds, double inferenceSeconds,
                    double preSeconds, double postSeconds) {
        this(name, sizeMb, coldStartSeconds, inferenceSeconds, preSeconds, postSeconds, null);
    }

    /** The actual profile (with $T_P$ = pre + post); validates every field. */
    public ModelProfile profile() {
        return profileOf(name, sizeMb, coldStartSeconds, inferenceSeconds, preSeconds, postSeconds);
    }

    /** What the catalog claims: the priors of the live estimates. */
    public ModelProfile catalogProfile() {
        return catalog == null ? profile() : catalog;
    }

    private static ModelProfile profileOf(String name, double sizeMb, double tCS, double tI, double pre, double post) {
        Checks.nonNegative(pre, "model '" + name + "': preSeconds");
        Checks.nonNegative(post, "model '" + name + "': postSeconds");
        return new ModelProfile(name, sizeMb, tCS, tI, pre + post);
    }
}
