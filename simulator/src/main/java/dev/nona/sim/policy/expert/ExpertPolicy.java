package dev.nona.sim.policy.expert;

import dev.nona.sim.policy.Policy;
import dev.nona.sim.policy.PolicyContext;
import dev.nona.sim.policy.table.ServerMapping;
import dev.nona.sim.policy.table.TablePolicy;

/**
 * Expert: samples the best table that {@link ExpertSearch} found for the rates being simulated. The paper's
 * Expert is a hand-derived distribution per data point; ours is found by simulation instead, so it is
 * reproducible. Based on Nona (CloudNet'24), Section IV-A, "Expert".
 */
public final class ExpertPolicy {
    private ExpertPolicy() {
    }

    public static Policy create(PolicyContext context) {
        return new TablePolicy(context.expert().solve(context.workload()), context.random());
    }

    /**
     * {@code expert-jsq}: the live server mapping of {@code nona-jsq} ({@link ServerMapping#LIVE_QUEUES}) with the table
     * that {@link ExpertSearch#withLiveMapping} found scoring every candidate under that same mapping (from whole and
     * from Nona's table): the yardstick for Nona with live mapping and for the controller.
     */
    public static Policy createWithLiveMapping(PolicyContext context) {
        return new TablePolicy(context.expertLive().solve(context.workload()), context.random(), ServerMapping.LIVE_QUEUES);
    }
}
