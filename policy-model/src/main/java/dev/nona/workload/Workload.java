package dev.nona.workload;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A workload: the cluster, the job classes with their arrival rates, and optional background load. This is what
 * the optimiser is solved for. Read one with {@link WorkloadReader}.
 *
 * <p>To add an optional field (other issues do), add a component here or to the record it belongs to, keep the
 * old constructor as an overload that passes the default, and read it in {@link WorkloadReader}.
 *
 * @param cluster    the cluster
 * @param models     the job classes, unique names; empty only for a background-only workload (one the simulator
 *                   runs, the optimiser cannot)
 * @param background background load, {@link Background#NONE} when absent; with no models it must have jobs
 */
public record Workload(Cluster cluster, List<ModelSpec> models, Background background) {
    public Workload {
        Objects.requireNonNull(cluster, "cluster");
        models = List.copyOf(models);
        background = background == null ? Background.NONE : background;
        if (models.isEmpty() && !background.hasJobs()) {
            throw new WorkloadException("models must list at least one model, or background must have jobs "
                    + "(comm or compute with ratePerSecond > 0) for a background-only workload");
        }
        Set<String> names = new HashSet<>();
        for (ModelSpec m : models) {
            if (!names.add(m.name())) {
                throw new WorkloadException("models: duplicate name '" + m.name() + "'");
            }
        }
    }

    /** True if no model is listed: only background jobs arrive. */
    public boolean backgroundOnly() {
        return models.isEmpty();
    }

    /** The same workload with every rate multiplied by {@code factor}. */
    public Workload scaleRates(double factor) {
        return new Workload(cluster, models.stream().map(m -> m.withRate(m.ratePerSecond() * factor)).toList(), background);
    }
}
