package dev.nona.sim.policy.live;

import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimSubgraph;
import dev.nona.sim.engine.ClusterView;
import dev.nona.sim.policy.MemoryFilter;
import dev.nona.sim.policy.Policy;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Spark's fair scheduler as the Nona paper modifies it: the cluster's servers are shared fairly between the jobs
 * in flight, so an arriving job gets a share of $\max(1, \lfloor N / J \rfloor)$ servers ($J$ jobs in flight,
 * itself included), the least loaded ones (live state). The job's roots run on the first server of its share
 * and its parallel tasks are spread over the share round-robin, eagerly, as Spark hands ready tasks to free
 * executors; tasks release their server when they finish (no head-of-line blocking). Congestion-oblivious. A part
 * that does not fit its server's memory moves to one that holds it ({@link MemoryFilter}).
 * Based on Nona (CloudNet'24), Section IV-A, and Zaharia et al., "Delay scheduling", EuroSys 2010.
 */
public final class SparkFairPolicy implements Policy {
    private final SplittableRandom random;
    private final MemoryFilter memory = new MemoryFilter();
    private int[] order = new int[0];
    private double[] work = new double[0];

    public SparkFairPolicy(SplittableRandom random) {
        this.random = random;
    }

    @Override
    public void place(int classIndex, SimJobClass jobClass, ClusterView view, int[] servers) {
        int n = view.servers();
        int share = Math.max(1, Math.min(n, n / Math.max(1, view.jobsInFlight())));
        int chosen = leastLoaded(view, n, Math.min(share, Math.max(1, jobClass.tasks())));
        int home = order[0];
        Arrays.fill(servers, 0, jobClass.tasks(), home);
        int next = chosen > 1 ? 1 : 0;
        for (SimSubgraph sg : jobClass.subgraphs()) {
            for (int i = 0; i < sg.size(); i++) {
                servers[sg.intermediate(i)] = order[next];
                next = next + 1 < chosen ? next + 1 : 0;
            }
        }
        memory.apply(view, classIndex, jobClass, servers);
    }

    /** Puts the {@code k} least loaded servers (random tie-breaking) first in {@code order}; returns {@code k}. */
    private int leastLoaded(ClusterView view, int n, int k) {
        if (order.length != n) {
            order = new int[n];
            work = new double[n];
        }
        int offset = random.nextInt(n);
        for (int i = 0; i < n; i++) {
            order[i] = (offset + i) % n;
            work[i] = view.queuedWorkSeconds(order[i]);
        }
        for (int i = 0; i < k; i++) {
            int best = i;
            for (int j = i + 1; j < n; j++) {
                if (work[j] < work[best]) {
                    best = j;
                }
            }
            swap(i, best);
        }
        return k;
    }

    private void swap(int i, int j) {
        int o = order[i];
        order[i] = order[j];
        order[j] = o;
        double w = work[i];
        work[i] = work[j];
        work[j] = w;
    }
}
