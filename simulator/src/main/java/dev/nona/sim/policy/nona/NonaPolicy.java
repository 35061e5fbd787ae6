package dev.nona.sim.policy.nona;

import dev.nona.sim.policy.Policy;
import dev.nona.sim.policy.PolicyContext;
import dev.nona.sim.policy.theta.LedgerMapping;
import dev.nona.sim.policy.theta.ServerMapping;
import dev.nona.sim.policy.theta.ShardedMapping;
import dev.nona.sim.policy.theta.ThetaPolicy;
import dev.nona.sim.policy.theta.UnderTargetMapping;

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
        return new ThetaPolicy(context.nona().solve(context.workload()), context.random(), ServerMapping.LIVE_QUEUES);
    }

    /**
     * Nona as the controller deploys it, with its defaults: the triplets come from the table, the servers by the
     * controller's rule ({@link LedgerMapping}: among servers with fewer than 3 requests in flight the least
     * predicted backlog, else the least predicted backlog) over what telemetry reports once a second plus the
     * controller's ledger of its own requests since. Not in the paper.
     */
    public static Policy createWithControllerMapping(PolicyContext context) {
        return new ThetaPolicy(context.controller().solve(context.workload()), context.random(),
                new LedgerMapping(UnderTargetMapping.DEFAULT_TARGET, TELEMETRY_SECONDS, context.workload().cluster().opsPerSecond()));
    }

    /**
     * As {@link #createWithControllerMapping} with the placement operator at parallelism 2: two ledgers, each job
     * placed by one of them, so each sees about half of the jobs between two reports; each prefers its half of the
     * servers, as the controller's subtasks do. Not in the paper.
     */
    public static Policy createWithControllerMappingTwoSubtasks(PolicyContext context) {
        double nu = context.workload().cluster().opsPerSecond();
        return new ThetaPolicy(context.controller().solve(context.workload()), context.random(), new ShardedMapping(2,
                i -> new LedgerMapping(UnderTargetMapping.DEFAULT_TARGET, TELEMETRY_SECONDS, nu, i, 2)));
    }

    /**
     * The controller's rule without its ledger (as the controller was before it counted its own decisions): every
     * request between two reports goes to the servers that looked free at the last one. Kept to show why the
     * ledger is there. Not in the paper.
     */
    public static Policy createWithStaleMapping(PolicyContext context) {
        return new ThetaPolicy(context.nona().solve(context.workload()), context.random(),
                new UnderTargetMapping(UnderTargetMapping.DEFAULT_TARGET, TELEMETRY_SECONDS));
    }

    /** How often the servers report telemetry (the demo's agents: once a second). */
    static final double TELEMETRY_SECONDS = 1.0;
}
