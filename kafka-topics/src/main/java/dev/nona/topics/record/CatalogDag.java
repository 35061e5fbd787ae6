package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A model DAG in policy-model's JSON DAG format, {@code {"name","tasks":[{"id","ops"}],"edges":[{"from","to","bytes"}]}}.
 * A task may carry {@code sizeBytes} (its weights); then every task does.
 * Kept as a plain record so that this module does not depend on policy-model; the controller converts it to a
 * {@code ModelDag} field by field.
 *
 * <p>Checked here: at least one task, unique task ids, edges between known tasks, no self-loop, no duplicate edge,
 * no cycle (Kahn's algorithm, $O(|T| + |D|)$). Everything else about the graph is policy-model's business.
 *
 * @param name  the DAG's name, not blank
 * @param tasks its tasks, at least one (copied)
 * @param edges its edges (copied)
 */
@JsonPropertyOrder({"name", "tasks", "edges"})
public record CatalogDag(
        @JsonProperty(required = true) String name,
        @JsonProperty(required = true) List<CatalogTask> tasks,
        @JsonProperty(required = true) List<CatalogEdge> edges) {

    public CatalogDag {
        Fields.requireText("name", name);
        tasks = Fields.copyElements("tasks", tasks);
        edges = Fields.copyElements("edges", edges);
        if (tasks.isEmpty()) {
            throw new InvalidRecordException("field 'tasks' ([]) must hold at least one task");
        }
        requireSizesOfAllOrNone(tasks);
        requireAcyclic(indexTasks(tasks), edges);
    }

    /** A DAG gives {@code sizeBytes} for every task or for none. */
    private static void requireSizesOfAllOrNone(List<CatalogTask> tasks) {
        boolean first = tasks.get(0).sizeBytes() != null;
        for (int i = 1; i < tasks.size(); i++) {
            if ((tasks.get(i).sizeBytes() != null) != first) {
                throw new InvalidRecordException("field 'tasks[" + i + "].sizeBytes' ("
                        + tasks.get(i).sizeBytes() + ") must be given for every task or for none (tasks[0].sizeBytes: "
                        + tasks.get(0).sizeBytes() + ")");
            }
        }
    }

    private static Map<String, Integer> indexTasks(List<CatalogTask> tasks) {
        Map<String, Integer> index = new HashMap<>(tasks.size() * 2);
        for (int i = 0; i < tasks.size(); i++) {
            if (index.putIfAbsent(tasks.get(i).id(), i) != null) {
                throw new InvalidRecordException("field 'tasks[" + i + "].id' ('" + tasks.get(i).id() + "') is not unique");
            }
        }
        return index;
    }

    private static void requireAcyclic(Map<String, Integer> index, List<CatalogEdge> edges) {
        int n = index.size();
        int[] inDegree = new int[n];
        List<List<Integer>> successors = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            successors.add(new ArrayList<>(2));
        }
        Set<String> seen = new HashSet<>(edges.size() * 2);
        for (int i = 0; i < edges.size(); i++) {
            CatalogEdge e = edges.get(i);
            int from = endpoint(index, i, "from", e.from());
            int to = endpoint(index, i, "to", e.to());
            if (from == to) {
                throw new InvalidRecordException("field 'edges[" + i + "]' (" + e.from() + "->" + e.to() + ") is a self-loop");
            }
            if (!seen.add(e.from() + "\u0000" + e.to())) {
                throw new InvalidRecordException("field 'edges[" + i + "]' (" + e.from() + "->" + e.to() + ") is listed twice");
            }
            successors.get(from).add(to);
            inDegree[to]++;
        }
        Deque<Integer> ready = new ArrayDeque<>();
        for (int i = 0; i < n; i++) {
            if (inDegree[i] == 0) {
                ready.add(i);
            }
        }
        int visited = 0;
        while (!ready.isEmpty()) {
            int t = ready.poll();
            visited++;
            for (int s : successors.get(t)) {
                if (--inDegree[s] == 0) {
                    ready.add(s);
                }
            }
        }
        if (visited < n) {
            throw new InvalidRecordException("field 'edges' has a cycle through " + (n - visited) + " of " + n + " tasks");
        }
    }

    private static int endpoint(Map<String, Integer> index, int edge, String end, String taskId) {
        Integer i = index.get(taskId);
        if (i == null) {
            throw new InvalidRecordException("field 'edges[" + edge + "]." + end + "' ('" + taskId + "') names no task");
        }
        return i;
    }
}
