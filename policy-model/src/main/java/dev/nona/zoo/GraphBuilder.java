package dev.nona.zoo;

import dev.nona.dag.Edge;
import dev.nona.dag.ModelDag;
import dev.nona.dag.Task;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Accumulates the tasks and edges of a generated model DAG. Each task is added with its compute cost
 * and the size of its output tensor; every edge out of a task carries that size (the producer's output,
 * as in PipeDream's graphs). Tasks keep the order in which they were added, which is a topological order.
 *
 * <p>Not thread-safe; one builder per generated model.
 */
final class GraphBuilder {
    private final List<Task> tasks = new ArrayList<>();
    private final List<Edge> edges = new ArrayList<>();
    private final Map<String, Double> outputBytes = new HashMap<>();

    /**
     * Adds a task fed by the outputs of {@code inputs}, which must have been added before.
     *
     * @param id          unique task id
     * @param ops         compute cost in operations (a multiply-add counts 2)
     * @param outBytes    bytes of the task's output tensor for one request
     * @param inputs      ids of the producers of the task's inputs
     * @return {@code id}, for chaining
     */
    String add(String id, double ops, double outBytes, String... inputs) {
        if (outputBytes.containsKey(id)) {
            throw new IllegalStateException("BUG: task id '" + id + "' added twice");
        }
        tasks.add(new Task(id, ops));
        for (String input : inputs) {
            Double bytes = outputBytes.get(input);
            if (bytes == null) {
                throw new IllegalStateException("BUG: task '" + id + "' reads '" + input + "', which was not added before");
            }
            edges.add(new Edge(input, id, bytes));
        }
        outputBytes.put(id, outBytes);
        return id;
    }

    ModelDag build(String name) {
        return new ModelDag(name, tasks, edges);
    }
}
