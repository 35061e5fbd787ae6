package dev.nona.optimize;

import dev.nona.dag.ContractedNode;
import dev.nona.workload.ServerClass;

/**
 * The steady-state estimate of how often a part is cold, when no cache state is given (beyond both papers; a fluid
 * approximation). In steady state the caches hold what the load keeps using: model $j$ has $L_j = \beta_j S_j$
 * requests in flight (Little's law, $S_j = \sum_t p^t/\bar\nu$ its work), each on a server that must hold the part it
 * runs, so the load wants its $B_j$ bytes of weights on $r_j = \max(1, L_j)$ servers: a demand of
 * $D = \sum_j r_j B_j$ bytes. The servers supply $\sum_c N_c M_c$. When the supply covers the demand every part
 * stays warm wherever the mapping sends it; otherwise the fraction that does not fit goes cold:
 * $$P_{cold} = \max\Big(0,\ 1 - \frac{\sum_c N_c M_c}{\sum_j \max(1, \beta_j S_j)\, B_j}\Big),$$
 * the same for every part. 0 when any class's memory is unbounded or no model has a size. Pure and thread-safe.
 */
public final class SteadyStateCache {
    private SteadyStateCache() {}

    /**
     * The probability that a <em>split</em> part is cold where the controller's mapping sends it: $P_{split}$, the
     * share of the catalog's weights that the server it lands on cannot keep. The controller's telemetry names the
     * models a server holds, not their parts, so for a part sent to a server other than its request's own (a part
     * beyond the root's, $i \ne k$) the pick cannot aim at a server that holds that part: at low load, where every
     * server is idle, it lands on class $c$ in proportion to $N_c$. A server of class $c$ under least-recently-used
     * eviction keeps at most $M_c$ of the catalog's $\sum_j B_j$ bytes, so the part is absent with probability
     * $\max(0, 1 - M_c / \sum_j B_j)$:
     * $$P_{split} = \sum_c \frac{N_c}{N} \max\Big(0,\ 1 - \frac{M_c}{\sum_j B_j}\Big).$$
     * 0 when every class holds the whole catalog (unbounded memory included) or no model has a size. The measured
     * case: {@code examples/memory-bound.json} at load 0.1 split gpt2 into parts and took 653 cold starts per 1,000
     * jobs (whole-job policies 3&ndash;8); $P_{split} = 0.55 \cdot (1 - 0.537/1.374) = 0.335$ there.
     */
    public static double splitColdProbability(NonaProblem problem) {
        double catalog = 0;
        for (JobClass j : problem.jobs()) {
            catalog += j.totalBytes();
        }
        if (!(catalog > 0)) {
            return 0;
        }
        double servers = problem.cluster().servers();
        double p = 0;
        for (ServerClass c : problem.cluster().classes()) {
            p += c.count() / servers * Math.max(0, 1 - c.memoryBytes() / catalog);
        }
        return p;
    }

    /** $P_{cold}$ of the class comment for {@code problem}'s models, rates and cluster. */
    public static double coldProbability(NonaProblem problem) {
        double supply = 0;
        for (ServerClass c : problem.cluster().classes()) {
            supply += c.count() * c.memoryBytes();
        }
        double nu = problem.cluster().opsPerSecond();
        double demand = 0;
        for (JobClass j : problem.jobs()) {
            double bytes = j.totalBytes();
            if (bytes > 0) {
                double work = j.nodes().values().stream().filter(n -> !n.virtual()).mapToDouble(ContractedNode::ops).sum() / nu;
                demand += Math.max(1, j.ratePerSecond() * work) * bytes;
            }
        }
        if (demand == 0 || Double.isInfinite(supply)) {
            return 0;
        }
        return Math.max(0, 1 - supply / demand);
    }
}
