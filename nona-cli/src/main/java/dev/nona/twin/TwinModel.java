package dev.nona.twin;

import dev.nona.controller.catalog.CatalogDags;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import java.util.HashMap;
import java.util.Map;

/**
 * A catalogued model's DAG at the granularity of its original tasks (the stages a decision places), in index
 * form for the twin: task ops, each task's weights (its {@code sizeBytes}: give a DAG sized by
 * {@link CatalogDags#sized}; 0 when not given), in-degrees and each task's outgoing edges with their bytes. The
 * catalog record has already checked the graph (unique ids, known endpoints, no cycle). Immutable.
 */
final class TwinModel {
    /** Tasks and edges are packed in 20 bits of an engine item. */
    static final int MAX_INDEX = (1 << 20) - 1;

    private final String name;
    private final Map<String, Integer> index;
    private final double[] ops;
    private final double[] bytes;
    private final int[] inDegree;
    private final int[][] outEdges;
    private final int[] edgeTo;
    private final double[] edgeBytes;

    TwinModel(String name, CatalogDag dag) {
        int n = dag.tasks().size();
        int m = dag.edges().size();
        if (n > MAX_INDEX || m > MAX_INDEX) {
            throw new IllegalArgumentException("model '" + name + "' has " + n + " tasks and " + m
                    + " edges; the twin takes at most " + MAX_INDEX + " of each");
        }
        this.name = name;
        this.index = new HashMap<>(2 * n);
        this.ops = new double[n];
        for (int t = 0; t < n; t++) {
            index.put(dag.tasks().get(t).id(), t);
            ops[t] = dag.tasks().get(t).ops();
        }
        this.bytes = CatalogDags.taskBytes(dag);
        this.inDegree = new int[n];
        this.edgeTo = new int[m];
        this.edgeBytes = new double[m];
        int[] outCount = new int[n];
        for (int e = 0; e < m; e++) {
            CatalogEdge edge = dag.edges().get(e);
            edgeTo[e] = index.get(edge.to());
            edgeBytes[e] = edge.bytes();
            inDegree[edgeTo[e]]++;
            outCount[index.get(edge.from())]++;
        }
        this.outEdges = new int[n][];
        for (int t = 0; t < n; t++) {
            outEdges[t] = new int[outCount[t]];
            outCount[t] = 0;
        }
        for (int e = 0; e < m; e++) {
            int from = index.get(dag.edges().get(e).from());
            outEdges[from][outCount[from]++] = e;
        }
    }

    String name() {
        return name;
    }

    int tasks() {
        return ops.length;
    }

    /** The index of task {@code id}, or -1 if the DAG has no such task. */
    int task(String id) {
        Integer t = index.get(id);
        return t == null ? -1 : t;
    }

    double ops(int t) {
        return ops[t];
    }

    /** The weights of task {@code t}, bytes (0 when the catalog gives none). */
    double bytes(int t) {
        return bytes[t];
    }

    /** Every task's weights, in task order (a copy). */
    double[] bytes() {
        return bytes.clone();
    }

    int inDegree(int t) {
        return inDegree[t];
    }

    int[] outEdges(int t) {
        return outEdges[t];
    }

    int edgeTo(int e) {
        return edgeTo[e];
    }

    double edgeBytes(int e) {
        return edgeBytes[e];
    }
}
