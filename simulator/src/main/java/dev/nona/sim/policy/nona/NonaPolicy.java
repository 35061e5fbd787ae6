package dev.nona.sim.policy.nona;

import dev.nona.sim.policy.Policy;
import dev.nona.sim.policy.PolicyContext;
import dev.nona.sim.policy.table.ServerMapping;
import dev.nona.sim.policy.table.TablePolicy;

/**
 * Nona: samples the table that Nona's optimiser solved for the rates being simulated (the offline phase runs
 * once per load point, before the run). Based on Nona (CloudNet'24), Sections III and IV-A.
 */
public final class NonaPolicy {
    private NonaPolicy() {
    }

    public static Policy create(PolicyContext context) {
        return new TablePolicy(context.nona().solve(context.workload()), context.random());
    }

    /**
     * Nona's table with live server mapping: the triplets come from the table, the servers from the queues (the
     * first root to the shortest queue, other parts by power of two choices), as the controller maps parts to
     * servers (docs/design.md, "Placement"). Not in the paper.
     */
    public static Policy createWithLiveMapping(PolicyContext context) {
        return new TablePolicy(context.nona().solve(context.workload()), context.random(), ServerMapping.LIVE_QUEUES);
    }

    /**
     * Nona as the controller deploys it, with its defaults: the controller's own placement code
     * ({@link ControllerPolicy}: policy-model's {@code ControllerPlacement} and {@code LiveServers}, as the Flink
     * placement operator runs them) over what telemetry reports once a second plus the controller's ledger of its own
     * requests since. Not in the paper.
     */
    public static Policy createWithControllerMapping(PolicyContext context) {
        return controller(context, TELEMETRY_SECONDS, 1, true);
    }

    /**
     * As {@link #createWithControllerMapping} with the placement operator at parallelism 2: two ledgers, each job
     * placed by one of them, so each sees about half of the jobs between two reports; each prefers its share of the
     * servers, as the controller's subtasks do. Not in the paper.
     */
    public static Policy createWithControllerMappingTwoSubtasks(PolicyContext context) {
        return controller(context, TELEMETRY_SECONDS, 2, true);
    }

    /**
     * The controller's rule without its ledger (as the controller was before it counted its own decisions): every
     * request between two reports goes by the servers' load at the last one. Kept to show why the ledger is there.
     * Not in the paper.
     */
    public static Policy createWithStaleMapping(PolicyContext context) {
        return controller(context, TELEMETRY_SECONDS, 1, false);
    }

    /**
     * Today's controller on a heterogeneous cluster ({@code nona-controller-uniform}): the controller's placement with
     * one mean speed for every server, memory only as a filter, loads not weighed; the "before" of the comparison
     * with {@code nona-controller}. On the paper's cluster it places exactly as {@code nona-controller}. Not in the
     * paper.
     */
    public static Policy createUniformController(PolicyContext context) {
        return new ControllerPolicy(context.workload().classes(), context.controller().solve(context.workload()),
                context.workload().cluster().opsPerSecond(), TELEMETRY_SECONDS, 1, true,
                ControllerHeterogeneity.of(context.workload(), true), context.random());
    }

    /**
     * The controller's placement with telemetry every {@code reportSeconds} (0: exact, before every job), at
     * {@code placers} placement subtasks, with or without its ledger of its own requests.
     */
    public static Policy controller(PolicyContext context, double reportSeconds, int placers, boolean countOwn) {
        return new ControllerPolicy(context.workload().classes(), context.controller().solve(context.workload()),
                context.workload().cluster().opsPerSecond(), reportSeconds, placers, countOwn,
                ControllerHeterogeneity.of(context.workload(), false), context.random());
    }

    /** How often the servers report telemetry (the demo's agents: once a second). */
    static final double TELEMETRY_SECONDS = 1.0;
}
