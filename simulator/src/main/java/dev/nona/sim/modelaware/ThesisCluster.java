package dev.nona.sim.modelaware;

import dev.nona.check.Checks;
import dev.nona.modelaware.ModelRegistry;

/**
 * The cluster of a model-aware simulation: identical machines with CPU cores for request processes, memory
 * for a model cache, and one model replica each that serves one inference at a time (the thesis's RayServe
 * instance with 1 replica).
 *
 * @param servers               number of machines, at least 1 (the thesis: 8)
 * @param coresPerServer        cores each machine offers to request processes, at least 1 (the thesis: 4)
 * @param memoryMbPerServer     memory for cached models on each machine, MB, $&gt; 0$
 * @param networkLatencySeconds delay of one remote inference call, finite and $\ge 0$
 * @param targetOngoingRequests the thesis's {@code targetOngoingRequests}, at least 1 (default 3)
 */
public record ThesisCluster(int servers, int coresPerServer, double memoryMbPerServer,
                            double networkLatencySeconds, int targetOngoingRequests) {
    /** Memory used when the workload does not say: the thesis's c220g5 nodes have 192 GB. */
    public static final double DEFAULT_MEMORY_MB = 192_000;

    public ThesisCluster {
        if (servers < 1) {
            throw new IllegalArgumentException("cluster.servers (" + servers + ") must be >= 1");
        }
        if (coresPerServer < 1) {
            throw new IllegalArgumentException("cluster.coresPerServer (" + coresPerServer + ") must be >= 1");
        }
        Checks.positive(memoryMbPerServer, "cluster.memoryMbPerServer");
        Checks.nonNegative(networkLatencySeconds, "cluster.networkLatencySeconds");
        if (targetOngoingRequests < 1) {
            throw new IllegalArgumentException("cluster.targetOngoingRequests (" + targetOngoingRequests + ") must be >= 1");
        }
    }

    public ThesisCluster(int servers, int coresPerServer, double networkLatencySeconds) {
        this(servers, coresPerServer, DEFAULT_MEMORY_MB, networkLatencySeconds, ModelRegistry.DEFAULT_TARGET_ONGOING_REQUESTS);
    }

    /** The name of machine {@code i}. */
    public static String serverId(int i) {
        return "s" + i;
    }
}
