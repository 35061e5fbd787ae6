package dev.nona.sim.policy.nona;

import dev.nona.sim.engine.ClusterView;

/** A cluster whose clock and per-server queues the test sets: queue lengths, work seconds and jobs all equal {@link #queues}. */
class TestingClusterView implements ClusterView {
    int[] queues;
    double now;

    TestingClusterView(int... queues) {
        this.queues = queues;
    }

    @Override public double now() { return now; }
    @Override public int servers() { return queues.length; }
    @Override public int queueLength(int s) { return queues[s]; }
    @Override public double queuedWorkSeconds(int s) { return queues[s]; }
    @Override public double assignedWorkSeconds(int s) { return queues[s]; }
    @Override public int assignedJobs(int s) { return queues[s]; }
    @Override public int jobsInFlight() { return 1; }
    @Override public int linkQueueLength() { return 0; }
}
