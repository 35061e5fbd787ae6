package dev.nona.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.dag.DagAnalysis;
import dev.nona.dag.Edge;
import dev.nona.dag.ModelDag;
import dev.nona.dag.Task;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import dev.nona.zoo.ModelZoo;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Compiling a problem: shared choice costs are the costs each subgraph would compile on its own. */
final class CompiledProblemTest {
    private static final Cluster CLUSTER = new Cluster(64, 1.0e13, 1.0e10);

    @Test
    void sharedCosts_equalTheCostsEverySubgraphCompilesAlone_inEveryCostModel() {
        for (CostModel model : List.of(CostModel.PAPER, CostModel.DEFAULT, CostModel.CONTROLLER_MAPPING)) {
            List<JobClass> jobs = new ArrayList<>();
            for (String name : ModelZoo.names()) {
                ModelDag dag = ModelZoo.load(name);
                jobs.add(Problems.jobClass(name, 2, DagAnalysis.analyse(dag)));
                jobs.add(Problems.jobClass(name + "-copy", 2, DagAnalysis.analyse(dag)));
                jobs.add(Problems.jobClass(name + "-renamed", 3, DagAnalysis.analyse(renamed(dag))));
            }
            NonaProblem problem = new NonaProblem(jobs, CLUSTER, Background.NONE, model);
            CompiledProblem cp = new CompiledProblem(problem);

            int compared = 0;
            for (int j = 0; j < jobs.size(); j++) {
                JobClass job = jobs.get(j);
                for (int k = 0; k < job.subgraphs().size(); k++) {
                    int s = cp.firstSubgraph[j] + k;
                    SubgraphShape shape = new SubgraphShape(job.subgraphs().get(k).subgraph(), job.nodes(),
                            CLUSTER.opsPerSecond(), CLUSTER.linkBitsPerSecond());
                    for (int c = cp.first[s]; c < cp.first[s + 1]; c++) {
                        ChoiceCost alone = ChoiceCost.compile(shape, cp.admissible.get(s).get(c - cp.first[s]), cp.waitsOf(s),
                                cp.forkWaitOf(s));
                        assertThat(cp.cost[c].sameCost(alone)).as("%s: job %s subgraph %d choice %d", model.label(),
                                job.name(), k, c - cp.first[s]).isTrue();
                        compared++;
                    }
                }
            }
            assertThat(compared).isEqualTo(cp.choices());
            // a copy of a model (same ids, same numbers) shares the compiled costs of the original
            int shared = 0;
            for (int j = 0; j < jobs.size(); j += 3) {
                for (int k = 0; k < jobs.get(j).subgraphs().size(); k++) {
                    int original = cp.first[cp.firstSubgraph[j] + k];
                    assertThat(cp.cost[cp.first[cp.firstSubgraph[j + 1] + k]]).isSameAs(cp.cost[original]);
                    shared++;
                }
            }
            assertThat(shared).isPositive();
        }
    }

    /** The same DAG with every task id prefixed (the same numbers under other names). */
    private static ModelDag renamed(ModelDag dag) {
        return new ModelDag(dag.name() + "-renamed",
                dag.tasks().stream().map(t -> new Task("r-" + t.id(), t.ops())).toList(),
                dag.edges().stream().map(e -> new Edge("r-" + e.from(), "r-" + e.to(), e.bytes())).toList());
    }
}
