package dev.nona.optimize;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Which formulation the optimiser minimises. Three are named: {@link #PAPER}, {@link #DEFAULT} (server queueing
 * under a mapping drawn independently of the queues) and {@link #CONTROLLER_MAPPING} (server queueing under the
 * controller's least-work-left mapping, with the fork&ndash;join wait of split subgraphs).
 *
 * @param serverQueueing        add the servers' waits ({@link dev.nona.queueing.ServerQueue#waits}): an entry wait $W$
 *                              where a task joins a server from outside (a job's first task, every remote part's
 *                              first task, a task or sink fed over the link) and a re-entry wait $f p/\nu$ for
 *                              each further task on the same server; an extension beyond the paper; background
 *                              compute jobs only matter with it on
 * @param backgroundInObjective count background transfers (their link delay $\phi + S$, weighted by their rate) in
 *                              the objective, as the paper's evaluation does ("its objective function is an
 *                              average over the JCT of all jobs, including background", Section IV-E)
 * @param controllerMapping     with {@code serverQueueing}: model the controller's mapping instead of a uniform one
 *                              ({@link dev.nona.queueing.PooledServers}): every request waits once, in a pooled
 *                              M/G/N queue, and every part sent to another server waits again, independently, so a
 *                              split subgraph pays the expected maximum of its parts' times (fork&ndash;join)
 * @param uniformSpeed          with {@code controllerMapping}: every part computes at the cluster's mean speed
 *                              $\bar\nu$ ({@code Cluster.opsPerSecond()}; memory still decides which choices fit);
 *                              false: at its model's speed where the controller's least-expected-finish rule sends
 *                              its requests ({@link dev.nona.queueing.LeastExpectedFinish}; the request waits that
 *                              class's queue), or for a model no class holds whole at the effective speed of the
 *                              classes that can hold the part ({@link dev.nona.queueing.FastestIdleFirst}). Without the controller's mapping every
 *                              part computes at $\bar\nu$. Left out of JSON when false (tables written before it read
 *                              the same)
 */
public record CostModel(boolean serverQueueing, boolean backgroundInObjective, boolean controllerMapping,
                        @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean uniformSpeed) {
    /** The paper's formulation exactly: Eqs. (I)&ndash;(XII), background jobs counted in the objective. */
    public static final CostModel PAPER = new CostModel(false, true);
    /** The paper's formulation plus queueing at uniformly drawn servers (entry and re-entry waits). */
    public static final CostModel DEFAULT = new CostModel(true, true);
    /** The paper's formulation plus queueing under the controller's mapping (pooled wait, fork&ndash;join). */
    public static final CostModel CONTROLLER_MAPPING = new CostModel(true, true, true);
    /**
     * The controller's mapping with one mean speed $\bar\nu$ for every server (memory only as a filter on which
     * choices fit): what the {@code nona-controller-uniform} policy solves.
     */
    public static final CostModel CONTROLLER_MAPPING_UNIFORM = new CostModel(true, true, true, true);

    /** The names {@link #named} accepts, in the order the CLI lists them. */
    public static final String NAMES = "paper, server-queueing or controller-mapping";

    public CostModel {
        if (controllerMapping && !serverQueueing) {
            throw new IllegalArgumentException("the controller mapping is a server-queueing model: serverQueueing must be true");
        }
        if (uniformSpeed && !controllerMapping) {
            throw new IllegalArgumentException("uniformSpeed switches the controller mapping's per-class speeds off: controllerMapping must be true");
        }
    }

    /** Per-class speeds under the controller's mapping. */
    public CostModel(boolean serverQueueing, boolean backgroundInObjective, boolean controllerMapping) {
        this(serverQueueing, backgroundInObjective, controllerMapping, false);
    }

    /** Whether parts compute at their server classes' effective speeds (the controller's mapping, not uniform). */
    public boolean perClassSpeeds() {
        return controllerMapping && !uniformSpeed;
    }

    /** Without the controller's mapping (servers drawn independently of their queues, or no server waits). */
    public CostModel(boolean serverQueueing, boolean backgroundInObjective) {
        this(serverQueueing, backgroundInObjective, false);
    }

    /**
     * {@code paper}, {@code server-queueing} or {@code controller-mapping} (background counted in every one); also
     * {@code controller-mapping-uniform} ({@link #CONTROLLER_MAPPING_UNIFORM}), the uniform controller's.
     */
    public static CostModel named(String name) {
        return switch (name) {
            case "paper" -> PAPER;
            case "server-queueing" -> DEFAULT;
            case "controller-mapping" -> CONTROLLER_MAPPING;
            case "controller-mapping-uniform" -> CONTROLLER_MAPPING_UNIFORM;
            default -> throw new IllegalArgumentException("cost model (" + name + ") must be " + NAMES);
        };
    }

    /** The name {@link #named} reads: {@code paper}, {@code server-queueing}, {@code controller-mapping} or {@code controller-mapping-uniform}. */
    public String label() {
        if (controllerMapping) {
            return uniformSpeed ? "controller-mapping-uniform" : "controller-mapping";
        }
        return serverQueueing ? "server-queueing" : "paper";
    }
}
