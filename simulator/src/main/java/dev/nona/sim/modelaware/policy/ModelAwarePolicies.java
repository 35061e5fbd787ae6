package dev.nona.sim.modelaware.policy;

import dev.nona.sim.modelaware.policy.AdaptivePolicy;
import dev.nona.sim.modelaware.policy.ColocationPolicy;
import dev.nona.sim.modelaware.policy.ColocationQueuingPolicy;
import dev.nona.sim.modelaware.policy.LatencyEstimator;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;

/** The model-aware policies by name. Adding one is one line here (and its class). */
public final class ModelAwarePolicies {
    private static final Map<String, ModelAwarePolicy.Factory> FACTORIES = new LinkedHashMap<>();

    static {
        FACTORIES.put(ColocationPolicy.NAME, (random, estimator) -> new ColocationPolicy(random));
        FACTORIES.put(ColocationQueuingPolicy.NAME, (random, estimator) -> new ColocationQueuingPolicy(random));
        FACTORIES.put(RegistryPolicy.NAME, (random, estimator) -> new RegistryPolicy(random));
        FACTORIES.put(RandomServerPolicy.NAME, (random, estimator) -> new RandomServerPolicy(random));
        FACTORIES.put(AdaptivePolicy.NAME, AdaptivePolicy::new);
    }

    private ModelAwarePolicies() {}

    /** The registered names, in a stable order. */
    public static Set<String> names() {
        return Collections.unmodifiableSet(FACTORIES.keySet());
    }

    public static boolean contains(String name) {
        return FACTORIES.containsKey(name);
    }

    /**
     * @throws IllegalArgumentException naming the policy and the known names if {@code name} is unknown
     */
    public static ModelAwarePolicy create(String name, RandomGenerator random, LatencyEstimator estimator) {
        ModelAwarePolicy.Factory factory = FACTORIES.get(name);
        if (factory == null) {
            throw new IllegalArgumentException("policy '" + name + "' is not model-aware; known: " + names());
        }
        return factory.create(random, estimator);
    }
}
