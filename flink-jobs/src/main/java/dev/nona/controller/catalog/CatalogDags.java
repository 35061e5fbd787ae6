package dev.nona.controller.catalog;

import dev.nona.dag.Edge;
import dev.nona.dag.ModelDag;
import dev.nona.dag.Task;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;

/**
 * The one conversion between the {@code model-catalog} topic's DAG ({@link CatalogDag}, kafka-topics, which does not
 * depend on policy-model) and policy-model's {@link ModelDag}, field by field: task id and ops, edge endpoints and
 * bytes, in the same order. This module is the lowest that sees both types. Each direction validates on the way in
 * (the target record's constructor). Stateless, thread-safe.
 */
public final class CatalogDags {
    private CatalogDags() {}

    /** Policy-model's DAG of catalog model {@code model} (named {@code model}, whatever the catalog DAG's name). */
    public static ModelDag toModelDag(String model, CatalogDag dag) {
        return new ModelDag(model,
                dag.tasks().stream().map(t -> new Task(t.id(), t.ops())).toList(),
                dag.edges().stream().map(e -> new Edge(e.from(), e.to(), e.bytes())).toList());
    }

    /** The catalog DAG of {@code dag}, under the DAG's own name. */
    public static CatalogDag toCatalogDag(ModelDag dag) {
        return toCatalogDag(dag.name(), dag);
    }

    /** The catalog DAG of {@code dag}, named {@code name}. */
    public static CatalogDag toCatalogDag(String name, ModelDag dag) {
        return new CatalogDag(name,
                dag.tasks().stream().map(t -> new CatalogTask(t.id(), t.ops())).toList(),
                dag.edges().stream().map(e -> new CatalogEdge(e.from(), e.to(), e.bytes())).toList());
    }
}
