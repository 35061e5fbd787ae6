package dev.nona.sim.policy;

import dev.nona.sim.SimJobClass;

/**
 * A job as one part, for the policies that run it whole on one server: its tasks that run on a server (those of
 * non-zero operations), in task order, in a scratch array the policy keeps. One per policy; not thread-safe.
 */
public final class WholeJob {
    private int[] tasks = new int[16];

    /** Collects the tasks of {@code jobClass} with operations; returns their count ({@link #tasks()}{@code [0..count)}). */
    public int of(SimJobClass jobClass) {
        int n = jobClass.tasks();
        if (tasks.length < n) {
            tasks = new int[2 * n];
        }
        int count = 0;
        for (int t = 0; t < n; t++) {
            if (jobClass.taskOps(t) > 0) {
                tasks[count++] = t;
            }
        }
        return count;
    }

    /** The tasks {@link #of} collected, the first as many of this array as it returned. */
    public int[] tasks() {
        return tasks;
    }
}
