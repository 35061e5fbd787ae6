package dev.nona.workload;

import dev.nona.check.Checks;
import java.util.Objects;

/**
 * One job class of a workload: a model, where its DAG comes from, and its mean arrival rate $\beta_j$.
 *
 * @param name          the model's name, unique in its workload, never blank
 * @param dag           where its DAG comes from
 * @param ratePerSecond $\beta_j$, requests per second, finite and $\ge 0$
 * @param coldStart     optional cold-start figures for the model-aware cost term, null when absent
 */
public record ModelSpec(String name, DagSource dag, double ratePerSecond, ColdStart coldStart) {
    public ModelSpec(String name, DagSource dag, double ratePerSecond) {
        this(name, dag, ratePerSecond, null);
    }

    public ModelSpec {
        Objects.requireNonNull(name, "model name");
        if (name.isBlank()) {
            throw new WorkloadException("model name must not be blank");
        }
        Objects.requireNonNull(dag, "model dag");
        Checks.nonNegative(ratePerSecond, "model '" + name + "': ratePerSecond", WorkloadException::new);
    }

    /** The same model with another arrival rate. */
    public ModelSpec withRate(double rate) {
        return new ModelSpec(name, dag, rate, coldStart);
    }
}
