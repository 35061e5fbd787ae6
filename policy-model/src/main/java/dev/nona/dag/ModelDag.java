package dev.nona.dag;

import java.util.List;
import java.util.Objects;

/**
 * A model's DAG as read or generated: the job class $j$ with tasks $\mathcal{T}^j$ and edges $\mathcal{D}^j$.
 * Immutable. Structural validity (no cycles, no dangling edges, unique ids, ...) is checked by the
 * validator in this package, not here, so that an invalid graph can still be reported on.
 *
 * @param name  the model's name
 * @param tasks its tasks
 * @param edges its data dependencies
 */
public record ModelDag(String name, List<Task> tasks, List<Edge> edges) {
    public ModelDag {
        Objects.requireNonNull(name, "dag name");
        tasks = List.copyOf(tasks);
        edges = List.copyOf(edges);
    }
}
