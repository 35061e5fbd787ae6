package dev.nona.sim;

import dev.nona.sim.engine.ClusterView;
import dev.nona.sim.policy.Policy;
import java.util.List;

/** Small hand-built workloads and a fixed-placement policy for tests. */
public final class TestingWorkloads {
    private TestingWorkloads() {
    }

    /**
     * A fork-join job: root 0 -> {1, 2} -> sink 3. Ops 1e9 each (1 s at 1 Gops/s), edges of 1e9 bits
     * (0.1 s on a 10 Gbit/s link).
     */
    public static SimJobClass forkJoin(double rate) {
        return SimJobClass.inference("forkjoin", rate, new double[] {1e9, 1e9, 1e9, 1e9},
                new int[][] {{0, 1}, {0, 2}, {1, 3}, {2, 3}}, new double[] {1e9, 1e9, 1e9, 1e9},
                List.of(new SimSubgraph(0, 3, new int[] {1, 2})));
    }

    public static SimCluster cluster(int servers) {
        return new SimCluster(servers, 1e9, 1e10);
    }

    /** Places every task on the server given for it (index = task). */
    public static Policy fixed(int... servers) {
        return (int classIndex, SimJobClass jobClass, ClusterView view, int[] out) -> {
            for (int t = 0; t < jobClass.tasks(); t++) {
                out[t] = servers[t];
            }
        };
    }
}
