package dev.nona.sim.modelaware.policy;

import dev.nona.modelaware.ModelRegistry;
import dev.nona.sim.modelaware.policy.Decision;
import dev.nona.sim.modelaware.policy.LatencyEstimator;
import dev.nona.sim.modelaware.policy.ModelAwarePolicies;
import dev.nona.sim.modelaware.policy.ModelAwareRequest;
import dev.nona.sim.modelaware.policy.ModelAwareView;
import java.util.random.RandomGenerator;

/**
 * Decides where an inference request runs, given which servers hold its model and which have free cores.
 * Pure decision logic: the caller applies a {@link Decision.Place} (reserves cores, calls
 * {@link ModelRegistry#assign} and {@link ModelRegistry#beginRequest}) and asks again after a
 * {@link Decision.Wait} once the cluster changed.
 */
public interface ModelAwarePolicy {
    /** The policy's registry name, e.g. {@code colocation}. */
    String name();

    Decision decide(ModelAwareRequest request, ModelAwareView cluster);

    /** Creates a policy; one line per policy in {@link ModelAwarePolicies}. */
    @FunctionalInterface
    interface Factory {
        ModelAwarePolicy create(RandomGenerator random, LatencyEstimator estimator);
    }
}
