package dev.nona.sim.policy.nona;

import dev.nona.sim.SimCluster;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimWorkload;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link ControllerPolicy.Heterogeneity} of a simulated workload: its servers' class names (none for a cluster of
 * one class), its job classes' task bytes and its cold-start cost; null for the paper's cluster (one class, no memory,
 * no cold start), on which the controller policies then place exactly as before.
 */
final class ControllerHeterogeneity {
    private ControllerHeterogeneity() {
    }

    static ControllerPolicy.Heterogeneity of(SimWorkload workload, boolean uniform) {
        SimCluster cluster = workload.cluster();
        if (cluster.classes().size() == 1 && !cluster.cachesOn()) {
            return null;
        }
        List<String> names = null;
        if (cluster.classes().size() > 1 || cluster.memoryBounded()) {
            names = new ArrayList<>(cluster.servers());
            for (int s = 0; s < cluster.servers(); s++) {
                names.add(cluster.classes().get(cluster.classOf(s)).name());
            }
        }
        List<SimJobClass> classes = workload.classes();
        double[][] bytes = new double[classes.size()][];
        for (int c = 0; c < bytes.length; c++) {
            SimJobClass jc = classes.get(c);
            bytes[c] = new double[jc.tasks()];
            for (int t = 0; t < jc.tasks(); t++) {
                bytes[c][t] = jc.taskBytes(t);
            }
        }
        return new ControllerPolicy.Heterogeneity(names, bytes, cluster.coldStart(), uniform);
    }
}
