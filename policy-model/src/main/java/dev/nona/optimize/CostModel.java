package dev.nona.optimize;

/**
 * Which formulation the optimiser minimises.
 *
 * @param serverQueueing        add the servers' waits ({@link dev.nona.queueing.ServerQueue#waits}): an entry wait $W$
 *                              where a task joins a server from outside (a job's first task, every remote part's
 *                              first task, a task or sink fed over the link) and a re-entry wait $f p/\nu$ for
 *                              each further task on the same server; an extension beyond the paper; background
 *                              compute jobs only matter with it on
 * @param backgroundInObjective count background transfers (their link delay $\phi + S$, weighted by their rate) in
 *                              the objective, as the paper's evaluation does ("its objective function is an
 *                              average over the JCT of all jobs, including background", Section IV-E)
 */
public record CostModel(boolean serverQueueing, boolean backgroundInObjective) {
    /** The paper's formulation exactly: Eqs. (I)&ndash;(XII), background jobs counted in the objective. */
    public static final CostModel PAPER = new CostModel(false, true);
    /** The default: the paper's formulation plus queueing at the servers (entry and re-entry waits). */
    public static final CostModel DEFAULT = new CostModel(true, true);
}
