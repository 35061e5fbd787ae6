package dev.nona.sim.policy.table;

import dev.nona.placement.AliasTable;
import java.util.List;
import java.util.SplittableRandom;

/**
 * $\theta_t$ for one subgraph: a probability distribution over triplets, sampled in $O(1)$ with Walker's alias
 * method (Vose's construction, {@link AliasTable}).
 */
public final class SubgraphTable {
    private final List<SimChoice> options;
    private final double[] probabilities;
    private final AliasTable alias;

    public SubgraphTable(List<SimChoice> options, double[] probabilities) {
        if (options.isEmpty() || options.size() != probabilities.length) {
            throw new IllegalArgumentException("theta needs one probability per option: " + options.size() + " options, "
                    + probabilities.length + " probabilities");
        }
        double sum = 0;
        for (double p : probabilities) {
            if (!(p >= 0) || Double.isInfinite(p)) {
                throw new IllegalArgumentException("theta probability (" + p + ") must be finite and >= 0");
            }
            sum += p;
        }
        if (!(Math.abs(sum - 1) < 1e-6)) {
            throw new IllegalArgumentException("theta probabilities sum to " + sum + ", not 1");
        }
        this.options = List.copyOf(options);
        this.probabilities = probabilities.clone();
        this.alias = new AliasTable(this.probabilities);
    }

    /** A distribution that always picks {@code option}. */
    public static SubgraphTable pure(SimChoice option) {
        return new SubgraphTable(List.of(option), new double[] {1});
    }

    public SimChoice sample(SplittableRandom random) {
        return options.get(alias.sample(random));
    }

    public List<SimChoice> options() {
        return options;
    }

    public double probability(int i) {
        return probabilities[i];
    }
}
