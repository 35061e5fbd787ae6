package dev.nona.sim.policy.live;

import dev.nona.sim.SimJobClass;
import dev.nona.sim.engine.ClusterView;
import dev.nona.sim.policy.MemoryFilter;
import dev.nona.sim.policy.Policy;
import dev.nona.sim.policy.WholeJob;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Least expected finish: the job runs whole (one part) on the memory-feasible server where it is predicted to finish
 * first, from exact live state: $\arg\min_s\ W_s + T_{CS}(s) + P / \nu_{c(s)}$, where $W_s$ is the work placed on
 * $s$ and not done (seconds, {@link ClusterView#assignedWorkSeconds}), $T_{CS}(s)$ the cold start the part would
 * take there (0 if $s$ holds it, {@link ClusterView#coldStartSeconds}), $P$ the job's operations and $\nu_{c(s)}$ the
 * server's speed. What a user would write for a heterogeneous fleet: it weighs speed, queues and warm caches, but
 * never splits a job and never weighs the link. Ties go to the first server met in a scan that starts at a random
 * server (one draw per job). A job that fits no server whole is left to {@link MemoryFilter}. Based on the
 * earliest-finish-time rule of HEFT (Topcuoglu, Hariri and Wu, "Performance-effective and low-complexity task
 * scheduling for heterogeneous computing", IEEE TPDS 2002) applied to whole jobs.
 */
public final class LeastExpectedFinishPolicy implements Policy {
    private final SplittableRandom random;
    private final MemoryFilter memory = new MemoryFilter();
    private final WholeJob job = new WholeJob();

    public LeastExpectedFinishPolicy(SplittableRandom random) {
        this.random = random;
    }

    @Override
    public void place(int classIndex, SimJobClass jobClass, ClusterView view, int[] servers) {
        int n = jobClass.tasks();
        int k = job.of(jobClass);
        int[] part = job.tasks();
        double ops = jobClass.totalOps();
        int count = view.servers();
        int offset = random.nextInt(count);
        int best = offset;
        double bestFinish = Double.POSITIVE_INFINITY;
        for (int i = 0; i < count; i++) {
            int s = (offset + i) % count;
            if (!view.fits(s, classIndex, part, k)) {
                continue;
            }
            double finish = view.assignedWorkSeconds(s) + view.coldStartSeconds(s, classIndex, part, k) + ops / view.opsPerSecond(s);
            if (finish < bestFinish) {
                best = s;
                bestFinish = finish;
            }
        }
        Arrays.fill(servers, 0, n, best);
        memory.apply(view, classIndex, jobClass, servers);
    }
}
