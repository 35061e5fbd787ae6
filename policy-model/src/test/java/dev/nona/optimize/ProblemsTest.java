package dev.nona.optimize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.dag.DagAnalysis;
import dev.nona.dag.Edge;
import dev.nona.dag.ModelDag;
import dev.nona.dag.SharedDags;
import dev.nona.dag.Subgraph;
import dev.nona.dag.SubgraphTriplets;
import dev.nona.dag.Task;
import dev.nona.dag.Triplet;
import dev.nona.dag.TripletFamily;
import dev.nona.placement.PlacementSampler;
import dev.nona.placement.PlacementTable;
import dev.nona.placement.PlacementTables;
import dev.nona.placement.UniformServerPolicy;
import dev.nona.workload.Workload;
import dev.nona.workload.WorkloadException;
import dev.nona.workload.WorkloadReader;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** From a workload file with real DAGs to a solved table and placements. */
final class ProblemsTest {

    @Test
    void fromWorkload_zooAndPipedream_solvesAndPlacesEveryOriginalTask() {
        Path graph = SharedDags.pipedream("resnet18");
        Workload w = WorkloadReader.parse("""
                {"cluster": {"servers": 80, "opsPerSecond": 1.0e13, "linkBitsPerSecond": 1.0e10},
                 "models": [{"name": "zoo-resnet18", "dag": {"zoo": "resnet18"}, "ratePerSecond": 200},
                            {"name": "pd-resnet18", "dag": {"pipedream": "%s", "batchSize": 64}, "ratePerSecond": 50}],
                 "background": {"comm": {"ratePerSecond": 20, "bytes": 1.0e7}}}
                """.formatted(graph.getFileName()), false, graph.getParent());

        NonaProblem p = Problems.fromWorkload(w, CostModel.DEFAULT);
        Solution s = NonaOptimizer.solve(p);
        PlacementTable table = PlacementTables.from(p, s, 1, 0);

        assertThat(p.jobs()).extracting(JobClass::name).containsExactly("zoo-resnet18", "pd-resnet18");
        assertThat(s.feasible()).isTrue();
        assertThat(table.model("pd-resnet18").tasks()).hasSize(71); // the PipeDream graph has 71 operators
        PlacementSampler sampler = new PlacementSampler(table);
        int m = sampler.modelIndex("pd-resnet18");
        int[] out = new int[71];
        Arrays.fill(out, -1);
        sampler.place(m, UniformServerPolicy.ofRange(80), new SplittableRandom(1), out);
        assertThat(Arrays.stream(out).boxed().toList()).allMatch(server -> server >= 0 && server < 80);
    }

    @Test
    void fromWorkload_unknownPipedreamOption_namesIt(@TempDir Path dir) throws Exception {
        // a hand-written two-node graph in the profiler's format (not PipeDream data)
        Files.writeString(dir.resolve("g.txt"), profilerLine("node1", "Input0", 0.0) + profilerLine("node2", "Conv2d(3, 64)", 1.0)
                + "\tnode1 -- node2\n");
        Workload w = WorkloadReader.parse("""
                {"cluster": {"servers": 8, "opsPerSecond": 1.0e13, "linkBitsPerSecond": 1.0e10},
                 "models": [{"name": "pd", "dag": {"pipedream": "g.txt", "batch": 64}, "ratePerSecond": 50}]}
                """, false, dir);

        assertThatThrownBy(() -> Problems.fromWorkload(w, CostModel.DEFAULT))
                .isInstanceOf(WorkloadException.class)
                .hasMessageContaining("unknown pipedream option 'batch'");
    }

    @Test
    void fromWorkload_backgroundOnly_saysTheOptimiserNeedsAModel() {
        Workload w = WorkloadReader.parse("""
                {"cluster": {"servers": 1, "opsPerSecond": 1.0e11, "linkBitsPerSecond": 1.0e10}, "models": [],
                 "background": {"comm": {"ratePerSecond": 100, "bytes": 1.0e7}}}
                """, false, null);

        assertThatThrownBy(() -> Problems.fromWorkload(w, CostModel.DEFAULT))
                .isInstanceOf(WorkloadException.class)
                .hasMessage("models: the workload lists none (background only); the optimiser needs at least one model");
    }

    /** One node line in the profiler's format (the attribute is spelled out in pieces, as in the importer's tests). */
    private static String profilerLine(String id, String op, double forwardMs) {
        return id + " -- " + op + " -- " + "forward_compute_time" + "=" + forwardMs
                + ", backward_compute_time=0.0, activation_size=4.0, parameter_size=0.0\n";
    }

    @Test
    void jobClass_subgraphWithoutIntermediates_hasTheOneTripletWithNoPart() {
        DagAnalysis diamond = DagAnalysis.analyse(new ModelDag("d",
                List.of(new Task("a", 1), new Task("b", 1), new Task("c", 1), new Task("z", 1)),
                List.of(new Edge("a", "b", 1), new Edge("a", "c", 1), new Edge("b", "z", 1), new Edge("c", "z", 1))));
        Subgraph direct = new Subgraph("a", "z", List.of(), List.of(new Edge("a", "z", 1)));
        DagAnalysis withEmpty = new DagAnalysis(diamond.dag(), diamond.contracted(), diamond.decomposition(),
                List.of(new SubgraphTriplets(direct, List.of(), BigInteger.ONE, TripletFamily.EXACT, 0)),
                diamond.bound());

        JobClass job = Problems.jobClass("d", 2, withEmpty);

        assertThat(job.subgraphs()).singleElement().satisfies(sc -> {
            assertThat(sc.triplets()).containsExactly(new Triplet(List.of(), 0, 0));
            assertThat(SubgraphChoices.serversNeeded(sc.triplets().get(0))).isEqualTo(1);
        });
        assertThat(Problems.jobClass("d", 2, diamond).subgraphs().get(0).triplets())
                .isEqualTo(diamond.triplets().get(0).triplets());
    }
}
