package dev.nona.sim.modelaware.policy;

import dev.nona.sim.modelaware.policy.Candidates;
import dev.nona.sim.modelaware.policy.Decision;
import dev.nona.sim.modelaware.policy.ModelAwareRequest;
import dev.nona.sim.modelaware.policy.ModelAwareView;
import java.util.random.RandomGenerator;

/**
 * Model-oblivious placement: a uniformly random server with free cores runs the whole request, loading the
 * model if it does not hold it. This is the σOS default scheduler the thesis compares against (Section 6.2).
 */
public final class RandomServerPolicy extends RandomizedPolicy {
    public static final String NAME = "random";

    public RandomServerPolicy(RandomGenerator random) {
        super(NAME, random);
    }

    @Override
    public Decision decide(ModelAwareRequest request, ModelAwareView cluster) {
        return runOn(Candidates.anyWithRoom(request, cluster, random), request, cluster.registry());
    }
}
