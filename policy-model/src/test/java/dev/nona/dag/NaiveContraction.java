package dev.nona.dag;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A deliberately simple reference for {@link DagContractor}: after every contraction it rescans all edges
 * from the start for the first contractible one, in (position of a, position of b) order. Only the node
 * groups are compared, so only those are computed.
 */
final class NaiveContraction {
    private NaiveContraction() {
    }

    static List<List<String>> groups(ModelDag dag, List<String> topologicalOrder) {
        Map<String, Integer> pos = new HashMap<>();
        topologicalOrder.forEach(id -> pos.put(id, pos.size()));
        Map<String, TreeMap<Integer, String>> out = new LinkedHashMap<>();
        Map<String, TreeMap<Integer, String>> in = new HashMap<>();
        Map<String, List<String>> groups = new HashMap<>();
        for (String id : topologicalOrder) {
            out.put(id, new TreeMap<>());
            in.put(id, new TreeMap<>());
            groups.put(id, new ArrayList<>(List.of(id)));
        }
        dag.edges().forEach(e -> {
            out.get(e.from()).put(pos.get(e.to()), e.to());
            in.get(e.to()).put(pos.get(e.from()), e.from());
        });
        boolean changed = true;
        while (changed) {
            changed = false;
            scan:
            for (String a : topologicalOrder) {
                if (!out.containsKey(a)) {
                    continue;
                }
                for (String b : out.get(a).values()) {
                    if (ok(in, out, a, b)) {
                        merge(in, out, groups, pos, a, b);
                        changed = true;
                        break scan;
                    }
                }
            }
        }
        return topologicalOrder.stream().filter(out::containsKey).map(groups::get).toList();
    }

    private static boolean ok(Map<String, TreeMap<Integer, String>> in, Map<String, TreeMap<Integer, String>> out,
            String a, String b) {
        for (String n : in.get(b).values()) {
            if (!n.equals(a) && !in.get(a).containsValue(n)) {
                return false;
            }
        }
        for (String n : out.get(a).values()) {
            if (!n.equals(b) && !out.get(b).containsValue(n)) {
                return false;
            }
        }
        return true;
    }

    private static void merge(Map<String, TreeMap<Integer, String>> in, Map<String, TreeMap<Integer, String>> out,
            Map<String, List<String>> groups, Map<String, Integer> pos, String a, String b) {
        for (String n : in.get(b).values()) {
            out.get(n).remove(pos.get(b));
            if (!n.equals(a)) {
                out.get(n).put(pos.get(a), a);
                in.get(a).put(pos.get(n), n);
            }
        }
        for (String n : out.get(b).values()) {
            in.get(n).remove(pos.get(b));
            in.get(n).put(pos.get(a), a);
            out.get(a).put(pos.get(n), n);
        }
        out.get(a).remove(pos.get(b));
        in.remove(b);
        out.remove(b);
        groups.get(a).addAll(groups.remove(b));
    }
}
