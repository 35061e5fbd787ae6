package dev.nona.sim.modelaware.policy;

import dev.nona.modelaware.ModelRegistry;
import dev.nona.sim.modelaware.policy.Candidates;
import dev.nona.sim.modelaware.policy.Decision;
import dev.nona.sim.modelaware.policy.ModelAwareRequest;
import dev.nona.sim.modelaware.policy.ModelAwareView;
import dev.nona.sim.modelaware.policy.RandomizedPolicy;
import java.util.random.RandomGenerator;

/**
 * Centralised model registry: run the request's process (its CPU stages) on any server with free cores and
 * send its inference stage to a server holding the model with fewer than {@code targetOngoingRequests}
 * requests in flight, over the network. If the process's own server holds the model (and is under target),
 * inference stays local; if no server qualifies, the process's server loads the model itself.
 *
 * <p>Based on: K. Liu, <i>Enabling Efficient ML Inference in SigmaOS with Model-Aware Scheduling</i>, MEng
 * thesis, MIT, 2025, Section 4.6.
 */
public final class RegistryPolicy extends RandomizedPolicy {
    public static final String NAME = "registry";

    public RegistryPolicy(RandomGenerator random) {
        super(NAME, random);
    }

    @Override
    public Decision decide(ModelAwareRequest request, ModelAwareView cluster) {
        return Candidates.anyWithRoom(request, cluster, random)
                .map(cpu -> inferenceFor(cpu, request, cluster.registry()))
                .orElseGet(() -> Candidates.noRoom(request));
    }

    private static Decision inferenceFor(String cpu, ModelAwareRequest request, ModelRegistry registry) {
        if (registry.isResident(cpu, request.model()) && registry.underTarget(cpu)) {
            return Decision.Place.local(cpu, request.model(), registry, NAME);
        }
        return registry.locateProxy(request.model())
                .filter(proxy -> !proxy.equals(cpu))
                .<Decision>map(proxy -> new Decision.Place(cpu, proxy, Decision.Route.REMOTE, NAME))
                .orElseGet(() -> Decision.Place.local(cpu, request.model(), registry, NAME));
    }
}
