package dev.nona.dag;

import java.math.BigInteger;
import java.util.List;

/**
 * Summary counts of a {@link DagAnalysis}; the fields of {@code nona dag stats} (a contract).
 *
 * @param name               the model's name
 * @param tasks              original tasks
 * @param edges              original edges
 * @param contractedTasks    nodes after contraction (no virtual nodes)
 * @param contractedEdges    edges after contraction (no virtual edges)
 * @param virtualNodes       virtual source/sink added by decomposition (0, 1 or 2)
 * @param roots              $|\mathcal{R}^j|$, including virtual roots
 * @param subgraphs          subgraphs with at least one intermediate task
 * @param maxIntermediates   the most intermediates in one subgraph
 * @param variables          triplets over all subgraphs, as enumerated
 * @param exactVariables     $\sum_t |\Omega_t|$ without any bound (as a decimal string: it can be huge)
 * @param capped             whether a bound applied to any subgraph
 * @param maxTripletsPerSubgraph the bound used
 */
public record DagStats(String name, int tasks, int edges, int contractedTasks, int contractedEdges, int virtualNodes,
        int roots, int subgraphs, int maxIntermediates, long variables, String exactVariables, boolean capped,
        long maxTripletsPerSubgraph) {

    /** The counts of {@code analysis}. */
    public static DagStats of(DagAnalysis analysis) {
        Decomposition d = analysis.decomposition();
        List<Subgraph> nonTrivial = d.nonTrivialSubgraphs();
        return new DagStats(
                analysis.dag().name(),
                analysis.dag().tasks().size(),
                analysis.dag().edges().size(),
                analysis.contracted().nodes().size(),
                analysis.contracted().edges().size(),
                (int) d.nodes().stream().filter(ContractedNode::virtual).count(),
                d.roots().size(),
                nonTrivial.size(),
                nonTrivial.stream().mapToInt(s -> s.intermediates().size()).max().orElse(0),
                analysis.variables(),
                analysis.triplets().stream().map(SubgraphTriplets::exactCount)
                        .reduce(BigInteger.ZERO, BigInteger::add).toString(),
                analysis.capped(),
                analysis.bound().maxTripletsPerSubgraph());
    }
}
