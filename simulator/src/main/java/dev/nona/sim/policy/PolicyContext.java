package dev.nona.sim.policy;

import dev.nona.sim.SimWorkload;
import dev.nona.sim.policy.table.TableSolver;
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
 * @param expert     the simulation-guided search that produces Expert's table for a workload
 * @param controller the controller's optimiser (the cost model of its own mapping, {@code controller-mapping}, unless
 *                   a run asks for another), for the policies that place as the controller does
 */
public record PolicyContext(SimWorkload workload, long seed, TableSolver nona, TableSolver nonaStar, TableSolver expert,
                            TableSolver controller) {
    public PolicyContext {
        Objects.requireNonNull(workload, "policy context workload");
    }

    /** With the controller's policies solved by {@code nona} as well. */
    public PolicyContext(SimWorkload workload, long seed, TableSolver nona, TableSolver nonaStar, TableSolver expert) {
        this(workload, seed, nona, nonaStar, expert, nona);
    }

    /** The policy's own random stream, independent of the arrival streams. */
    public SplittableRandom random() {
        return new SplittableRandom(seed * 7_919L + 0x5EEDL);
    }

    /** A context for policies that need no table. */
    public static PolicyContext basic(SimWorkload workload, long seed) {
        TableSolver none = w -> {
            throw new IllegalStateException("no placement table solver is configured");
        };
        return new PolicyContext(workload, seed, none, none, none, none);
    }
}
