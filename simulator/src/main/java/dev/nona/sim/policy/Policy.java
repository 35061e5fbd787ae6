package dev.nona.sim.policy;

import dev.nona.sim.SimJobClass;
import dev.nona.sim.engine.ClusterView;

/**
 * A placement policy: when a job arrives, it picks a server for each of the job's (contracted) tasks. The
 * simulator then runs the tasks there; an edge between tasks on distinct servers is a transfer on the link.
 *
 * <p>Add a policy with three edits: the class (with a {@code Factory}), one line in {@link PolicyRegistry}, and
 * its name in {@code policies.txt} (the list experiments compare), as in Caffeine's simulator.
 */
public interface Policy {
    /**
     * Fills {@code servers[t]} with a server in {@code [0, view.servers())} for every task {@code t} of the job.
     *
     * @param classIndex index of the job's class in the workload
     * @param jobClass   the job's class
     * @param view       the live cluster state (only policies that use live state read it)
     * @param servers    output, at least {@code jobClass.tasks()} long
     */
    void place(int classIndex, SimJobClass jobClass, ClusterView view, int[] servers);

    /** Builds a policy for one simulation run. */
    @FunctionalInterface
    interface Factory {
        Policy create(PolicyContext context);
    }
}
