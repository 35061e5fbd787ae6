package dev.nona.sim.policy.table;

import dev.nona.check.Checks;
import dev.nona.placement.AliasTable;
import java.util.List;
import java.util.SplittableRandom;

/**
 * $\theta_t$ for one subgraph: a probability distribution over its choices (Nona's triplets), sampled in $O(1)$ with Walker's alias
 * method (Vose's construction, {@link AliasTable}).
 */
public final class SubgraphTable {
    private final List<SimChoice> choices;
    private final double[] probabilities;
    private final AliasTable alias;

    public SubgraphTable(List<SimChoice> choices, double[] probabilities) {
        if (choices.isEmpty() || choices.size() != probabilities.length) {
            throw new IllegalArgumentException("a subgraph table needs one probability per choice: " + choices.size() + " choices, "
                    + probabilities.length + " probabilities");
        }
        double sum = 0;
        for (double p : probabilities) {
            Checks.nonNegative(p, "choice probability");
            sum += p;
        }
        if (!(Math.abs(sum - 1) < 1e-6)) {
            throw new IllegalArgumentException("choice probabilities sum to " + sum + ", not 1");
        }
        this.choices = List.copyOf(choices);
        this.probabilities = probabilities.clone();
        this.alias = new AliasTable(this.probabilities);
    }

    /** A distribution that always picks {@code choice}. */
    public static SubgraphTable pure(SimChoice choice) {
        return new SubgraphTable(List.of(choice), new double[] {1});
    }

    public SimChoice sample(SplittableRandom random) {
        return choices.get(alias.sample(random));
    }

    public List<SimChoice> choices() {
        return choices;
    }

    public double probability(int i) {
        return probabilities[i];
    }
}
