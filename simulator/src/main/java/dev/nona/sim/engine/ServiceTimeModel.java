package dev.nona.sim.engine;

import dev.nona.sim.SimCluster;
import dev.nona.sim.SimJobClass;

/**
 * How long a task occupies its server and a transfer occupies the link. The paper's model is deterministic:
 * $p^t/\nu$ and $b/\mu$ ({@link #DETERMINISTIC}). An extension point for server models with state (model caches,
 * cold starts), which may keep their own per-server state, updated in {@link #taskStarted}.
 */
public interface ServiceTimeModel {
    /** Seconds task {@code task} of {@code jobClass} occupies server {@code server} when it starts at {@code now}. */
    double taskSeconds(SimCluster cluster, SimJobClass jobClass, int task, int server, double now);

    /** Seconds a transfer of {@code bits} occupies the link. */
    default double transferSeconds(SimCluster cluster, double bits) {
        return bits / cluster.linkBitsPerSecond();
    }

    /** Called when a task starts on a server; default: nothing. */
    default void taskStarted(SimJobClass jobClass, int task, int server, double now) {
    }

    /** The paper's deterministic server and link: $p^t/\nu_{c(s)}$ (the speed of the task's server's class) and $b/\mu$. */
    ServiceTimeModel DETERMINISTIC = (cluster, jobClass, task, server, now) -> jobClass.taskOps(task) / cluster.opsPerSecond(server);
}
