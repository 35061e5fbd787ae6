package dev.nona.sim.policy.nona;

import dev.nona.sim.policy.Policy;
import dev.nona.sim.policy.PolicyContext;
import dev.nona.sim.policy.table.TablePolicy;

/**
 * Nona*: one table, solved once for a reference load (50% in the paper) and used unchanged at every load and
 * rate error; measures how much Nona needs to know the true rates. Based on Nona (CloudNet'24), Section IV-D.
 */
public final class NonaStarPolicy {
    private NonaStarPolicy() {
    }

    public static Policy create(PolicyContext context) {
        return new TablePolicy(context.nonaStar().solve(context.workload()), context.random());
    }
}
