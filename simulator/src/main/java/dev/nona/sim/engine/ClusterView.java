package dev.nona.sim.engine;

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

    /** Jobs in the system, including the one being placed. */
    int jobsInFlight();

    /** Transfers queued or in service on the link. */
    int linkQueueLength();
}
