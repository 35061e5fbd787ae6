package dev.nona.sim.policy.live;

import dev.nona.sim.SimJobClass;
import dev.nona.sim.engine.ClusterView;
import dev.nona.sim.policy.MemoryFilter;
import dev.nona.sim.policy.Policy;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Join the shortest queue: the whole job runs on the server with the least queued work (ties broken at random).
 * Uses live state; never distributes a job, so it never uses the link. With memory modelled, the least loaded of
 * the servers that can hold the job ({@link MemoryFilter}).
 * Based on Winston, "Optimality of the shortest line discipline", J. Appl. Prob. 1977.
 */
public final class JsqPolicy implements Policy {
    private final SplittableRandom random;
    private final MemoryFilter memory = new MemoryFilter();

    public JsqPolicy(SplittableRandom random) {
        this.random = random;
    }

    @Override
    public void place(int classIndex, SimJobClass jobClass, ClusterView view, int[] servers) {
        Arrays.fill(servers, 0, jobClass.tasks(), view.leastLoadedServer(random));
        memory.apply(view, classIndex, jobClass, servers);
    }
}
