package dev.nona.sim.policy.live;

import dev.nona.modelaware.Colocation;
import dev.nona.modelaware.ModelRegistry;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.engine.ClusterView;
import dev.nona.sim.policy.MemoryFilter;
import dev.nona.sim.policy.Policy;
import dev.nona.sim.policy.WholeJob;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.IntPredicate;

/**
 * The thesis's model colocation for DAG jobs: a job runs whole (the thesis never splits a model) on a server that
 * holds its model, else per the variant. The choices are {@link Colocation}'s, the same rule the model-aware
 * simulator's {@code colocation} policies use:
 * <ul>
 *   <li>preferred machines: the servers that hold every task of the job ({@link ClusterView#holds}) and can take it
 *       ({@link ClusterView#fits}), with fewer than {@link ModelRegistry#DEFAULT_TARGET_ONGOING_REQUESTS} ongoing
 *       requests ({@link ClusterView#assignedJobs}); the one with the fewest ({@link Colocation#locateProxy});</li>
 *   <li>{@code colocation} (without queuing, the thesis's policy 1.ii): if there is none, a uniformly random server
 *       that can take the job and does not hold it, a cold start there ({@link Colocation#elsewhere});</li>
 *   <li>{@code colocation-queuing} (policy 1.i): if there is none but a server that can take the job holds it, the
 *       job waits for a preferred machine. The engine has no waiting room outside the servers' queues, so it joins
 *       the queue of the holder with the fewest ongoing requests, the first to fall under the target (ties to the
 *       lowest index). Only a job whose model no such server holds starts cold, on a uniformly random server that
 *       can take it.</li>
 * </ul>
 * The thesis's "resource constraints" are memory here: a server's queue is unbounded, so no server refuses a job for
 * its CPU. A job that fits no server whole is left to {@link MemoryFilter}. With memory not modelled every server holds
 * every model: both variants then join the server with the fewest ongoing requests under the target, else (all at the
 * target) {@code colocation} a random server and {@code colocation-queuing} the one with the fewest.
 *
 * <p>Based on: K. Liu, <i>Enabling Efficient ML Inference in SigmaOS with Model-Aware Scheduling</i>, MEng thesis,
 * MIT, 2025, Section 4.5. One instance per run; not thread-safe.
 */
public final class ColocationJobPolicy implements Policy {
    public static final String NAME = "colocation";
    public static final String QUEUING_NAME = "colocation-queuing";

    private final SplittableRandom random;
    private final boolean queuing;
    private final MemoryFilter memory = new MemoryFilter();
    private final WholeJob job = new WholeJob();

    private ColocationJobPolicy(SplittableRandom random, boolean queuing) {
        this.random = random;
        this.queuing = queuing;
    }

    /** Colocation without queuing: a cold start elsewhere rather than a wait. */
    public static ColocationJobPolicy withoutQueuing(SplittableRandom random) {
        return new ColocationJobPolicy(random, false);
    }

    /** Colocation with queuing: a wait for a server that holds the model rather than a cold start. */
    public static ColocationJobPolicy withQueuing(SplittableRandom random) {
        return new ColocationJobPolicy(random, true);
    }

    @Override
    public void place(int classIndex, SimJobClass jobClass, ClusterView view, int[] servers) {
        int n = jobClass.tasks();
        int count = job.of(jobClass);
        int[] part = job.tasks();
        int size = view.servers();
        IntPredicate fits = s -> view.fits(s, classIndex, part, count);
        IntPredicate holds = s -> holdsAll(view, s, classIndex, part, count);
        int target = ModelRegistry.DEFAULT_TARGET_ONGOING_REQUESTS;
        int server = Colocation.locateProxy(size, holds, view::assignedJobs, target, fits);
        if (server < 0 && queuing) {
            server = Colocation.locateProxy(size, holds, view::assignedJobs, Integer.MAX_VALUE, fits);
        }
        if (server < 0) {
            server = Colocation.elsewhere(size, fits, holds, random);
        }
        Arrays.fill(servers, 0, n, server < 0 ? 0 : server);
        memory.apply(view, classIndex, jobClass, servers);
    }

    /** Whether server {@code s} holds every task of {@code part[0..count)}. */
    private static boolean holdsAll(ClusterView view, int s, int classIndex, int[] part, int count) {
        for (int i = 0; i < count; i++) {
            if (!view.holds(s, classIndex, part[i])) {
                return false;
            }
        }
        return true;
    }
}
