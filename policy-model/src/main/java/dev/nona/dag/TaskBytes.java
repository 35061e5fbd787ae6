package dev.nona.dag;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a model's weights live: the bytes of each of its tasks, and so the footprint of a part (the sum of its
 * tasks' bytes). A DAG whose tasks carry their own {@code sizeBytes} gives them; otherwise the model's
 * {@code sizeBytes} is spread over the tasks in proportion to their ops (evenly when every task has 0 ops). A DAG
 * must give the bytes of every task or of none.
 */
public final class TaskBytes {
    private TaskBytes() {
    }

    /**
     * Bytes per task of {@code dag}, in the order of {@link ModelDag#tasks()}.
     *
     * @param modelSizeBytes the model's weights, finite and $\ge 0$ (0: not given; then tasks weigh 0 unless the DAG
     *                       gives their bytes)
     * @throws DagValidationException if some tasks carry {@code sizeBytes} and others do not
     */
    public static double[] perTask(ModelDag dag, double modelSizeBytes) {
        if (!(modelSizeBytes >= 0) || Double.isInfinite(modelSizeBytes)) {
            throw new DagValidationException("model '" + dag.name() + "': sizeBytes (" + modelSizeBytes
                    + ") must be finite and >= 0");
        }
        List<Task> tasks = dag.tasks();
        double[] out = new double[tasks.size()];
        int given = 0;
        Task missing = null;
        for (Task t : tasks) {
            if (t.hasSize()) {
                given++;
            } else if (missing == null) {
                missing = t;
            }
        }
        if (given > 0 && given < tasks.size()) {
            throw new DagValidationException("model '" + dag.name() + "': task '" + missing.id()
                    + "' has no sizeBytes while " + given + " of its " + tasks.size() + " tasks have one (give all or none)");
        }
        if (given > 0) {
            for (int i = 0; i < out.length; i++) {
                out[i] = tasks.get(i).sizeBytes();
            }
            return out;
        }
        double ops = 0;
        for (Task t : tasks) {
            ops += t.ops();
        }
        for (int i = 0; i < out.length; i++) {
            out[i] = ops > 0 ? modelSizeBytes * tasks.get(i).ops() / ops : modelSizeBytes / out.length;
        }
        return out;
    }

    /** Bytes per task id of {@code dag} ({@link #perTask}). */
    public static Map<String, Double> byTaskId(ModelDag dag, double modelSizeBytes) {
        double[] bytes = perTask(dag, modelSizeBytes);
        Map<String, Double> out = new HashMap<>();
        for (int i = 0; i < bytes.length; i++) {
            out.put(dag.tasks().get(i).id(), bytes[i]);
        }
        return out;
    }

    /** Bytes of each node of {@code contracted}: the sum over its original tasks (0 for a virtual node). */
    public static double[] perNode(ContractedDag contracted, Map<String, Double> bytesByTask) {
        double[] out = new double[contracted.nodes().size()];
        for (int i = 0; i < out.length; i++) {
            double sum = 0;
            for (String task : contracted.nodes().get(i).originalTasks()) {
                sum += bytesByTask.getOrDefault(task, 0.0);
            }
            out[i] = sum;
        }
        return out;
    }
}
