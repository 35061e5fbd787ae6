package dev.nona.modelaware;

import dev.nona.check.Checks;

/**
 * How many requests it takes before the cold starts of model-oblivious routing stop mattering: the thesis's
 * break-even analysis. Routing $R$ sequential requests uniformly over $N$ servers loads the model on every
 * server it touches; model colocation loads it once. The extra time is at most $(N - 1) T_{CS}$, so the
 * average per-request difference falls below $\epsilon$ after $(N - 1) T_{CS} / \epsilon$ requests.
 *
 * <p>Based on: K. Liu, <i>Enabling Efficient ML Inference in SigmaOS with Model-Aware Scheduling</i>, MEng
 * thesis, MIT, 2025, Section 6.3 (8 servers, $T_{CS} \approx 3$ s, $\epsilon = 0.01$ s: 2100 requests).
 * Pure and thread-safe.
 */
public final class ColdStartAmortization {
    private ColdStartAmortization() {}

    /**
     * Implements the worst-case break-even point of Section 6.3: $\lceil (N - 1) T_{CS} / \epsilon \rceil$.
     *
     * @param servers N, at least 1
     * @param tCS     cold start time, finite and $\ge 0$
     * @param epsilon the per-request difference that counts as "the same", finite and $&gt; 0$
     */
    public static long breakEvenRequests(int servers, double tCS, double epsilon) {
        Checks.positive(servers, "servers");
        Checks.nonNegative(tCS, "tCS");
        Checks.positive(epsilon, "epsilon");
        return (long) Math.ceil((servers - 1) * tCS / epsilon - 1e-9);
    }

    /**
     * Expected number of distinct servers (hence cold starts) among $R$ uniformly random picks of $N$:
     * $N (1 - (1 - 1/N)^R)$ (the coupon collector's occupancy). For $N = 8$, $R = 10$: 5.90.
     */
    public static double expectedColdStartsUniform(int servers, long requests) {
        Checks.positive(servers, "servers");
        if (requests < 0) {
            throw new IllegalArgumentException("requests (" + requests + ") must be >= 0");
        }
        return servers * (1 - Math.pow(1 - 1.0 / servers, requests));
    }

    /**
     * Expected average per-request latency difference between uniform routing and colocation after $R$
     * sequential requests: $(E[\text{cold starts}] - 1) T_{CS} / R$.
     */
    public static double expectedAverageGapSeconds(int servers, long requests, double tCS) {
        Checks.nonNegative(tCS, "tCS");
        if (requests <= 0) {
            throw new IllegalArgumentException("requests (" + requests + ") must be > 0");
        }
        return (expectedColdStartsUniform(servers, requests) - 1) * tCS / requests;
    }
}
