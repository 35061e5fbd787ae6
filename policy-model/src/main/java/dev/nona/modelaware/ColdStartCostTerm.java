package dev.nona.modelaware;

import dev.nona.check.Checks;
import dev.nona.dag.ContractedNode;
import dev.nona.optimize.JobClass;
import dev.nona.optimize.NonaProblem;
import dev.nona.workload.ColdStart;
import dev.nona.workload.ModelSpec;
import dev.nona.workload.Workload;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
