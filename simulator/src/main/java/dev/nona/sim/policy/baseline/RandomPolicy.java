package dev.nona.sim.policy.baseline;

import dev.nona.sim.SimJobClass;
import dev.nona.sim.engine.ClusterView;
import dev.nona.sim.policy.MemoryFilter;
import dev.nona.sim.policy.Policy;
import java.util.SplittableRandom;

/**
 * Random: every task goes to a uniformly random server, independently. Compute- and congestion-oblivious; a part
 * that does not fit its server's memory moves to one that holds it ({@link MemoryFilter}).
 * Based on Nona (CloudNet'24), Section IV-A, "Random".
 */
public final class RandomPolicy implements Policy {
    private final SplittableRandom random;
    private final MemoryFilter memory = new MemoryFilter();

    public RandomPolicy(SplittableRandom random) {
        this.random = random;
    }

    @Override
    public void place(int classIndex, SimJobClass jobClass, ClusterView view, int[] servers) {
        int n = view.servers();
        for (int t = 0; t < jobClass.tasks(); t++) {
            servers[t] = random.nextInt(n);
        }
        memory.apply(view, classIndex, jobClass, servers);
    }
}
