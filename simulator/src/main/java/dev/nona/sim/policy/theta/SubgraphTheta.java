package dev.nona.sim.policy.theta;

import java.util.List;
import java.util.SplittableRandom;

/**
 * $\theta_t$ for one subgraph: a probability distribution over triplets, sampled in $O(1)$ with Walker's alias
 * method (Vose's construction).
 */
public final class SubgraphTheta {
    private final List<SimTriplet> options;
    private final double[] probabilities;
    private final double[] cut;
    private final int[] alias;

    public SubgraphTheta(List<SimTriplet> options, double[] probabilities) {
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
        int n = probabilities.length;
        this.cut = new double[n];
        this.alias = new int[n];
        buildAlias(sum);
    }

    /** A distribution that always picks {@code option}. */
    public static SubgraphTheta pure(SimTriplet option) {
        return new SubgraphTheta(List.of(option), new double[] {1});
    }

    private void buildAlias(double sum) {
        int n = probabilities.length;
        double[] scaled = new double[n];
        int[] small = new int[n];
        int[] large = new int[n];
        int ns = 0;
        int nl = 0;
        for (int i = 0; i < n; i++) {
            scaled[i] = probabilities[i] / sum * n;
            if (scaled[i] < 1) {
                small[ns++] = i;
            } else {
                large[nl++] = i;
            }
        }
        while (ns > 0 && nl > 0) {
            int s = small[--ns];
            int l = large[--nl];
            cut[s] = scaled[s];
            alias[s] = l;
            scaled[l] = scaled[l] + scaled[s] - 1;
            if (scaled[l] < 1) {
                small[ns++] = l;
            } else {
                large[nl++] = l;
            }
        }
        while (nl > 0) {
            int l = large[--nl];
            cut[l] = 1;
            alias[l] = l;
        }
        while (ns > 0) {
            int s = small[--ns];
            cut[s] = 1;
            alias[s] = s;
        }
    }

    public SimTriplet sample(SplittableRandom random) {
        int i = random.nextInt(cut.length);
        return options.get(random.nextDouble() < cut[i] ? i : alias[i]);
    }

    public List<SimTriplet> options() {
        return options;
    }

    public double probability(int i) {
        return probabilities[i];
    }
}
