package dev.nona.optimize;

import dev.nona.check.Checks;
import dev.nona.dag.ContractedNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A job class $j$ as the optimiser sees it: its contracted DAG cut at its roots $\mathcal{R}^j$ into a chain of
 * subgraphs, each with its triplets, and its arrival rate $\beta_j$. Build one from the DAG analysis (contraction,
 * decomposition, enumeration) or by hand in tests.
 *
 * @param name          the model's name
 * @param ratePerSecond $\beta_j$, finite and $\ge 0$
 * @param nodes         every contracted node of the DAG (ops, original tasks), keyed by id
 * @param source        the first root $t_0$ (a contracted node id, possibly a virtual source)
 * @param subgraphs     in topological order: the first's root is {@code source}, each next root is the previous sink;
 *                      empty when the contracted DAG is a single node
 * @param taskBytes     the weights of each original task in bytes ({@code dev.nona.dag.TaskBytes}), finite and
 *                      $\ge 0$; a task not listed weighs 0 (empty: the model's size is not given)
 */
public record JobClass(String name, double ratePerSecond, Map<String, ContractedNode> nodes, String source,
                       List<SubgraphChoices> subgraphs, Map<String, Double> taskBytes) {
    /** A job class whose tasks weigh nothing (the model's size is not given). */
    public JobClass(String name, double ratePerSecond, Map<String, ContractedNode> nodes, String source,
                    List<SubgraphChoices> subgraphs) {
        this(name, ratePerSecond, nodes, source, subgraphs, Map.of());
    }

    public JobClass {
        Objects.requireNonNull(name, "job class name");
        Checks.nonNegative(ratePerSecond, "job class '" + name + "': ratePerSecond");
        nodes = Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
        subgraphs = List.copyOf(subgraphs);
        taskBytes = taskBytes == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(taskBytes));
        taskBytes.forEach((task, bytes) -> Checks.nonNegative(bytes, "job class '" + name + "': task '" + task + "' bytes"));
        requireNode(name, nodes, source);
        String root = source;
        for (SubgraphChoices sc : subgraphs) {
            if (!sc.subgraph().root().equals(root)) {
                throw new IllegalArgumentException("job class '" + name + "': subgraph root " + sc.subgraph().root()
                        + " does not follow the previous root's sink " + root);
            }
            for (String id : sc.subgraph().intermediates()) {
                requireNode(name, nodes, id);
            }
            requireNode(name, nodes, sc.subgraph().sink());
            root = sc.subgraph().sink();
        }
    }

    private static void requireNode(String job, Map<String, ContractedNode> nodes, String id) {
        if (!nodes.containsKey(id)) {
            throw new IllegalArgumentException("job class '" + job + "': unknown contracted node '" + id + "'");
        }
    }

    /** The same job class with another arrival rate. */
    public JobClass withRate(double rate) {
        return new JobClass(name, rate, nodes, source, subgraphs, taskBytes);
    }

    /** The same job class under another name (a model sharing this one's graph). */
    public JobClass withName(String newName) {
        return new JobClass(newName, ratePerSecond, nodes, source, subgraphs, taskBytes);
    }

    /** The same job class with other contracted nodes (e.g. their ops scaled), its bytes kept. */
    public JobClass withNodes(Map<String, ContractedNode> newNodes) {
        return new JobClass(name, ratePerSecond, newNodes, source, subgraphs, taskBytes);
    }

    /** The same job class with other subgraph choices, its bytes kept. */
    public JobClass withSubgraphs(List<SubgraphChoices> newSubgraphs) {
        return new JobClass(name, ratePerSecond, nodes, source, newSubgraphs, taskBytes);
    }

    /** The bytes of a contracted node: the sum of its original tasks' (0 for a virtual node). */
    public double nodeBytes(String nodeId) {
        ContractedNode n = nodes.get(nodeId);
        if (n == null) {
            throw new IllegalArgumentException("job class '" + name + "': unknown contracted node '" + nodeId + "'");
        }
        if (taskBytes.isEmpty()) {
            return 0;
        }
        double sum = 0;
        for (String task : n.originalTasks()) {
            sum += taskBytes.getOrDefault(task, 0.0);
        }
        return sum;
    }

    /** The bytes of the largest contracted node (0 without nodes or bytes). */
    public double largestNodeBytes() {
        double max = 0;
        for (String id : nodes.keySet()) {
            max = Math.max(max, nodeBytes(id));
        }
        return max;
    }

    /** The model's footprint: the sum of every task's bytes. */
    public double totalBytes() {
        double sum = 0;
        for (String id : nodes.keySet()) {
            sum += nodeBytes(id);
        }
        return sum;
    }

    /** Original task ids of the contracted nodes, in the order: source, then per subgraph its intermediates and sink. */
    public List<String> originalTasks() {
        List<String> out = new ArrayList<>(nodes.get(source).originalTasks());
        for (SubgraphChoices sc : subgraphs) {
            sc.subgraph().intermediates().forEach(id -> out.addAll(nodes.get(id).originalTasks()));
            out.addAll(nodes.get(sc.subgraph().sink()).originalTasks());
        }
        return out;
    }
}
