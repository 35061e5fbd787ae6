package dev.nona.modelaware;

import dev.nona.check.Checks;
import dev.nona.dag.ContractedNode;
import dev.nona.optimize.JobClass;
import dev.nona.optimize.NonaProblem;
import dev.nona.optimize.PartColdProbability;
import dev.nona.optimize.SteadyStateCache;
import dev.nona.workload.ColdStart;
import dev.nona.workload.ModelSpec;
import dev.nona.workload.Workload;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntBiFunction;

/**
 * Adds an expected cold-start term to Nona's cost model, so the optimiser weighs link congestion against
 * loading models. Our extension, not in either paper; leave it out (as {@code --paper} does) to get Nona's
 * formulation exactly.
 *
 * <p>For a model with expected cold-start time $e = p_{cold} T_{CS}$ per request ({@link ExpectedColdStart}),
 * each real task $t$ of the job carries the share of $e$ proportional to its compute, so its service time becomes
 * $p^t/\nu \cdot (1 + e \nu / P)$ with $P = \sum_t p^t$. A part's expected load time is therefore proportional to
 * the part of the model it runs (the thesis measures load time growing linearly with model size, Section 3.3;
 * ops stand in for weights), parts on distinct servers load in parallel, and a job on one server pays exactly
 * $e$. With server queueing on, loading also loads the servers, as loading occupies a server in the thesis.
 * Virtual nodes and edges are unchanged. Pure and thread-safe.
 *
 * <p><b>Per part, from the cache state</b> ({@link #withCacheState}). When the cluster gives {@code coldStart}
 * ({@link dev.nona.workload.ColdStartCost}, $T_{CS}(b) = F + b/B$), the optimiser charges every part of a choice its
 * own expected cold start $P_i\,T_{CS}(b_i)$ before its first task, $b_i$ its footprint: the load time now grows with
 * the part's bytes, not its ops. $P_i$, the probability that the part is not loaded on the server it lands on, comes
 * from how many servers hold it: $w$ servers holding it give the warm-first fluid estimate
 * {@link ExpectedColdStart#probabilityWarmFirst} ($1$ when $w = 0$, else $\max(0, 1 - wk/L)$ with $L = \beta_j s$
 * the part's requests in flight, $s$ its compute time, $k$ the target of ongoing requests per server). Without a cache
 * state the optimiser uses the steady-state estimate of {@link dev.nona.optimize.SteadyStateCache}.
 */
public final class ColdStartCostTerm {
    private ColdStartCostTerm() {}

    /**
     * @param problem                  the problem to extend
     * @param expectedColdStartSeconds $e$ per model name; models not listed are unchanged
     * @return the problem with the term added to the listed models' tasks
     */
    public static NonaProblem apply(NonaProblem problem, Map<String, Double> expectedColdStartSeconds) {
        expectedColdStartSeconds.forEach((model, e) -> Checks.nonNegative(e, "model '" + model + "': expected cold start"));
        List<JobClass> jobs = problem.jobs().stream()
                .map(j -> expectedColdStartSeconds.containsKey(j.name())
                        ? withTerm(j, expectedColdStartSeconds.get(j.name()), problem.cluster().opsPerSecond())
                        : j)
                .toList();
        return problem.withJobs(jobs);
    }

    /**
     * $e = p_{cold} T_{CS}$ for every model of the workload that gives {@code coldStart} figures, with $p_{cold}$
     * from {@link ExpectedColdStart#probabilityWarmFirst} (its $\lambda$ the model's rate, its $s$ the model's total
     * compute time $P/\nu$, the target {@code targetOngoingRequests}). Models without figures get no term.
     */
    public static Map<String, Double> expectedSeconds(Workload workload, NonaProblem problem, int targetOngoingRequests) {
        Map<String, Double> out = new LinkedHashMap<>();
        double nu = problem.cluster().opsPerSecond();
        for (ModelSpec m : workload.models()) {
            ColdStart cs = m.coldStart();
            JobClass job = problem.jobs().stream().filter(j -> j.name().equals(m.name())).findFirst().orElse(null);
            if (cs == null || job == null) {
                continue;
            }
            double serviceSeconds = job.nodes().values().stream().mapToDouble(ContractedNode::ops).sum() / nu;
            double p = ExpectedColdStart.probabilityWarmFirst(Math.min(cs.warmServers(), problem.cluster().servers()),
                    targetOngoingRequests, m.ratePerSecond(), serviceSeconds);
            out.put(m.name(), ExpectedColdStart.seconds(p, cs.seconds()));
        }
        return out;
    }

    /**
     * The problem with the cache state's per-part cold probability (class comment): {@code serversHolding} gives, for
     * a model and a part's original task ids, the number of servers that hold the part, or a negative number when
     * unknown (then the steady-state estimate). Changes nothing unless the cluster gives {@code coldStart}.
     *
     * @param target $k$, the target of ongoing requests per server, $\ge 1$
     */
    public static NonaProblem withCacheState(NonaProblem problem, ToIntBiFunction<String, List<String>> serversHolding,
                                             int target) {
        Checks.positive(target, "target");
        if (problem.cluster().coldStart() == null) {
            return problem;
        }
        double steady = SteadyStateCache.coldProbability(problem);
        int servers = problem.cluster().servers();
        PartColdProbability p = (job, tasks, bytes, seconds) -> {
            int w = serversHolding.applyAsInt(job.name(), tasks);
            return w < 0 ? steady
                    : ExpectedColdStart.probabilityWarmFirst(Math.min(w, servers), target, job.ratePerSecond(), seconds);
        };
        return problem.withColdProbability(p);
    }

    static JobClass withTerm(JobClass job, double e, double nu) {
        double total = job.nodes().values().stream().filter(n -> !n.virtual()).mapToDouble(ContractedNode::ops).sum();
        if (total <= 0 || e == 0) {
            return job;
        }
        double factor = 1 + e * nu / total;
        Map<String, ContractedNode> nodes = new LinkedHashMap<>();
        job.nodes().forEach((id, n) -> nodes.put(id, n.virtual() ? n
                : new ContractedNode(n.id(), n.ops() * factor, n.originalTasks(), false)));
        return job.withNodes(nodes);
    }
}
