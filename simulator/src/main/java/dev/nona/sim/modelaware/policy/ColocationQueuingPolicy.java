package dev.nona.sim.modelaware.policy;

import dev.nona.modelaware.ModelRegistry;
import dev.nona.sim.modelaware.policy.Candidates;
import dev.nona.sim.modelaware.policy.ModelAwareView;
import java.util.random.RandomGenerator;

/**
 * Model colocation with queuing: run the request on a server that holds its model, has fewer than
 * {@code targetOngoingRequests} requests in flight and has free cores; if the model is held somewhere but
 * no such server is free, wait for one. Only a model that no server holds is started cold (that first cold
 * start is unavoidable).
 *
 * <p>Based on: K. Liu, <i>Enabling Efficient ML Inference in SigmaOS with Model-Aware Scheduling</i>, MEng
 * thesis, MIT, 2025, Section 4.5 (policy 1.i).
 */
public final class ColocationQueuingPolicy extends RandomizedPolicy {
    public static final String NAME = "colocation-queuing";

    public ColocationQueuingPolicy(RandomGenerator random) {
        super(NAME, random);
    }

    @Override
    public Decision decide(ModelAwareRequest request, ModelAwareView cluster) {
        ModelRegistry registry = cluster.registry();
        var warm = Candidates.warmWithRoom(request, cluster);
        if (warm.isPresent()) {
            return Decision.Place.local(warm.get(), request.model(), registry, NAME);
        }
        if (!registry.residentServers(request.model()).isEmpty()) {
            return new Decision.Wait("waiting for a server holding '" + request.model() + "'");
        }
        return runOn(Candidates.anyWithRoom(request, cluster, random), request, registry);
    }
}
