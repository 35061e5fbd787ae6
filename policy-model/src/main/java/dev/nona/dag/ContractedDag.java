package dev.nona.dag;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A model DAG after contraction (Nona's Technique 1): each node stands for one or more original tasks
 * that always run one after another on one server.
 *
 * @param name  the model's name
 * @param nodes contracted nodes in a topological order (no virtual nodes)
 * @param edges edges between contracted node ids, ordered by (producer, consumer) position in {@code nodes}
 */
public record ContractedDag(String name, List<ContractedNode> nodes, List<Edge> edges) {
    public ContractedDag {
        Objects.requireNonNull(name, "contracted dag name");
        nodes = List.copyOf(nodes);
        edges = List.copyOf(edges);
        Set<String> ids = new HashSet<>();
        for (ContractedNode node : nodes) {
            if (!ids.add(node.id())) {
                throw new IllegalArgumentException("BUG: duplicate contracted node id '" + node.id() + "'");
            }
        }
    }

    /** Maps every original task id to the id of the contracted node that holds it. */
    public Map<String, String> nodeOfTask() {
        Map<String, String> map = new HashMap<>();
        for (ContractedNode node : nodes) {
            for (String task : node.originalTasks()) {
                map.put(task, node.id());
            }
        }
        return map;
    }

    /** The node with this id. */
    public ContractedNode node(String id) {
        return nodes.stream().filter(n -> n.id().equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("contracted node id '" + id + "' is not in dag '" + name + "'"));
    }
}
