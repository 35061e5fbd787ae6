package dev.nona.dag;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Small hand-written DAGs for tests: {@code of("a>b", "b>c")} has tasks a, b, c (1 op each) and edges of 1 byte. */
final class Dags {
    private Dags() {
    }

    static ModelDag of(String... edges) {
        Set<String> ids = new LinkedHashSet<>();
        List<Edge> list = new ArrayList<>();
        for (String edge : edges) {
            String[] ends = edge.split(">");
            ids.add(ends[0]);
            if (ends.length > 1) {
                ids.add(ends[1]);
                list.add(new Edge(ends[0], ends[1], 1.0));
            }
        }
        return new ModelDag("test", ids.stream().map(id -> new Task(id, 1.0)).toList(), list);
    }
}
