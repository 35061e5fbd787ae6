package dev.nona.placement;

import dev.nona.dag.ContractedNode;
import dev.nona.dag.Triplet;
import dev.nona.optimize.JobClass;
import dev.nona.optimize.NonaProblem;
import dev.nona.optimize.Solution;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds {@link PlacementTable}s from optimiser solutions. */
public final class PlacementTables {
    /** Probabilities below this are dropped (and the rest renormalised): they are numerical dust. */
    static final double DUST = 1e-9;

    private PlacementTables() {}

    /**
     * The table for a solution of {@code problem}: zero-probability triplets are omitted, contracted node ids in
     * parts are replaced by the original task ids they stand for; a model the solution lists as unplaceable
     * ({@link Solution#unplaceable}) is left out (it has no choice to sample).
     */
    public static PlacementTable from(NonaProblem problem, Solution solution, long version, long createdAtMillis) {
        Map<String, Double> rates = new LinkedHashMap<>();
        List<PlacementTable.ModelPlacement> models = new ArrayList<>();
        for (int j = 0; j < problem.jobs().size(); j++) {
            JobClass job = problem.jobs().get(j);
            Solution.JobResult r = solution.jobs().get(j);
            if (!r.name().equals(job.name())) {
                throw new IllegalArgumentException("solution job " + r.name() + " does not match problem job " + job.name());
            }
            if (solution.isUnplaceable(job.name())) {
                continue;
            }
            rates.put(job.name(), job.ratePerSecond());
            List<PlacementTable.SubgraphPlacement> subs = new ArrayList<>();
            for (Solution.SubgraphResult sr : r.subgraphs()) {
                subs.add(subgraph(job.nodes(), sr));
            }
            models.add(new PlacementTable.ModelPlacement(job.name(), job.ratePerSecond(), r.predictedJctSeconds(),
                    job.originalTasks(), job.nodes().get(job.source()).originalTasks(), subs));
        }
        var solvedFor = new PlacementTable.SolvedFor(problem.cluster(), rates, problem.background(), problem.costModel());
        return new PlacementTable(version, createdAtMillis, solvedFor, solution.feasible(), solution.diagnostic(),
                solution.objective(), solution.rho(), solution.phi(), solution.solveMillis(), models, solution.idleGate());
    }

    private static PlacementTable.SubgraphPlacement subgraph(Map<String, ContractedNode> nodes, Solution.SubgraphResult sr) {
        double kept = 0;
        for (double p : sr.theta()) {
            kept += p > DUST ? p : 0;
        }
        List<PlacementTable.Choice> choices = new ArrayList<>();
        for (int c = 0; c < sr.triplets().size(); c++) {
            double p = sr.theta().get(c);
            if (p > DUST) {
                Triplet t = sr.triplets().get(c);
                List<List<String>> parts = t.parts().stream()
                        .map(part -> part.stream().flatMap(id -> nodes.get(id).originalTasks().stream()).toList())
                        .toList();
                choices.add(new PlacementTable.Choice(parts, t.rootPart(), t.sinkPart(), Math.min(1, p / kept)));
            }
        }
        return new PlacementTable.SubgraphPlacement(sr.subgraph().root(), sr.subgraph().sink(),
                nodes.get(sr.subgraph().sink()).originalTasks(), choices);
    }
}
