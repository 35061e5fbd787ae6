package dev.nona.optimize;

import java.util.List;

/**
 * The probability that a part is not loaded on the server it lands on, from the cluster's cache state: with
 * {@link dev.nona.workload.Cluster#coldStart()} set, the optimiser charges each part of a choice this probability
 * times the part's load time $T_{CS}(b) = F + b/B$ (docs/optimizer.md, "Cold starts"). Build one from the servers
 * that hold each part with {@code dev.nona.modelaware.ColdStartCostTerm#withCacheState}; without one the optimiser
 * uses the steady-state estimate {@link SteadyStateCache}.
 */
@FunctionalInterface
public interface PartColdProbability {
    /**
     * @param job         the part's model
     * @param partTasks   the part's original task ids (its intermediates, the sink for the sink's part, the source
     *                    for the root's part of the first subgraph)
     * @param partBytes   its footprint $b$
     * @param partSeconds its compute time
     * @return a probability in $[0, 1]$
     */
    double probability(JobClass job, List<String> partTasks, double partBytes, double partSeconds);
}
