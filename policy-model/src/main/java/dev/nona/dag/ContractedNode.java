package dev.nona.dag;

import java.util.List;

/**
 * A node of a contracted DAG: one or more original tasks that always run together, one after another.
 *
 * @param id            the node's id (the id of one of its tasks, or a virtual id for a virtual source/sink)
 * @param ops           sum of its tasks' ops
 * @param originalTasks ids of the original tasks it stands for, in a topological order; empty for a virtual node
 * @param virtual       true for a virtual source or sink added by decomposition
 */
public record ContractedNode(String id, double ops, List<String> originalTasks, boolean virtual) {
    public ContractedNode {
        originalTasks = List.copyOf(originalTasks);
    }
}
