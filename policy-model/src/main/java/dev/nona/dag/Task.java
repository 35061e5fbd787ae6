package dev.nona.dag;

import java.util.Objects;

/**
 * A task of a model DAG: one operator (or a group of them) with its compute cost.
 *
 * @param id  unique id within its DAG, never blank
 * @param ops compute cost in operations (the paper's $p^t$), finite and $\ge 0$
 */
public record Task(String id, double ops) {
    public Task {
        Objects.requireNonNull(id, "task id");
        if (id.isBlank()) {
            throw new DagValidationException("task id must not be blank");
        }
        if (!(ops >= 0) || Double.isInfinite(ops)) {
            throw new DagValidationException("task '" + id + "': ops (" + ops + ") must be finite and >= 0");
        }
    }
}
