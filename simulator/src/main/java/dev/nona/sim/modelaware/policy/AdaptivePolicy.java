package dev.nona.sim.modelaware.policy;

import dev.nona.modelaware.ModelRegistry;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
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
 * When that server is still loading the model, the prediction adds the wait for the load (at most $T_{CS}$) to
 * queuing and overlaps it with the network for the registry ({@link LatencyModel#predict(LatencyEstimates, int,
 * double)}).
 * When every holder is at target, the registry is ruled out (its remote call would load cold). Ties go to
 * colocation. A wait is re-decided whenever the cluster changes, so a request may switch strategy while it
 * waits. The thesis's $n$ counts only requests in flight; this policy also counts the requests of the same model
 * it has already told to wait (ahead of this one, spread over the holders), so a burst does not all queue behind
 * one warm server. That makes the policy stateful: one instance per request stream, and every waiting request
 * must be asked again until it is placed.
 *
 * <p>Based on: K. Liu, <i>Enabling Efficient ML Inference in SigmaOS with Model-Aware Scheduling</i>, MEng
 * thesis, MIT, 2025, Sections 6.5 and 7.
 */
public final class AdaptivePolicy implements ModelAwarePolicy {
    public static final String NAME = "adaptive";
    private final LatencyEstimator estimator;
    private final Map<String, LinkedHashSet<String>> queued = new HashMap<>();
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
    public Decision decide(ModelAwareRequest request, ModelAwareView cluster) {
        Decision d = choose(request, cluster);
        LinkedHashSet<String> waiting = queued.computeIfAbsent(request.model(), m -> new LinkedHashSet<>());
        if (d instanceof Decision.Wait) {
            waiting.add(request.id());
        } else {
            waiting.remove(request.id());
        }
        return d;
    }

    private Decision choose(ModelAwareRequest request, ModelAwareView cluster) {
        ModelRegistry registry = cluster.registry();
        var warm = Candidates.warmWithRoom(request, cluster);
        if (warm.isPresent()) {
            return Decision.Place.local(warm.get(), request.model(), registry, NAME + "/warm");
        }
        if (registry.residentServers(request.model()).isEmpty()) {
            return relabel(delegates.get(LatencyModel.Strategy.COLOCATION).decide(request, cluster), "first-load");
        }
        int ahead = ahead(request);
        LatencyModel.Prediction prediction = predict(request.model(), registry, ahead);
        if (registry.locateProxy(request.model()).isEmpty()) {
            prediction = prediction.withoutRegistry(); // every proxy is at target: a remote call would load cold
        }
        LatencyModel.Strategy best = prediction.best();
        return relabel(delegates.get(best).decide(request, cluster), best.policyName());
    }

    /** Requests of the same model this policy already told to wait, ahead of this one. */
    private int ahead(ModelAwareRequest request) {
        LinkedHashSet<String> waiting = queued.get(request.model());
        if (waiting == null) {
            return 0;
        }
        int k = 0;
        for (String id : waiting) {
            if (id.equals(request.id())) {
                return k;
            }
            k++;
        }
        return k;
    }

    /** The analytical model's view of the next request for {@code model} (for diagnostics and tests). */
    public LatencyModel.Prediction predict(String model, ModelRegistry registry) {
        return predict(model, registry, 0);
    }

    /**
     * The prediction with $n$ = the requests in flight at the least loaded server holding the model, plus the
     * requests already waiting for such a server ({@code ahead}) spread over the servers holding it.
     */
    LatencyModel.Prediction predict(String model, ModelRegistry registry, int ahead) {
        LatencyEstimates e = estimator.estimates(model);
        List<String> resident = registry.residentServers(model);
        return resident.stream()
                .min(Comparator.comparingInt(registry::ongoing)
                        .thenComparing(s -> registry.isLoaded(s, model) ? 0 : 1))
                .map(proxy -> LatencyModel.predict(e, registry.ongoing(proxy) + ahead / resident.size(),
                        registry.isLoaded(proxy, model) ? 0 : e.tCS()))
                .orElseGet(() -> LatencyModel.predict(e, 0));
    }

    private static Decision relabel(Decision decision, String strategy) {
        if (decision instanceof Decision.Place p) {
            return new Decision.Place(p.cpuServer(), p.inferenceServer(), p.route(), NAME + "/" + strategy);
        }
        return decision;
    }
}
