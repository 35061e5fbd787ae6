package dev.nona.jmh.optimize;

import dev.nona.dag.ContractedNode;
import dev.nona.dag.DagAnalysis;
import dev.nona.optimize.CostModel;
import dev.nona.optimize.JobClass;
import dev.nona.optimize.NonaOptimizer;
import dev.nona.optimize.NonaProblem;
import dev.nona.optimize.Problems;
import dev.nona.optimize.Solution;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import dev.nona.zoo.ModelZoo;
import java.util.ArrayList;
import java.util.List;

/**
 * The benchmark workload: the five zoo models (AlexNet, VGG16, ResNet18, DenseNet121, GPT-2) on {@code servers}
 * servers of 1e11 ops/s and a 10 Gbit/s link (as the simulator's benchmark), each model taking an equal share of a
 * 70% compute load, and background jobs at 1/100 of the inference rate (the paper's 100:1): transfers of 40 MB and
 * compute jobs of 1e9 ops.
 */
public final class ZooProblem {
    static final double OPS_PER_SECOND = 1e11;
    static final double LINK_BITS_PER_SECOND = 1e10;
    static final double LOAD = 0.7;

    private ZooProblem() {}

    public static NonaProblem build(int servers, CostModel costModel) {
        List<JobClass> jobs = new ArrayList<>();
        List<String> names = ModelZoo.names();
        double total = 0;
        for (String name : names) {
            JobClass j = Problems.jobClass(name, 1, DagAnalysis.analyse(ModelZoo.load(name)));
            double ops = j.nodes().values().stream().filter(n -> !n.virtual()).mapToDouble(ContractedNode::ops).sum();
            double rate = LOAD * servers * OPS_PER_SECOND / (names.size() * ops);
            jobs.add(j.withRate(rate));
            total += rate;
        }
        Background bg = new Background(new Background.Comm(total / 100, 4e7), new Background.Compute(total / 100, 1e9));
        return new NonaProblem(jobs, new Cluster(servers, OPS_PER_SECOND, LINK_BITS_PER_SECOND), bg, costModel);
    }

    /**
     * The problem itself, once it has been solved and found feasible: a benchmark's set-up, so that it never times
     * an infeasible problem.
     *
     * @throws IllegalStateException naming the solver's diagnostic if it is infeasible
     */
    public static NonaProblem requireFeasible(NonaProblem problem) {
        Solution s = NonaOptimizer.solve(problem);
        if (!s.feasible()) {
            throw new IllegalStateException("benchmark problem is infeasible: " + s.diagnostic());
        }
        return problem;
    }

    /** The problem built for {@code rateServers} servers, solved on {@code servers} servers (rates unchanged). */
    public static NonaProblem withRatesOf(int rateServers, int servers, CostModel costModel) {
        return build(rateServers, costModel).withServers(servers);
    }
}
