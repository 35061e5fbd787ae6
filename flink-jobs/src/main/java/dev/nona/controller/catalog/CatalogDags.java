package dev.nona.controller.catalog;

import dev.nona.dag.Edge;
import dev.nona.dag.ModelDag;
import dev.nona.dag.Task;
import dev.nona.dag.TaskBytes;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.ModelCatalogEntry;
import java.util.ArrayList;
import java.util.List;

/**
 * The one conversion between the {@code model-catalog} topic's DAG ({@link CatalogDag}, kafka-topics, which does not
 * depend on policy-model) and policy-model's {@link ModelDag}, field by field: task id and ops, edge endpoints and
 * bytes, a task's {@code sizeBytes} when it carries one, in the same order; and the one place a catalog entry's
 * {@code sizeBytes} becomes its tasks' ({@link #sized}). This module is the lowest that sees both types. Each direction validates on the way in
 * (the target record's constructor). Stateless, thread-safe.
 */
public final class CatalogDags {
    private CatalogDags() {}

    /** Policy-model's DAG of catalog model {@code model} (named {@code model}, whatever the catalog DAG's name). */
    public static ModelDag toModelDag(String model, CatalogDag dag) {
        return new ModelDag(model,
                dag.tasks().stream().map(t -> t.sizeBytes() == null ? new Task(t.id(), t.ops())
                        : new Task(t.id(), t.ops(), t.sizeBytes())).toList(),
                dag.edges().stream().map(e -> new Edge(e.from(), e.to(), e.bytes())).toList());
    }

    /** The catalog DAG of {@code dag}, under the DAG's own name. */
    public static CatalogDag toCatalogDag(ModelDag dag) {
        return toCatalogDag(dag.name(), dag);
    }

    /** The catalog DAG of {@code dag}, named {@code name}. */
    public static CatalogDag toCatalogDag(String name, ModelDag dag) {
        return new CatalogDag(name,
                dag.tasks().stream().map(t -> t.hasSize() ? new CatalogTask(t.id(), t.ops(), t.sizeBytes())
                        : new CatalogTask(t.id(), t.ops())).toList(),
                dag.edges().stream().map(e -> new CatalogEdge(e.from(), e.to(), e.bytes())).toList());
    }

    /**
     * The entry's DAG with every task's bytes ({@code dag.TaskBytes}): the tasks' own {@code sizeBytes} when they
     * carry them, else the entry's {@code sizeBytes} spread over the tasks by ops; the DAG itself when neither is
     * given (then tasks take no memory).
     */
    public static CatalogDag sized(ModelCatalogEntry entry) {
        CatalogDag dag = entry.dag();
        if (entry.sizeBytes() == null || dag.tasks().get(0).sizeBytes() != null) {
            return dag;
        }
        double[] bytes = TaskBytes.perTask(toModelDag(entry.model(), dag), entry.sizeBytes());
        List<CatalogTask> tasks = new ArrayList<>(bytes.length);
        for (int i = 0; i < bytes.length; i++) {
            CatalogTask t = dag.tasks().get(i);
            tasks.add(new CatalogTask(t.id(), t.ops(), bytes[i]));
        }
        return new CatalogDag(dag.name(), tasks, dag.edges());
    }

    /** Each task's bytes of a (sized) catalog DAG, in its task order: 0 for a task without {@code sizeBytes}. */
    public static double[] taskBytes(CatalogDag dag) {
        double[] out = new double[dag.tasks().size()];
        for (int i = 0; i < out.length; i++) {
            Double b = dag.tasks().get(i).sizeBytes();
            out[i] = b == null ? 0 : b;
        }
        return out;
    }

    /** A (sized) catalog DAG's bytes, whole: the sum of its tasks' ({@link #taskBytes}; 0 when none has any). */
    public static double bytes(CatalogDag dag) {
        double sum = 0;
        for (double b : taskBytes(dag)) {
            sum += b;
        }
        return sum;
    }
}
