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
 * @param sizeBytes     the model's weights in bytes, finite and $> 0$, or {@link #NO_SIZE} when not given; spread
 *                      over the DAG's tasks in proportion to their ops unless the tasks carry their own
 *                      {@code sizeBytes}
 */
public record ModelSpec(String name, DagSource dag, double ratePerSecond, ColdStart coldStart, double sizeBytes) {
    /** {@link #sizeBytes} of a model whose size is not given (its parts then take no memory). */
    public static final double NO_SIZE = 0;

    public ModelSpec(String name, DagSource dag, double ratePerSecond) {
        this(name, dag, ratePerSecond, null, NO_SIZE);
    }

    public ModelSpec(String name, DagSource dag, double ratePerSecond, ColdStart coldStart) {
        this(name, dag, ratePerSecond, coldStart, NO_SIZE);
    }

    public ModelSpec {
        Objects.requireNonNull(name, "model name");
        if (name.isBlank()) {
            throw new WorkloadException("model name must not be blank");
        }
        Objects.requireNonNull(dag, "model dag");
        Checks.nonNegative(ratePerSecond, "model '" + name + "': ratePerSecond", WorkloadException::new);
        Checks.nonNegative(sizeBytes, "model '" + name + "': sizeBytes", WorkloadException::new);
    }

    /** Whether the model's size is given. */
    public boolean hasSize() {
        return sizeBytes > 0;
    }

    /** The same model with another arrival rate. */
    public ModelSpec withRate(double rate) {
        return new ModelSpec(name, dag, rate, coldStart, sizeBytes);
    }
}
