package dev.nona.modelaware;

import java.util.random.RandomGenerator;

/**
 * Model-oblivious placement: a uniformly random server with free cores runs the whole request, loading the
 * model if it does not hold it. This is the σOS default scheduler the thesis compares against (Section 6.2).
 */
public final class RandomPolicy implements ModelAwarePolicy {
    public static final String NAME = "random";
    private final RandomGenerator random;

    public RandomPolicy(RandomGenerator random) {
        this.random = random;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Decision decide(InferenceRequest request, ClusterView cluster) {
        return Candidates.anyWithRoom(request, cluster, random)
                .<Decision>map(s -> Decision.Place.local(s, request.model(), cluster.registry(), NAME))
                .orElseGet(() -> Candidates.noRoom(request));
    }
}
