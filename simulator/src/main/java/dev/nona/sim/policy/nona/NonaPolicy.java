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
}
