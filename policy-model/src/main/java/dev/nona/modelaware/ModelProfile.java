package dev.nona.modelaware;

import dev.nona.check.Checks;

/**
 * What the catalog says about a model: its size in memory and the times the thesis measures for it.
 * These are the priors of {@link LatencyEstimator}; observed times refine them.
 *
 * @param name             the model's name, e.g. {@code t5-small}
 * @param sizeMb           memory the loaded model occupies (MB), $&gt; 0$
 * @param coldStartSeconds $T_{CS}$: time to load the model on a server that does not hold it
 * @param inferenceSeconds $T_I$: time of one inference on a warm server
 * @param cpuSeconds       $T_P$: the request's CPU pre- plus post-processing time
 */
public record ModelProfile(
        String name, double sizeMb, double coldStartSeconds, double inferenceSeconds, double cpuSeconds) {
    public ModelProfile {
        Checks.notBlank(name, "model name");
        Checks.positive(sizeMb, "model '" + name + "': sizeMb");
        Checks.nonNegative(coldStartSeconds, "model '" + name + "': coldStartSeconds");
        Checks.nonNegative(inferenceSeconds, "model '" + name + "': inferenceSeconds");
        Checks.nonNegative(cpuSeconds, "model '" + name + "': cpuSeconds");
    }
}
