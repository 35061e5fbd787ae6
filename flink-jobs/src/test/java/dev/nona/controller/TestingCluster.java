package dev.nona.controller;

import dev.nona.controller.cluster.ClusterSnapshot;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.ServerTelemetry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Fixtures: the DAG of Nona's Fig. 1 (a fork-join of four tasks), a chain, and server statuses. */
public final class TestingCluster {
    /** $\nu$ = 1e12 ops/s, so 1e9 ops take 1 ms. */
    public static final double OPS_PER_SECOND = 1.0e12;
    public static final double LINK_BITS_PER_SECOND = 8.0e10;

    private TestingCluster() {}

    /** Nona's Fig. 1: tasks 1..4 taking 1, 10, 10, 1 ms; 1->2, 2->4 carry 100 MB; 1->3, 3->4 carry 10 MB. */
    public static CatalogDag figure1() {
        return new CatalogDag("fig1",
                List.of(new CatalogTask("t1", 1e9), new CatalogTask("t2", 1e10), new CatalogTask("t3", 1e10),
                        new CatalogTask("t4", 1e9)),
                List.of(new CatalogEdge("t1", "t2", 1e8), new CatalogEdge("t2", "t4", 1e8),
                        new CatalogEdge("t1", "t3", 1e7), new CatalogEdge("t3", "t4", 1e7)));
    }

    /** A chain a -> b -> c with small edges. */
    public static CatalogDag chain() {
        return new CatalogDag("chain",
                List.of(new CatalogTask("a", 1e9), new CatalogTask("b", 2e9), new CatalogTask("c", 1e9)),
                List.of(new CatalogEdge("a", "b", 1e5), new CatalogEdge("b", "c", 1e5)));
    }

    /**
     * Model "big", a chain of 310 bytes (a 0, b 100, c 100, d 100, e 10; 1 ms of work each), larger than a server of
     * 250 bytes but each task fits one: the optimiser cuts it where the fewest bytes cross, b -> c, into {a, b} of
     * 100 bytes and {c, d, e} of 210.
     */
    public static CatalogDag bigChain() {
        return new CatalogDag("big", List.of(new CatalogTask("a", 1e9, 0.0), new CatalogTask("b", 1e9, 100.0),
                new CatalogTask("c", 1e9, 100.0), new CatalogTask("d", 1e9, 100.0), new CatalogTask("e", 1e9, 10.0)),
                List.of(new CatalogEdge("a", "b", 5), new CatalogEdge("b", "c", 1), new CatalogEdge("c", "d", 50),
                        new CatalogEdge("d", "e", 5)));
    }

    /** {@link #bigChain()}'s bytes per task. */
    public static final Map<String, Double> BIG_CHAIN_TASK_BYTES =
            Map.of("a", 0.0, "b", 100.0, "c", 100.0, "d", 100.0, "e", 10.0);

    public static ModelCatalogEntry entry(String model, CatalogDag dag) {
        return ModelCatalogEntry.of(model, dag);
    }

    /** Server {@code id}, up, idle, holding {@code warm} models. */
    public static ServerTelemetry server(String id, long eventTime, String... warm) {
        List<CachedModel> cached = new ArrayList<>();
        for (String m : warm) {
            cached.add(new CachedModel(m, 1000));
        }
        return ServerTelemetry.of(id, true, OPS_PER_SECOND, 0, cached, LINK_BITS_PER_SECOND, eventTime);
    }

    public static ServerTelemetry down(String id, long eventTime) {
        return ServerTelemetry.of(id, false, OPS_PER_SECOND, 0, List.of(), LINK_BITS_PER_SECOND, eventTime);
    }

    public static ClusterSnapshot snapshot(int servers) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < servers; i++) {
            ids.add("s" + i);
        }
        return new ClusterSnapshot(ids, OPS_PER_SECOND, LINK_BITS_PER_SECOND);
    }
}
