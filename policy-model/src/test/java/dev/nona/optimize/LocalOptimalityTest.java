package dev.nona.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.dag.ContractedNode;
import dev.nona.dag.DagAnalysis;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import dev.nona.zoo.ModelZoo;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * On real models, where brute force is out of reach: no move of probability mass from a chosen triplet to any
 * other triplet of the same subgraph improves the objective (the returned theta is a local optimum).
 */
final class LocalOptimalityTest {

    @ParameterizedTest
    @CsvSource({"0.3, 0.1, server-queueing", "0.7, 0.3, server-queueing", "0.7, 0.3, paper", "0.5, 0.8, paper",
        "0.3, 0.1, controller-mapping", "0.9, 0.3, controller-mapping"})
    void zooModels_noSingleSubgraphMoveImproves(double load, double rhoBackground, String costModel) {
        NonaProblem p = problem(load, rhoBackground, CostModel.named(costModel));
        Solution s = NonaOptimizer.solve(p);
        assertThat(s.feasible()).isTrue();

        CompiledProblem cp = new CompiledProblem(p);
        double[] theta = flat(cp, s);
        double base = cp.evaluate(theta).objective();
        assertThat(base).isCloseTo(s.objective(), Assertions.within(1e-9 * base));
        for (double step : new double[] {1e-3, 1.0}) {
            for (int sg = 0; sg < cp.subgraphs; sg++) {
                for (int from = cp.first[sg]; from < cp.first[sg + 1]; from++) {
                    if (theta[from] <= 0) {
                        continue;
                    }
                    double moved = Math.min(step, theta[from]);
                    for (int to = cp.first[sg]; to < cp.first[sg + 1]; to++) {
                        if (to == from) {
                            continue;
                        }
                        theta[from] -= moved;
                        theta[to] += moved;
                        double f = cp.evaluate(theta).objective();
                        theta[to] -= moved;
                        theta[from] += moved;
                        assertThat(f).as("moving %s from choice %d to %d of subgraph %d", moved, from, to, sg)
                                .isGreaterThanOrEqualTo(base * (1 - 1e-9));
                    }
                }
            }
        }
    }

    private static double[] flat(CompiledProblem cp, Solution s) {
        double[] theta = new double[cp.choices()];
        int sg = 0;
        for (Solution.JobResult j : s.jobs()) {
            for (Solution.SubgraphResult r : j.subgraphs()) {
                for (int i = 0; i < r.theta().size(); i++) {
                    theta[cp.first[sg] + i] = r.theta().get(i);
                }
                sg++;
            }
        }
        return theta;
    }

    /** ResNet18, DenseNet121 and GPT-2 on 16 servers of 1e11 ops/s and a 10 Gbit/s link. */
    static NonaProblem problem(double load, double rhoBackground, CostModel cm) {
        double nu = 1e11;
        double mu = 1e10;
        int servers = 16;
        List<JobClass> jobs = new ArrayList<>();
        List<String> names = List.of("resnet18", "densenet121", "gpt2");
        for (String name : names) {
            JobClass j = Problems.jobClass(name, 1, DagAnalysis.analyse(ModelZoo.load(name)));
            double ops = j.nodes().values().stream().filter(n -> !n.virtual()).mapToDouble(ContractedNode::ops).sum();
            jobs.add(j.withRate(load * servers * nu / (names.size() * ops)));
        }
        Background bg = new Background(Background.Comm.ofLoad(rhoBackground, 4e7, mu), null);
        return new NonaProblem(jobs, new Cluster(servers, nu, mu), bg, cm);
    }
}
