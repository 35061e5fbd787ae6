package dev.nona.modelaware;

import dev.nona.check.Checks;
import dev.nona.placement.LiveServers;

/**
 * The expected cold-start delay of a task that needs a model, for Nona's cost model: the probability that the
 * server it lands on must load the model, times $T_{CS}$. This is our extension, not in either paper; the
 * optimiser's {@code --paper} mode leaves it out.
 *
 * <p>Warm-first mapping (the controller's {@link LiveServers}) sends a task to one of the $w$ servers holding its model
 * while that server has fewer than $k$ (the target) requests in flight. With $L = \lambda s$ requests of the
 * model in flight (Little's law; $\lambda$ its arrival rate, $s$ the time each holds a server) the warm servers
 * take at most $wk$ of them, so a fluid approximation of the fraction that go cold is
 * $p = \max(0, 1 - wk / L)$, and $p = 1$ when $w = 0$. Model-oblivious uniform mapping over $N$ servers goes
 * cold with $p = 1 - w/N$. Pure and thread-safe.
 */
public final class ExpectedColdStart {
    private ExpectedColdStart() {}

    /** Cold probability under warm-first mapping (fluid approximation, see the class comment). */
    public static double probabilityWarmFirst(int warmServers, int target, double lambda, double serviceSeconds) {
        requireCount(warmServers, "warmServers");
        Checks.positive(target, "target");
        Checks.nonNegative(lambda, "lambda");
        Checks.nonNegative(serviceSeconds, "serviceSeconds");
        if (warmServers == 0) {
            return 1.0;
        }
        double inFlight = lambda * serviceSeconds;
        return inFlight <= 0 ? 0.0 : Math.max(0.0, 1.0 - (double) warmServers * target / inFlight);
    }

    /** Cold probability under uniform (model-oblivious) mapping: $1 - w/N$. */
    public static double probabilityUniform(int warmServers, int servers) {
        requireCount(warmServers, "warmServers");
        Checks.positive(servers, "servers");
        if (warmServers > servers) {
            throw new IllegalArgumentException("warmServers (" + warmServers + ") must be <= servers (" + servers + ")");
        }
        return 1.0 - (double) warmServers / servers;
    }

    /** The term added to a task's completion time: $p \cdot T_{CS}$. */
    public static double seconds(double probability, double tCS) {
        if (!(probability >= 0 && probability <= 1)) {
            throw new IllegalArgumentException("cold probability (" + probability + ") must be in [0, 1]");
        }
        return probability * Checks.nonNegative(tCS, "tCS");
    }

    private static void requireCount(int n, String role) {
        if (n < 0) {
            throw new IllegalArgumentException(role + " (" + n + ") must be >= 0");
        }
    }
}
