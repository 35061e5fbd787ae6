package dev.nona.dag;

import java.util.Objects;

/**
 * A task of a model DAG: one operator (or a group of them) with its compute cost.
 *
 * @param id  unique id within its DAG, never blank
 * @param ops       compute cost in operations (the paper's $p^t$), finite and $\ge 0$
 * @param sizeBytes the task's weights in bytes, finite and $\ge 0$, or {@link #NO_SIZE} when the DAG does not give
 *                  them (then the model's {@code sizeBytes} is spread over its tasks by ops)
 */
public record Task(String id, double ops, double sizeBytes) {
    /** {@link #sizeBytes} of a task whose weights are not given. */
    public static final double NO_SIZE = Double.NaN;

    /** A task whose weights are not given. */
    public Task(String id, double ops) {
        this(id, ops, NO_SIZE);
    }

    /** Whether the task carries its own {@code sizeBytes}. */
    public boolean hasSize() {
        return !Double.isNaN(sizeBytes);
    }

    public Task {
        Objects.requireNonNull(id, "task id");
        if (id.isBlank()) {
            throw new DagValidationException("task id must not be blank");
        }
        if (!(ops >= 0) || Double.isInfinite(ops)) {
            throw new DagValidationException("task '" + id + "': ops (" + ops + ") must be finite and >= 0");
        }
        if (!Double.isNaN(sizeBytes) && (!(sizeBytes >= 0) || Double.isInfinite(sizeBytes))) {
            throw new DagValidationException("task '" + id + "': sizeBytes (" + sizeBytes + ") must be finite and >= 0");
        }
    }
}
