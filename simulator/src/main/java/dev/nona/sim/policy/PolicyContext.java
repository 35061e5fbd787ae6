package dev.nona.sim.policy;

import dev.nona.sim.SimWorkload;
import dev.nona.sim.policy.table.WorkloadTableSolver;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * What a policy factory may use: the workload at the rates being simulated, the seed for the policy's own
 * random stream, and the table sources for the table-driven policies.
 *
 * @param workload   the workload being simulated (its rates are the true rates)
 * @param seed       the run's seed
 * @param nona       Nona's optimiser, solving for a workload's stated rates
 * @param nonaStar   the single table Nona* uses at every load (solved once, at a reference load)
 * @param expert     the simulation-guided search that produces Expert's table for a workload (scored under Nona's
 *                   uniform mapping, the paper's Expert)
 * @param expertLive the same search scoring its candidates under the live mapping {@code expert-jsq} deploys
 * @param controller the controller's optimiser (the cost model of its own mapping, {@code controller-mapping}, unless
 *                   a run asks for another), for the policies that place as the controller does
 */
public record PolicyContext(SimWorkload workload, long seed, WorkloadTableSolver nona, WorkloadTableSolver nonaStar, WorkloadTableSolver expert,
                            WorkloadTableSolver expertLive, WorkloadTableSolver controller) {
    public PolicyContext {
        Objects.requireNonNull(workload, "policy context workload");
    }

    /**
     * A context without the live-mapping expert search ({@code expert-jsq} then fails with a clear error), whose
     * controller policies sample {@code nona}'s tables.
     */
    public PolicyContext(SimWorkload workload, long seed, WorkloadTableSolver nona, WorkloadTableSolver nonaStar, WorkloadTableSolver expert) {
        this(workload, seed, nona, nonaStar, expert, unconfigured("live-mapping expert search (expert-jsq)"), nona);
    }

    /** The policy's own random stream, independent of the arrival streams. */
    public SplittableRandom random() {
        return new SplittableRandom(seed * 7_919L + 0x5EEDL);
    }

    /** A context for policies that need no table. */
    public static PolicyContext basic(SimWorkload workload, long seed) {
        WorkloadTableSolver none = unconfigured("placement table solver");
        return new PolicyContext(workload, seed, none, none, none, none, none);
    }

    private static WorkloadTableSolver unconfigured(String what) {
        return w -> {
            throw new IllegalStateException("no " + what + " is configured");
        };
    }
}
