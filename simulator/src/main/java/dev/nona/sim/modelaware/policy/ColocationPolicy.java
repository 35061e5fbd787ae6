package dev.nona.sim.modelaware.policy;

import dev.nona.sim.modelaware.policy.Candidates;
import dev.nona.sim.modelaware.policy.ModelAwareView;
import java.util.random.RandomGenerator;

/**
 * Model colocation without queuing: run the request on a server that holds its model, has fewer than
 * {@code targetOngoingRequests} requests in flight and has free cores; if there is none, start it cold on
 * another server with free cores rather than wait (a server holding the model but over target is used only
 * when no other server has room).
 *
 * <p>Based on: K. Liu, <i>Enabling Efficient ML Inference in SigmaOS with Model-Aware Scheduling</i>, MEng
 * thesis, MIT, 2025, Section 4.5 (policy 1.ii).
 */
public final class ColocationPolicy extends RandomizedPolicy {
    public static final String NAME = "colocation";

    public ColocationPolicy(RandomGenerator random) {
        super(NAME, random);
    }

    @Override
    public Decision decide(ModelAwareRequest request, ModelAwareView cluster) {
        return runOn(Candidates.warmWithRoom(request, cluster)
                .or(() -> Candidates.elsewhereWithRoom(request, cluster, random)), request, cluster.registry());
    }
}
