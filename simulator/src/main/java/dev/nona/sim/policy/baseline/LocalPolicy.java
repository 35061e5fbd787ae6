package dev.nona.sim.policy.baseline;

import dev.nona.sim.SimJobClass;
import dev.nona.sim.engine.ClusterView;
import dev.nona.sim.policy.MemoryFilter;
import dev.nona.sim.policy.Policy;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Local: never distribute. All of a job's tasks run on one uniformly random server, so no job uses the link (a job
 * that does not fit that server's memory moves to one that holds it, {@link MemoryFilter}).
 * The safe fallback table of the controller (docs/design.md, "Safe hot-swap, fallback and rollback").
 */
public final class LocalPolicy implements Policy {
    private final SplittableRandom random;
    private final MemoryFilter memory = new MemoryFilter();

    public LocalPolicy(SplittableRandom random) {
        this.random = random;
    }

    @Override
    public void place(int classIndex, SimJobClass jobClass, ClusterView view, int[] servers) {
        Arrays.fill(servers, 0, jobClass.tasks(), random.nextInt(view.servers()));
        memory.apply(view, classIndex, jobClass, servers);
    }
}
