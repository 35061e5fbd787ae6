package dev.nona.optimize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.placement.PlacementSampler;
import dev.nona.placement.PlacementTable;
import dev.nona.placement.PlacementTables;
import dev.nona.placement.UniformServerPolicy;
import dev.nona.workload.Workload;
import dev.nona.workload.WorkloadException;
import dev.nona.workload.WorkloadReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** From a workload file with real DAGs to a solved table and placements. */
final class ProblemsTest {

    private static Path sharedDags() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared/dags/pipedream");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("shared/dags/pipedream not found above " + Path.of("").toAbsolutePath());
    }

    @Test
    void fromWorkload_zooAndPipedream_solvesAndPlacesEveryOriginalTask() {
        Workload w = WorkloadReader.parse("""
                {"cluster": {"servers": 80, "opsPerSecond": 1.0e13, "linkBitsPerSecond": 1.0e10},
                 "models": [{"name": "zoo-resnet18", "dag": {"zoo": "resnet18"}, "ratePerSecond": 200},
                            {"name": "pd-resnet18", "dag": {"pipedream": "resnet18.txt", "batchSize": 64}, "ratePerSecond": 50}],
                 "background": {"comm": {"ratePerSecond": 20, "bytes": 1.0e7}}}
                """, false, sharedDags());

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
    void fromWorkload_unknownPipedreamOption_namesIt() {
        Workload w = WorkloadReader.parse("""
                {"cluster": {"servers": 8, "opsPerSecond": 1.0e13, "linkBitsPerSecond": 1.0e10},
                 "models": [{"name": "pd", "dag": {"pipedream": "resnet18.txt", "batch": 64}, "ratePerSecond": 50}]}
                """, false, sharedDags());

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
}
