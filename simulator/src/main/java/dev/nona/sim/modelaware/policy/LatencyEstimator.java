package dev.nona.sim.modelaware.policy;

import dev.nona.modelaware.ModelProfile;
import dev.nona.sim.modelaware.policy.AdaptivePolicy;
import dev.nona.sim.modelaware.policy.Ema;
import dev.nona.sim.modelaware.policy.LatencyEstimates;
import java.util.HashMap;
import java.util.Map;

/**
 * Live estimates of the thesis's four times: per model $T_{CS}$, $T_I$ and $T_P$, and one network time
 * $T_N$ per remote call, each an exponential moving average of observed times started at the catalog's
 * {@link ModelProfile} (or the configured network prior). Feeds {@link AdaptivePolicy}. Not thread-safe.
 */
public final class LatencyEstimator {
    /** Weight of a new observation. */
    public static final double DEFAULT_ALPHA = 0.3;

    private final double alpha;
    private final Map<String, Ema[]> perModel = new HashMap<>();
    private final Ema network;

    public LatencyEstimator(double alpha, double networkPriorSeconds) {
        this.alpha = alpha;
        this.network = new Ema(alpha, networkPriorSeconds);
    }

    public LatencyEstimator(double networkPriorSeconds) {
        this(DEFAULT_ALPHA, networkPriorSeconds);
    }

    /** Adds (or replaces the prior of) a model. */
    public void register(ModelProfile profile) {
        perModel.put(profile.name(), new Ema[] {
            new Ema(alpha, profile.coldStartSeconds()),
            new Ema(alpha, profile.inferenceSeconds()),
            new Ema(alpha, profile.cpuSeconds())
        });
    }

    public void observeColdStart(String model, double seconds) {
        emas(model)[0].observe(seconds);
    }

    public void observeInference(String model, double seconds) {
        emas(model)[1].observe(seconds);
    }

    /** Observed pre- plus post-processing time of one request. */
    public void observeCpu(String model, double seconds) {
        emas(model)[2].observe(seconds);
    }

    public void observeNetwork(double seconds) {
        network.observe(seconds);
    }

    public LatencyEstimates estimates(String model) {
        Ema[] e = emas(model);
        return new LatencyEstimates(e[0].value(), e[1].value(), e[2].value(), network.value());
    }

    private Ema[] emas(String model) {
        Ema[] e = perModel.get(model);
        if (e == null) {
            throw new IllegalArgumentException("model '" + model + "' is not in the estimator's catalog");
        }
        return e;
    }
}
