package dev.nona.sim.policy.theta;

import java.util.List;

/**
 * A placement table in the simulator's terms: for every job class (by its index in the workload) and every
 * subgraph of its decomposition (in order), a distribution $\theta_t$ over triplets. Classes without subgraphs
 * (single tasks, background jobs) have an empty list.
 *
 * @param perClass           one list per job class
 * @param predictedJctSeconds the solver's predicted mean JCT per class, or NaN where it has none
 */
public record ThetaTable(List<List<SubgraphTheta>> perClass, List<Double> predictedJctSeconds) {
    public ThetaTable {
        perClass = perClass.stream().map(List::copyOf).toList();
        predictedJctSeconds = List.copyOf(predictedJctSeconds);
        if (perClass.size() != predictedJctSeconds.size()) {
            throw new IllegalArgumentException("theta table has " + perClass.size() + " classes but " + predictedJctSeconds.size() + " predictions");
        }
    }

    public List<SubgraphTheta> of(int classIndex) {
        return perClass.get(classIndex);
    }

    /** The largest probability, over every subgraph of every class, of a triplet that splits it; 0 when every job runs whole. */
    public double maxSplitProbability() {
        double max = 0;
        for (List<SubgraphTheta> subgraphs : perClass) {
            for (SubgraphTheta theta : subgraphs) {
                double split = 0;
                for (int i = 0; i < theta.options().size(); i++) {
                    if (!theta.options().get(i).isWhole()) {
                        split += theta.probability(i);
                    }
                }
                max = Math.max(max, split);
            }
        }
        return max;
    }
}
