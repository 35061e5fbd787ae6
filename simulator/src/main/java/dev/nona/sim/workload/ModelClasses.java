package dev.nona.sim.workload;

import dev.nona.dag.ContractedNode;
import dev.nona.dag.DagAnalysis;
import dev.nona.dag.Edge;
import dev.nona.dag.Subgraph;
import dev.nona.dag.TaskBytes;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimSubgraph;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a model's DAG into a simulator {@link SimJobClass} at the contracted granularity: the DAG is contracted and
 * decomposed by {@link DagAnalysis} (virtual source/sink included, as zero-ops tasks), node ids become indices in
 * the decomposition's topological order, edge bytes become bits.
 */
public final class ModelClasses {
    private ModelClasses() {
    }

    /**
     * The simulator's job class for an analysed DAG, at rate {@code ratePerSecond}, whose tasks need the weights of
     * a model of {@code sizeBytes} ({@link TaskBytes}: a contracted node's bytes are the sum of its tasks'; 0 when
     * neither the model nor its tasks give a size).
     */
    public static SimJobClass of(String name, DagAnalysis analysis, double ratePerSecond, double sizeBytes) {
        SimJobClass c = of(name, analysis, ratePerSecond);
        Map<String, Double> byTask = TaskBytes.byTaskId(analysis.dag(), sizeBytes);
        List<ContractedNode> nodes = analysis.decomposition().nodes();
        double[] bytes = new double[nodes.size()];
        boolean any = false;
        for (int i = 0; i < bytes.length; i++) {
            for (String task : nodes.get(i).originalTasks()) {
                bytes[i] += byTask.getOrDefault(task, 0.0);
            }
            any |= bytes[i] > 0;
        }
        return any ? c.withTaskBytes(bytes) : c;
    }

    /** The simulator's job class for an analysed DAG, at rate {@code ratePerSecond}. */
    public static SimJobClass of(String name, DagAnalysis analysis, double ratePerSecond) {
        List<ContractedNode> nodes = analysis.decomposition().nodes();
        Map<String, Integer> index = new HashMap<>();
        double[] ops = new double[nodes.size()];
        for (int i = 0; i < nodes.size(); i++) {
            index.put(nodes.get(i).id(), i);
            ops[i] = nodes.get(i).ops();
        }
        List<Edge> edges = analysis.decomposition().edges();
        int[][] pairs = new int[edges.size()][];
        double[] bits = new double[edges.size()];
        for (int e = 0; e < edges.size(); e++) {
            pairs[e] = new int[] {index.get(edges.get(e).from()), index.get(edges.get(e).to())};
            bits[e] = edges.get(e).bits();
        }
        List<SimSubgraph> subgraphs = analysis.decomposition().subgraphs().stream()
                .map(s -> subgraph(s, index)).toList();
        return SimJobClass.inference(name, ratePerSecond, ops, pairs, bits, subgraphs);
    }

    private static SimSubgraph subgraph(Subgraph s, Map<String, Integer> index) {
        int[] mid = s.intermediates().stream().mapToInt(index::get).toArray();
        return new SimSubgraph(index.get(s.root()), index.get(s.sink()), mid);
    }
}
