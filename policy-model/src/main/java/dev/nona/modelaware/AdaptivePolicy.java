package dev.nona.modelaware;

import java.util.EnumMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * Chooses, per request, between colocation, colocation with queuing and the model registry from live
 * estimates of $T_{CS}$, $T_I$, $T_P$ and $T_N$ ({@link LatencyEstimator}), using the thesis's analytical model
 * ({@link LatencyModel}). The thesis names this dynamic choice as the crucial next step and does not build it.
 *
 * <p>Per request: a server that holds the model, is under target and has free cores dominates every
 * strategy (no cold start, no network, no wait), so it is taken directly. A model no server holds is
 * started cold (unavoidable). Otherwise $n$ is the number of requests in flight at the least loaded server
 * holding the model, the model predicts the three latencies, and the strategy with the smallest one decides.
 * A wait is re-decided whenever the cluster changes, so a request may switch strategy while it waits.
 *
 * <p>Based on: K. Liu, <i>Enabling Efficient ML Inference in SigmaOS with Model-Aware Scheduling</i>, MEng
 * thesis, MIT, 2025, Sections 6.5 and 7.
 */
public final class AdaptivePolicy implements ModelAwarePolicy {
    public static final String NAME = "adaptive";
    private final LatencyEstimator estimator;
    private final Map<LatencyModel.Strategy, ModelAwarePolicy> delegates = new EnumMap<>(LatencyModel.Strategy.class);

    public AdaptivePolicy(RandomGenerator random, LatencyEstimator estimator) {
        this.estimator = estimator;
        delegates.put(LatencyModel.Strategy.COLOCATION, new ColocationPolicy(random));
        delegates.put(LatencyModel.Strategy.COLOCATION_WITH_QUEUING, new ColocationQueuingPolicy(random));
        delegates.put(LatencyModel.Strategy.REGISTRY, new RegistryPolicy(random));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Decision decide(InferenceRequest request, ClusterView cluster) {
        ModelRegistry registry = cluster.registry();
        var warm = Candidates.warmWithRoom(request, cluster);
        if (warm.isPresent()) {
            return Decision.Place.local(warm.get(), request.model(), registry, NAME + "/warm");
        }
        if (registry.residentServers(request.model()).isEmpty()) {
            return relabel(delegates.get(LatencyModel.Strategy.COLOCATION).decide(request, cluster), "first-load");
        }
        LatencyModel.Strategy best = predict(request.model(), registry).best();
        return relabel(delegates.get(best).decide(request, cluster), best.policyName());
    }

    /** The analytical model's view of the next request for {@code model} (for diagnostics and tests). */
    public LatencyModel.Prediction predict(String model, ModelRegistry registry) {
        int n = registry.residentServers(model).stream().mapToInt(registry::ongoing).min().orElse(0);
        return LatencyModel.predict(estimator.estimates(model), n);
    }

    private static Decision relabel(Decision decision, String strategy) {
        if (decision instanceof Decision.Place p) {
            return new Decision.Place(p.cpuServer(), p.inferenceServer(), p.route(), NAME + "/" + strategy);
        }
        return decision;
    }
}
