package dev.nona.sim.modelaware.policy;

import dev.nona.check.Checks;
import dev.nona.sim.modelaware.policy.AdaptivePolicy;
import dev.nona.sim.modelaware.policy.LatencyEstimates;

/**
 * The thesis's analytical model of one request's end-to-end latency under each policy, given $n$ requests
 * already in flight at the warm proxy the request would use, and which policy it therefore favours.
 *
 * <p>Based on: K. Liu, <i>Enabling Efficient ML Inference in SigmaOS with Model-Aware Scheduling</i>, MEng
 * thesis, MIT, 2025, Section 6.5 (equations 1–3). The thesis takes $n$ as the maximum number of ongoing
 * requests at any warm proxy; {@link AdaptivePolicy} passes the $n$ of the proxy it would actually use
 * (the least loaded), which is the same in every scenario of Section 6.4. All methods are pure and
 * thread-safe; inputs are finite and $\ge 0$.
 */
public final class LatencyModel {
    private LatencyModel() {}

    /** The three strategies the model compares. */
    public enum Strategy {
        COLOCATION("colocation"),
        COLOCATION_WITH_QUEUING("colocation-queuing"),
        REGISTRY("registry");

        private final String policyName;

        Strategy(String policyName) {
            this.policyName = policyName;
        }

        /** The name of the policy that implements the strategy. */
        public String policyName() {
            return policyName;
        }
    }

    /**
     * The three predicted latencies and the smallest. Ties go to colocation (a cold start spreads load; waiting
     * concentrates it), then to queuing (it keeps the network free).
     */
    public record Prediction(double colocation, double colocationWithQueuing, double registry) {
        public Strategy best() {
            if (colocation <= colocationWithQueuing && colocation <= registry) {
                return Strategy.COLOCATION;
            }
            return registry < colocationWithQueuing ? Strategy.REGISTRY : Strategy.COLOCATION_WITH_QUEUING;
        }

        /** The same prediction with the registry ruled out (no server holding the model is under target). */
        public Prediction withoutRegistry() {
            return new Prediction(colocation, colocationWithQueuing, Double.POSITIVE_INFINITY);
        }

        public double latency(Strategy strategy) {
            return switch (strategy) {
                case COLOCATION -> colocation;
                case COLOCATION_WITH_QUEUING -> colocationWithQueuing;
                case REGISTRY -> registry;
            };
        }
    }

    /**
     * Implements Eq. (1) of the thesis, Section 6.5:
     * $T_{COLOCATION} = \max(T_{CS} + T_I + T_P,\; n (T_{I_{avg}} + T_{P_{avg}}))$.
     */
    public static double colocation(double tCS, double tI, double tP, int n, double tIavg, double tPavg) {
        requireN(n);
        return Math.max(tCS + tI + tP, n * (tIavg + tPavg));
    }

    /** Implements Eq. (2): $T_{COLOCATION\_WITH\_QUEUING} = (n + 1)(T_{I_{avg}} + T_{P_{avg}})$. */
    public static double colocationWithQueuing(int n, double tIavg, double tPavg) {
        requireN(n);
        return (n + 1) * (tIavg + tPavg);
    }

    /** Implements Eq. (3): $T_{REGISTRY} = (T_N + T_I + T_P) + n \cdot T_{I_{avg}}$. */
    public static double registry(double tN, double tI, double tP, int n, double tIavg) {
        requireN(n);
        return tN + tI + tP + n * tIavg;
    }

    /** All three, with the averages of the requests in flight taken equal to the new request's estimates. */
    public static Prediction predict(LatencyEstimates e, int n) {
        return predict(e, n, 0);
    }

    /**
     * All three when the warm proxy is still loading the model and needs {@code tLoad} more seconds (our
     * extension; the thesis assumes a loaded proxy, {@code tLoad = 0}, which gives Eqs. (1)–(3) exactly):
     * queuing waits for the load, $T_{CQ} = t_{load} + (n + 1)(T_{I_{avg}} + T_{P_{avg}})$, and a remote call
     * overlaps it with the network, $T_{REG} = \max(T_N, t_{load}) + T_I + T_P + n T_{I_{avg}}$.
     */
    public static Prediction predict(LatencyEstimates e, int n, double tLoad) {
        Checks.nonNegative(tLoad, "tLoad");
        return new Prediction(
                colocation(e.tCS(), e.tI(), e.tP(), n, e.tI(), e.tP()),
                tLoad + colocationWithQueuing(n, e.tI(), e.tP()),
                registry(Math.max(e.tN(), tLoad), e.tI(), e.tP(), n, e.tI()));
    }

    private static void requireN(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("ongoing requests n (" + n + ") must be >= 0");
        }
    }
}
