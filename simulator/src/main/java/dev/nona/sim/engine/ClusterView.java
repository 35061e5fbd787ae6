package dev.nona.sim.engine;

import java.util.SplittableRandom;

/**
 * What a policy may read of the live simulation when it places a job: queues at the servers and the link.
 * Policies that the paper calls state-oblivious (Nona, Random, Opportunistic, Expert) never call it.
 */
public interface ClusterView {
    /** Current simulated time in seconds. */
    double now();

    int servers();

    /** Tasks queued or running at server {@code s}. */
    int queueLength(int s);

    /** Seconds of work queued or remaining at server {@code s}. */
    double queuedWorkSeconds(int s);

    /**
     * Expected seconds of work placed on server {@code s} and not yet done: the rest of the running task, the queued
     * tasks, and the tasks placed there that still wait for their inputs (what a server that receives its stages
     * when a request is placed knows of its ongoing requests). At least {@link #queuedWorkSeconds} when service
     * times are as expected.
     */
    double assignedWorkSeconds(int s);

    /** Jobs with a task placed on server {@code s} and not yet done there (the server's ongoing requests). */
    int assignedJobs(int s);

    /** Jobs in the system, including the one being placed. */
    int jobsInFlight();

    /** Transfers queued or in service on the link. */
    int linkQueueLength();

    /** $\nu_{c(s)}$: the speed of server {@code s} in operations/s ({@code NaN} when the view does not know it). */
    default double opsPerSecond(int s) {
        return Double.NaN;
    }

    /**
     * Whether servers' memory is modelled: then model caches are on and a part must fit its server ({@link #fits});
     * when false, every part fits everywhere and the methods below answer so.
     */
    default boolean memoryBounded() {
        return false;
    }

    /** Memory of server {@code s} for model parts ({@code +Infinity} when not modelled). */
    default double memoryBytes(int s) {
        return Double.POSITIVE_INFINITY;
    }

    /** Memory of server {@code s} not pinned by placed, unfinished tasks: what a new part may use once idle parts are evicted. */
    default double freeMemoryBytes(int s) {
        return Double.POSITIVE_INFINITY;
    }

    /** Whether server {@code s} holds task {@code task} of job class {@code classIndex} (loaded or being loaded). */
    default boolean holds(int s, int classIndex, int task) {
        return true;
    }

    /** Whether a part of tasks {@code tasks[0..count)} of class {@code classIndex} fits server {@code s} now. */
    default boolean fits(int s, int classIndex, int[] tasks, int count) {
        return true;
    }

    /** Seconds of the cold start that part would take on server {@code s} now (0 when it holds every task). */
    default double coldStartSeconds(int s, int classIndex, int[] tasks, int count) {
        return 0;
    }

    /**
     * Join the shortest queue: the server with the least queued work. The scan starts at a server drawn from
     * {@code random} (one {@code nextInt}) and stops at the first idle one; ties go to the first met.
     */
    default int leastLoadedServer(SplittableRandom random) {
        int n = servers();
        int offset = random.nextInt(n);
        int best = offset;
        double bestWork = queuedWorkSeconds(offset);
        for (int i = 1; i < n && bestWork > 0; i++) {
            int s = (offset + i) % n;
            double w = queuedWorkSeconds(s);
            if (w < bestWork) {
                best = s;
                bestWork = w;
            }
        }
        return best;
    }
}
