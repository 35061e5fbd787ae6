package dev.nona.sim.engine;

import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.TestingWorkloads;
import dev.nona.sim.policy.baseline.RandomPolicy;
import java.util.List;
import java.util.SplittableRandom;

/** Runs {@code args[0]} background compute jobs at 70% load on 8 servers; run in a child JVM with a small heap by {@link MemoryTest}. */
public final class MemoryProbe {
    private MemoryProbe() {
    }

    public static void main(String[] args) {
        long jobs = Long.parseLong(args[0]);
        SimJobClass job = SimJobClass.backgroundCompute("bg-compute", 1, 1e7);
        SimWorkload w = new SimWorkload(TestingWorkloads.cluster(8), List.of(job)).withLoad(0.7);
        Simulator sim = new Simulator(w, new RandomPolicy(new SplittableRandom(1)), "random", new SimConfig(jobs, 0, 1, Long.MAX_VALUE));
        SimResult r = sim.run();
        System.out.println(r.all().count() + " " + sim.jobSlotCapacity() + " " + r.maxJobsInFlight());
    }
}
