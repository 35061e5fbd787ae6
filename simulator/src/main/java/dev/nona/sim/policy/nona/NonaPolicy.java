package dev.nona.sim.policy.nona;

import dev.nona.sim.policy.Policy;
import dev.nona.sim.policy.PolicyContext;
import dev.nona.sim.policy.theta.ThetaPolicy;

/**
 * Nona: samples the table that Nona's optimiser solved for the rates being simulated (the offline phase runs
 * once per load point, before the run). Based on Nona (CloudNet'24), Sections III and IV-A.
 */
public final class NonaPolicy {
    private NonaPolicy() {
    }

    public static Policy create(PolicyContext context) {
        return new ThetaPolicy(context.nona().solve(context.workload()), context.random());
    }

    /**
     * Nona's table with live server mapping: the triplets come from the table, the servers from the queues (the
     * first root to the shortest queue, other parts by power of two choices), as the controller maps parts to
     * servers (DESIGN.md, Section 6). Not in the paper.
     */
    public static Policy createWithLiveMapping(PolicyContext context) {
        return new ThetaPolicy(context.nona().solve(context.workload()), context.random(), true);
    }
}
