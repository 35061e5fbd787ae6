package dev.nona.dag;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/** Random DAGs for property tests, and reachability over them. */
final class RandomDags {
    private RandomDags() {
    }

    /**
     * A DAG with {@code n} tasks: edge i -> j (i < j) with probability {@code p}, so every graph is acyclic;
     * tasks are listed in a shuffled order so that input order is not a topological order.
     */
    static ModelDag random(long seed, int n, double p) {
        Random random = new Random(seed);
        List<Task> tasks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            tasks.add(new Task("t" + i, random.nextInt(10)));
        }
        Collections.shuffle(tasks, random);
        List<Edge> edges = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (random.nextDouble() < p) {
                    edges.add(new Edge("t" + i, "t" + j, random.nextInt(100)));
                }
            }
        }
        return new ModelDag("random-" + seed, tasks, edges);
    }

    /** The contracted DAG as a plain model DAG (to contract it again or compare reachability). */
    static ModelDag asModel(ContractedDag dag) {
        return new ModelDag(dag.name(),
                dag.nodes().stream().map(n -> new Task(n.id(), n.ops())).toList(),
                dag.edges());
    }

    /** reach.get(x) = every task reachable from x by a path of at least one edge. */
    static Map<String, Set<String>> reachability(List<String> ids, List<Edge> edges) {
        Map<String, List<String>> out = new HashMap<>();
        ids.forEach(id -> out.put(id, new ArrayList<>()));
        edges.forEach(e -> out.get(e.from()).add(e.to()));
        Map<String, Set<String>> reach = new HashMap<>();
        for (String start : ids) {
            Set<String> seen = new HashSet<>();
            List<String> stack = new ArrayList<>(out.get(start));
            while (!stack.isEmpty()) {
                String x = stack.remove(stack.size() - 1);
                if (seen.add(x)) {
                    stack.addAll(out.get(x));
                }
            }
            reach.put(start, seen);
        }
        return reach;
    }

    static Map<String, Set<String>> reachability(ModelDag dag) {
        return reachability(dag.tasks().stream().map(Task::id).toList(), dag.edges());
    }
}
