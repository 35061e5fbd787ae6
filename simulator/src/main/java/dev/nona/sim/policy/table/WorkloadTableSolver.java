package dev.nona.sim.policy.table;

import dev.nona.sim.SimWorkload;

/** Produces a placement table for a workload at the rates it states (e.g. Nona's optimiser). */
@FunctionalInterface
public interface WorkloadTableSolver {
    SimTable solve(SimWorkload workload);
}
