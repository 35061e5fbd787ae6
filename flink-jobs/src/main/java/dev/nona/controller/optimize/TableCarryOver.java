package dev.nona.controller.optimize;

import dev.nona.dag.Triplet;
import dev.nona.optimize.JobClass;
import dev.nona.optimize.NonaProblem;
import dev.nona.optimize.PartFit;
import dev.nona.optimize.SubgraphChoices;
import dev.nona.placement.PlacementTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Carries a published table's $\theta$ over to a new problem (new rates, perhaps another cluster), so that the
 * cost model can predict how the current table would do at the new rates. Triplets are matched by their parts
 * as original task ids and their root and sink parts. When the current table puts mass on a triplet the new
 * problem does not admit (fewer servers now, or a part no longer fits), or lacks a model or subgraph, the tables
 * are not comparable.
 */
final class TableCarryOver {
    private TableCarryOver() {}

    /**
     * $\theta$ per job and subgraph over the admissible triplets of {@code problem} (those the optimiser indexes
     * $\theta$ over: needing at most $N$ servers, with parts that fit, {@link PartFit#admissible}), or {@code null}.
     */
    static List<List<double[]>> map(NonaProblem problem, PlacementTable current) {
        PartFit fit = PartFit.of(problem.cluster());
        List<List<double[]>> theta = new ArrayList<>();
        for (JobClass job : problem.jobs()) {
            PlacementTable.ModelPlacement mp = current.model(job.name());
            if (mp == null || mp.subgraphs().size() != job.subgraphs().size()) {
                return null;
            }
            List<double[]> perSubgraph = new ArrayList<>();
            for (int k = 0; k < job.subgraphs().size(); k++) {
                double[] t = subgraph(job, k, mp.subgraphs().get(k), fit);
                if (t == null) {
                    return null;
                }
                perSubgraph.add(t);
            }
            theta.add(perSubgraph);
        }
        return theta;
    }

    private static double[] subgraph(JobClass job, int k, PlacementTable.SubgraphPlacement sp, PartFit fit) {
        SubgraphChoices sc = job.subgraphs().get(k);
        if (!sc.subgraph().root().equals(sp.root()) || !sc.subgraph().sink().equals(sp.sink())) {
            return null;
        }
        Map<Key, Double> probability = new HashMap<>();
        Set<Shape> shapes = new HashSet<>();
        sp.choices().forEach(c -> {
            probability.merge(new Key(c.parts(), c.rootPart(), c.sinkPart()), c.probability(), Double::sum);
            shapes.add(new Shape(c.parts().size(), c.rootPart(), c.sinkPart()));
        });
        List<Triplet> admissible = sc.triplets().stream().filter(t -> fit.admissible(job, k, t)).toList();
        double[] theta = new double[admissible.size()];
        double mass = 0;
        for (int i = 0; i < theta.length; i++) {
            Triplet t = admissible.get(i);
            if (!shapes.contains(new Shape(t.parts().size(), t.rootPart(), t.sinkPart()))) {
                continue; // no choice of the table has this many parts and these root and sink parts
            }
            List<List<String>> parts = t.parts().stream()
                    .map(part -> part.stream().flatMap(id -> job.nodes().get(id).originalTasks().stream()).toList())
                    .toList();
            theta[i] = probability.getOrDefault(new Key(parts, t.rootPart(), t.sinkPart()), 0.0);
            mass += theta[i];
        }
        return Math.abs(mass - 1) <= 1e-6 ? theta : null;
    }

    /** A choice by its parts as original task ids and its root and sink parts. */
    private record Key(List<List<String>> parts, int rootPart, int sinkPart) {}

    /** What a triplet must share with a choice to be it (checked first: most triplets differ in it). */
    private record Shape(int parts, int rootPart, int sinkPart) {}
}
