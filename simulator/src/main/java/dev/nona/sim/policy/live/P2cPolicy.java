package dev.nona.sim.policy.live;

import dev.nona.sim.SimJobClass;
import dev.nona.sim.engine.ClusterView;
import dev.nona.sim.policy.MemoryFilter;
import dev.nona.sim.policy.Policy;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Power of two choices: sample two distinct servers, run the whole job on the one with less queued work.
 * Uses live state; never distributes a job. With memory modelled, only a sampled server that can hold the job;
 * when neither can, the least loaded one that can ({@link MemoryFilter}). Based on Mitzenmacher, "The power of two choices in randomized load
 * balancing", IEEE TPDS 2001, as Sparrow (Ousterhout et al., SOSP 2013) applies it to task placement.
 */
public final class P2cPolicy implements Policy {
    private final SplittableRandom random;
    private final MemoryFilter memory = new MemoryFilter();

    public P2cPolicy(SplittableRandom random) {
        this.random = random;
    }

    @Override
    public void place(int classIndex, SimJobClass jobClass, ClusterView view, int[] servers) {
        int n = view.servers();
        int a = random.nextInt(n);
        int s = a;
        if (n > 1) {
            int b = random.nextInt(n - 1);
            if (b >= a) {
                b++;
            }
            s = view.queuedWorkSeconds(b) < view.queuedWorkSeconds(a) ? b : a;
            if (view.memoryBounded()) {
                s = feasibleOfTwo(view, classIndex, jobClass, servers, s, s == a ? b : a);
            }
        }
        Arrays.fill(servers, 0, jobClass.tasks(), s);
        memory.apply(view, classIndex, jobClass, servers);
    }

    /** The better sampled server if the job fits it, else the other one if it fits there, else the better one. */
    private static int feasibleOfTwo(ClusterView view, int classIndex, SimJobClass jobClass, int[] servers, int better, int other) {
        int k = 0;
        for (int t = 0; t < jobClass.tasks(); t++) {
            if (jobClass.taskOps(t) > 0) {
                servers[k++] = t;
            }
        }
        if (view.fits(better, classIndex, servers, k) || !view.fits(other, classIndex, servers, k)) {
            return better;
        }
        return other;
    }
}
