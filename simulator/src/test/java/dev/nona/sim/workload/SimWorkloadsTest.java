package dev.nona.sim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.nona.dag.Task;
import dev.nona.optimize.CostModel;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.SimResult;
import dev.nona.sim.experiment.Scenario;
import dev.nona.sim.policy.PolicyRegistry;
import dev.nona.sim.policy.expert.ExpertSearch;
import dev.nona.sim.policy.table.SubgraphTable;
import dev.nona.sim.policy.table.SimTable;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import dev.nona.workload.DagSource;
import dev.nona.workload.DagSources;
import dev.nona.workload.ColdStartCost;
import dev.nona.workload.ModelSpec;
import dev.nona.workload.ServerClass;
import dev.nona.workload.WorkloadException;
import dev.nona.workload.Workload;
import dev.nona.zoo.ModelZoo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SimWorkloadsTest {
    private static final Workload RESNET = new Workload(new Cluster(80, 1e11, 1e10),
            List.of(new ModelSpec("resnet18", new DagSource.Zoo("resnet18"), 100)),
            new Background(new Background.Comm(1, 1e6), new Background.Compute(1, 1e9)));

    @Test
    void from_resnet18_contractedTasksKeepEveryOpAndThreeForkJoins() {
        SimWorkloads.Loaded loaded = SimWorkloads.from(RESNET);
        SimJobClass c = loaded.sim().classes().get(0);
        double ops = ModelZoo.load("resnet18").tasks().stream().mapToDouble(Task::ops).sum();
        assertThat(c.totalOps()).isCloseTo(ops, within(1e-6 * ops));
        assertThat(c.subgraphs()).hasSize(3).allSatisfy(g -> assertThat(g.size()).isEqualTo(2));
        assertThat(loaded.sim().classes()).extracting(SimJobClass::name)
                .containsExactly("resnet18", SimWorkloads.BACKGROUND_COMPUTE, SimWorkloads.BACKGROUND_COMM);
        assertThat(loaded.sim().classes().get(2).commBits()).isEqualTo(8e6);
    }

    @Test
    void nonaSolver_resnet18_givesOneDistributionPerSubgraphAndAFinitePrediction() {
        SimWorkloads.Loaded loaded = SimWorkloads.from(RESNET);
        SimWorkload w = loaded.sim().withLoad(0.5);
        SimTable t = new NonaSolver(loaded.analyses(), CostModel.PAPER).solve(w);
        assertThat(t.of(0)).hasSize(3);
        for (SubgraphTable st : t.of(0)) {
            double sum = 0;
            for (int i = 0; i < st.choices().size(); i++) {
                sum += st.probability(i);
            }
            assertThat(sum).isCloseTo(1, within(1e-9));
        }
        assertThat(t.predictedJctSeconds().get(0)).isFinite().isPositive();
        assertThat(t.of(1)).isEmpty();
    }

    @Test
    void from_pipedreamWithBatchSize_loadsTheDagAsTheOptimiserDoes(@TempDir Path dir) throws Exception {
        // 3.2 ms forward on the profiled GPU for a batch of 32: 3.2e-3 / 32 * 4e12 = 4.0e8 ops per request
        Path graph = Files.writeString(dir.resolve("m.txt"), String.join("\n",
                pipeDreamNode("node1", "Input0", 0.0, 6422528.0),
                pipeDreamNode("node2", "Conv2d(3, 64)", 3.2, 64.0),
                "\tnode1 -- node2"));
        DagSource source = new DagSource.PipeDream(graph, Map.of("batchSize", 32.0));
        Workload w = new Workload(new Cluster(2, 1e11, 1e10), List.of(new ModelSpec("m", source, 1)), Background.NONE);

        SimJobClass c = SimWorkloads.from(w).sim().classes().get(0);

        double optimisers = DagSources.load("m", source).tasks().stream().mapToDouble(Task::ops).sum();
        assertThat(c.totalOps()).isCloseTo(optimisers, within(1e-6 * optimisers)).isCloseTo(4.0e8, within(1.0));
    }

    @Test
    void from_aChainNoServerHoldsWhole_isCutIntoTasksThatFit_andTheControllerKeepsItsPartsWarm() {
        // VGG-16 (553 MB, a chain: one contracted node) on servers of 300 MB; ResNet-18 fits whole
        Cluster small = Cluster.ofClasses(List.of(new ServerClass("s", 16, 1e11, 300e6)), 1e10, new ColdStartCost(0.2, 2e9));
        Workload w = new Workload(small, List.of(new ModelSpec("vgg16", new DagSource.Zoo("vgg16"), 2, null, 553e6),
                new ModelSpec("resnet18", new DagSource.Zoo("resnet18"), 2, null, 47e6)), Background.NONE);

        SimWorkloads.Loaded loaded = SimWorkloads.from(w);

        SimJobClass vgg = loaded.sim().classes().get(0);
        assertThat(vgg.tasks()).isGreaterThan(3);
        for (int t = 0; t < vgg.tasks(); t++) {
            assertThat(vgg.taskBytes(t)).isLessThanOrEqualTo(300e6);
        }
        SimWorkload at = loaded.sim().withLoad(0.3);
        SimResult r = new Scenario(loaded, CostModel.DEFAULT, ExpertSearch.Settings.defaults(), m -> { })
                .run("nona-controller", at, 2_000, 1);
        assertThat(r.classes()).allSatisfy(c -> assertThat(c.jct().count()).as(c.name()).isPositive());
        // no report names the parts a server holds; the controller remembers where it sent each (LiveServers
        // .loadingPart) and keeps off a server where a part would evict the model's other part: 24 loads and no part
        // refused in this run, where a rule blind to the parts loads about one per VGG-16 request (1,262 loads, 1,103
        // parts refused for want of free memory: seed 1)
        long vggJobs = r.classes().stream().filter(c -> c.name().equals("vgg16")).findFirst().orElseThrow().jct().count();
        assertThat(r.coldStarts()).as("loads against %d VGG-16 requests", vggJobs).isLessThan(vggJobs / 10);
        assertThat(r.memoryViolations()).isZero();
    }

    @Test
    void from_aTaskNoServerHolds_isAnErrorNamingTheModelAndTheTask() {
        // by ops, VGG-16's largest task holds 66 MB of its 553; ResNet-18's, 3 MB of its 47
        Cluster small = Cluster.ofClasses(List.of(new ServerClass("s", 4, 1e11, 5e7)), 1e10, null);
        Workload w = new Workload(small, List.of(new ModelSpec("resnet18", new DagSource.Zoo("resnet18"), 2, null, 47e6),
                new ModelSpec("vgg16", new DagSource.Zoo("vgg16"), 2, null, 553e6)), Background.NONE);

        assertThatThrownBy(() -> SimWorkloads.from(w)).isInstanceOf(WorkloadException.class)
                .hasMessageContaining("models[1] 'vgg16': task '")
                .hasMessageContaining("more than every server's memory (largest 5.0E7 bytes)");
    }

    /**
     * ResNet-18 of 2.5 GB on one server of 2 GB: each task fits, so the workload loads, but a request needs its parts at
     * once and one server holds at most 2 GB of them. The optimiser finds the model unplaceable; the simulator's table
     * says so, naming the model and the reason, where it stopped with a NullPointerException on the table's missing
     * model.
     */
    @Test
    void nonaSolver_aModelNoGroupingOfWhichFitsTheCluster_isAnErrorNamingTheModel() {
        Cluster one = Cluster.ofClasses(List.of(new ServerClass("s", 1, 1e11, 2e9)), 1e10, null);
        Workload w = new Workload(one, List.of(new ModelSpec("resnet18", new DagSource.Zoo("resnet18"), 2, null, 2.5e9)),
                Background.NONE);
        SimWorkloads.Loaded loaded = SimWorkloads.from(w);

        assertThatThrownBy(() -> NonaSolver.of(loaded, CostModel.DEFAULT).solve(loaded.sim()))
                .isInstanceOf(WorkloadException.class)
                .hasMessageContaining("cannot place model 'resnet18': no grouping of a subgraph fits the servers' memory");
    }

    /** A hand-written node line in PipeDream's graph.txt format (not profiler data). */
    private static String pipeDreamNode(String id, String op, double forwardMs, double activationBytes) {
        return id + " -- " + op + " -- " + "forward_compute_time" + "=" + forwardMs + ", backward_compute_time=0.0, activation_size="
                + activationBytes + ", parameter_size=0.0";
    }

    /**
     * A background-only workload (no models, as issue 4 allows): every policy runs it, {@code jobs} counts the
     * background jobs, and Nona's table source has nothing to solve.
     */
    @Test
    void from_backgroundOnly_everyPolicyRunsAndMeasuresTheBackgroundJobs() {
        Workload w = new Workload(new Cluster(4, 1e11, 1e10), List.of(),
                new Background(new Background.Comm(20, 1e7), new Background.Compute(100, 1e9)));
        SimWorkloads.Loaded loaded = SimWorkloads.from(w);
        assertThat(loaded.sim().classes()).extracting(SimJobClass::name)
                .containsExactly(SimWorkloads.BACKGROUND_COMPUTE, SimWorkloads.BACKGROUND_COMM);
        assertThat(loaded.sim().hasModels()).isFalse();
        SimTable table = new NonaSolver(loaded.analyses(), CostModel.DEFAULT).solve(loaded.sim());
        assertThat(table.of(0)).isEmpty();
        assertThat(table.of(1)).isEmpty();

        Scenario scenario = new Scenario(loaded, CostModel.DEFAULT, ExpertSearch.Settings.defaults(), line -> { });
        for (String policy : PolicyRegistry.names()) {
            SimResult r = scenario.run(policy, loaded.sim(), 2_000, 1);
            assertThat(r.jobs()).as(policy).isEqualTo(2_000);
            assertThat(r.all().count()).as(policy).isEqualTo(2_000);
            assertThat(r.inference().count()).as(policy).isZero();
            assertThat(r.linkUtilization()).as(policy).isCloseTo(20 * 8e7 / 1e10, within(0.05));
        }
    }
}
