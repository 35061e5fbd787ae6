package dev.nona.sim.policy.expert;

import dev.nona.dag.Edge;
import dev.nona.dag.EnumerationBound;
import dev.nona.dag.Subgraph;
import dev.nona.dag.Triplet;
import dev.nona.dag.TripletEnumerator;
import dev.nona.sim.SimCluster;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimSubgraph;
import dev.nona.sim.policy.table.SimChoice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The triplets an expert would consider for one subgraph: those on the Pareto front of (seconds of link time per
 * job, unloaded latency from the root's completion until the sink may start). A triplet that sends more and is
 * not faster is never worth it, at any load. Unloaded latency: each part's tasks run one after another on its
 * own idle server, a cut edge takes $b/\mu$ with no wait. Ties keep the triplet with fewer parts.
 */
public final class SubgraphOptions {
    private SubgraphOptions() {
    }

    /** The Pareto-optimal triplets, in increasing link time (the first one cuts least, usually nothing). */
    public static List<SimChoice> paretoFront(SimJobClass c, SimSubgraph sg, SimCluster cluster, int enumerationLimit) {
        List<SimChoice> all = enumerate(c, sg, enumerationLimit);
        int n = all.size();
        double[] cut = new double[n];
        double[] latency = new double[n];
        for (int i = 0; i < n; i++) {
            double[] v = evaluate(c, sg, all.get(i), cluster);
            cut[i] = v[0];
            latency[i] = v[1];
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.<Integer>comparingDouble(i -> cut[i]).thenComparingDouble(i -> latency[i])
                .thenComparingInt(i -> all.get(i).partCount()));
        List<SimChoice> front = new ArrayList<>();
        double bestLatency = Double.POSITIVE_INFINITY;
        for (int i : order) {
            if (latency[i] < bestLatency * (1 - 1e-9)) {
                front.add(all.get(i));
                bestLatency = latency[i];
            }
        }
        return front;
    }

    /**
     * $\Omega_t$ of a subgraph, as Nona's optimiser enumerates it (policy-model's {@link TripletEnumerator}, within
     * {@code limit} choices; a reduced family above it), in the simulator's task indices. Without intermediates the
     * one choice is the sink with the root, as the optimiser has it.
     */
    static List<SimChoice> enumerate(SimJobClass c, SimSubgraph sg, int limit) {
        if (sg.size() == 0) {
            return List.of(new SimChoice(new int[0][], 0, 0, true));
        }
        Set<Integer> inside = new HashSet<>();
        inside.add(sg.root());
        inside.add(sg.sink());
        List<String> intermediates = new ArrayList<>();
        for (int i = 0; i < sg.size(); i++) {
            inside.add(sg.intermediate(i));
            intermediates.add(Integer.toString(sg.intermediate(i)));
        }
        List<Edge> edges = new ArrayList<>();
        for (int e = 0; e < c.edges(); e++) {
            if (inside.contains(c.edgeFrom(e)) && inside.contains(c.edgeTo(e))) {
                edges.add(new Edge(Integer.toString(c.edgeFrom(e)), Integer.toString(c.edgeTo(e)), c.edgeBits(e) / 8));
            }
        }
        Subgraph subgraph = new Subgraph(Integer.toString(sg.root()), Integer.toString(sg.sink()), intermediates, edges);
        List<SimChoice> out = new ArrayList<>();
        for (Triplet t : TripletEnumerator.enumerate(subgraph, new EnumerationBound(limit)).triplets()) {
            int[][] parts = new int[t.parts().size()][];
            for (int p = 0; p < parts.length; p++) {
                parts[p] = t.parts().get(p).stream().mapToInt(Integer::parseInt).toArray();
            }
            out.add(SimChoice.of(parts, t.rootPart(), t.sinkPart()));
        }
        return out;
    }

    /** {link seconds per job, unloaded latency} of one triplet. */
    static double[] evaluate(SimJobClass c, SimSubgraph sg, SimChoice t, SimCluster cluster) {
        int tasks = c.tasks();
        int[] part = new int[tasks];
        Arrays.fill(part, -2);
        int sinkPart;
        if (t.partCount() == 0) {
            part[sg.root()] = 0;
            sinkPart = t.sinkWithRoot() ? 0 : 1;
        } else {
            for (int p = 0; p < t.partCount(); p++) {
                for (int i = 0; i < t.partSize(p); i++) {
                    part[t.task(p, i)] = p;
                }
            }
            part[sg.root()] = t.rootPart();
            sinkPart = t.sinkPart();
        }
        double[] finish = new double[tasks];
        double[] free = new double[Math.max(2, t.partCount())];
        double cutSeconds = 0;
        double sinkReady = 0;
        for (int e = 0; e < c.edges(); e++) {
            int from = c.edgeFrom(e);
            int to = c.edgeTo(e);
            boolean inFrom = from == sg.root() || part[from] >= 0 && from != sg.sink();
            boolean toSink = to == sg.sink();
            if (!inFrom || !(toSink || part[to] >= 0 && to != sg.root())) {
                continue;
            }
            int toPart = toSink ? sinkPart : part[to];
            if (part[from] != toPart && c.edgeBits(e) > 0) {
                cutSeconds += c.edgeBits(e) / cluster.linkBitsPerSecond();
            }
        }
        for (int i = 0; i < sg.size(); i++) {
            int task = sg.intermediate(i);
            double ready = 0;
            for (int e = 0; e < c.edges(); e++) {
                if (c.edgeTo(e) == task) {
                    int from = c.edgeFrom(e);
                    double at = from == sg.root() ? 0 : finish[from];
                    ready = Math.max(ready, at + (part[from] != part[task] ? c.edgeBits(e) / cluster.linkBitsPerSecond() : 0));
                }
            }
            double start = Math.max(ready, free[part[task]]);
            finish[task] = start + c.taskOps(task) / cluster.opsPerSecond();
            free[part[task]] = finish[task];
        }
        for (int e = 0; e < c.edges(); e++) {
            if (c.edgeTo(e) == sg.sink()) {
                int from = c.edgeFrom(e);
                if (from != sg.root() && part[from] < 0) {
                    continue;
                }
                double at = from == sg.root() ? 0 : finish[from];
                sinkReady = Math.max(sinkReady, at + (part[from] != sinkPart ? c.edgeBits(e) / cluster.linkBitsPerSecond() : 0));
            }
        }
        return new double[] {cutSeconds, sinkReady};
    }
}
