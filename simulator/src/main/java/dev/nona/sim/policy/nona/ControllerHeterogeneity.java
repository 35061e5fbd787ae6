package dev.nona.sim.policy.nona;

import dev.nona.sim.SimWorkload;

/**
 * The {@link ControllerPolicy.Heterogeneity} of a simulated workload: its servers' class names (none for a cluster of
 * one class), its job classes' task bytes and its cold-start cost. Null while the workload's cluster gives no classes,
 * memory or cold start: the controller policies then place exactly as on the paper's cluster.
 *
 * <p>The simulator's workload does not carry server classes, task bytes or a cold-start cost in this module yet (the
 * workload reader and the engine add them); until then every workload is the paper's and this returns null. Wiring
 * them is this method's body alone: {@code new Heterogeneity(class name per server from cluster().classes(), per job
 * class SimJobClass.taskBytes, cluster().coldStart(), uniform)}.
 */
final class ControllerHeterogeneity {
    private ControllerHeterogeneity() {
    }

    static ControllerPolicy.Heterogeneity of(SimWorkload workload, boolean uniform) {
        return null;
    }
}
