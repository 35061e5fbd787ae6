package dev.nona.modelaware;

import java.util.random.RandomGenerator;

/**
 * Model-oblivious placement: a uniformly random server with free cores runs the whole request, loading the
 * model if it does not hold it. This is the σOS default scheduler the thesis compares against (Section 6.2).
 */
public final class RandomPolicy extends RandomizedPolicy {
    public static final String NAME = "random";

    public RandomPolicy(RandomGenerator random) {
        super(NAME, random);
    }

    @Override
    public Decision decide(InferenceRequest request, ClusterView cluster) {
        return runOn(Candidates.anyWithRoom(request, cluster, random), request, cluster.registry());
    }
}
