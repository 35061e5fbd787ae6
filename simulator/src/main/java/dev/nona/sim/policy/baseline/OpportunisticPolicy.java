package dev.nona.sim.policy.baseline;

import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimSubgraph;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.policy.table.SimChoice;
import dev.nona.sim.policy.table.SubgraphTable;
import dev.nona.sim.policy.table.SimTable;
import java.util.ArrayList;
import java.util.List;

/**
 * Opportunistic: wherever the contracted graph has parallel branches, every branch goes to a different server,
 * one of them on the root's server; the sink (the next root) stays with the root. Congestion-oblivious.
 * Expressed as a fixed table of pure triplets and run by {@link dev.nona.sim.policy.table.TablePolicy}.
 * Based on Nona (CloudNet'24), Section IV-A, "Opportunistic".
 */
public final class OpportunisticPolicy {
    private OpportunisticPolicy() {
    }

    /** The table: per subgraph, one part per branch, root and sink with the first branch. */
    public static SimTable table(SimWorkload workload) {
        List<List<SubgraphTable>> perClass = new ArrayList<>();
        List<Double> predicted = new ArrayList<>();
        for (SimJobClass c : workload.classes()) {
            List<SubgraphTable> subgraphTables = new ArrayList<>();
            for (SimSubgraph sg : c.subgraphs()) {
                List<int[]> branches = c.branches(sg);
                SimChoice t = branches.isEmpty()
                        ? new SimChoice(new int[0][], 0, 0, true)
                        : SimChoice.of(branches.toArray(new int[0][]), 0, 0);
                subgraphTables.add(SubgraphTable.pure(t));
            }
            perClass.add(subgraphTables);
            predicted.add(Double.NaN);
        }
        return new SimTable(perClass, predicted);
    }
}
