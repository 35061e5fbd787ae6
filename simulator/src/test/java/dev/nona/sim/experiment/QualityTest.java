package dev.nona.sim.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.optimize.CostModel;
import dev.nona.sim.policy.expert.ExpertSearch;
import dev.nona.sim.workload.SimWorkloads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The quality experiment on a tiny grid: two small workloads (one read per server, one over the cluster), two loads, one seed. */
final class QualityTest {

    @Test
    void selected_byName_inTheGivenOrder_unknownNameIsAnError() {
        assertThat(Quality.selected(null)).extracting(QualityWorkload::name)
                .containsExactly("zoo", "paper-regime", "pipedream-batch-bytes", "hetero", "memory-bound");
        assertThat(Quality.selected("memory-bound, hetero")).extracting(QualityWorkload::name).containsExactly("memory-bound", "hetero");
        assertThat(Quality.selected("hetero").get(0).policies()).contains("nona-controller-uniform", "least-expected-finish", "p2c")
                .doesNotContain("opportunistic");
        assertThat(Quality.selected("zoo").get(0).policies()).isEqualTo(Quality.POLICIES);
        assertThatThrownBy(() -> Quality.selected("hetero,mystery")).hasMessageContaining("'mystery'")
                .hasMessageContaining(Quality.SELECT);
    }

    private static final String SMALL = """
            {"cluster": {"servers": 8, "opsPerSecond": 1.0e11, "linkBitsPerSecond": 1.0e10},
             "models": [{"name": "alexnet", "dag": {"zoo": "alexnet"}, "ratePerSecond": 20},
                        {"name": "resnet18", "dag": {"zoo": "resnet18"}, "ratePerSecond": 20}],
             "background": {"comm": {"ratePerSecond": 0.5, "bytes": 4.0e7}, "compute": {"ratePerSecond": 0.5, "ops": 1.0e9}}}
            """;
    private static final double[] LOADS = {0.3, 0.8};
    private static final long JOBS = 400;

    @TempDir
    Path dir;

    @Test
    void run_tinyGrid_writesEveryRowAndSummaryRatiosFromTheCsv() throws IOException {
        Path out = run(2, dir.resolve("out"));

        List<Map<String, String>> csv = csv(out.resolve("quality.csv"));
        assertThat(csv).hasSize(2 * LOADS.length * Quality.POLICIES.size());
        for (Map<String, String> row : csv) {
            double load = Double.parseDouble(row.get("load"));
            double perServer = Double.parseDouble(row.get("perServerLoad"));
            assertThat(perServer).isCloseTo(row.get("workload").equals("small-cluster") ? load / 8 : load,
                    Offset.offset(1e-4));
            assertThat(Double.parseDouble(row.get("meanJctSeconds"))).isPositive();
        }
        assertThat(out.resolve("quality-small.png")).isRegularFile();
        assertThat(out.resolve("quality-small-cluster.png")).isRegularFile();

        String summary = Files.readString(out.resolve("summary.md"));
        Map<String, double[]> ratios = ratiosFromCsv(csv);
        for (Map.Entry<String, double[]> e : ratios.entrySet()) {
            String[] key = e.getKey().split("\\|");
            String row = tableRow(summary, key[0], Double.parseDouble(key[1]));
            assertThat(row).as("summary row of %s", e.getKey())
                    .contains(String.format(Locale.ROOT, "| %.4f | %.4f |", e.getValue()[0], e.getValue()[0]))
                    .contains(String.format(Locale.ROOT, "| %.4f | %.4f |", e.getValue()[1], e.getValue()[1]));
        }
        for (String workload : List.of("small", "small-cluster")) {
            double worstBest = ratios.entrySet().stream().filter(e -> e.getKey().startsWith(workload + "|"))
                    .mapToDouble(e -> e.getValue()[0]).max().orElseThrow();
            double worstExpert = ratios.entrySet().stream().filter(e -> e.getKey().startsWith(workload + "|"))
                    .mapToDouble(e -> e.getValue()[1]).max().orElseThrow();
            assertThat(summary).contains(String.format(Locale.ROOT, "| %s | %.4f (", workload, worstBest))
                    .containsPattern(String.format(Locale.ROOT, "\\| %s \\| %.4f \\([^|]*\\) \\| %.4f \\(", workload, worstBest, worstExpert)
                            .replace(".", "\\."));
        }
        boolean aHolds = ratios.values().stream().allMatch(r -> r[0] <= 1.0);
        boolean bHolds = ratios.values().stream().allMatch(r -> r[1] <= 1.02);
        assertThat(verdictLine(summary, "**(a)**")).contains(aHolds ? "**holds**" : "**DOES NOT HOLD**");
        assertThat(verdictLine(summary, "**(b)**")).contains(bHolds ? "**holds**" : "**DOES NOT HOLD**");
        long failingA = ratios.values().stream().filter(r -> r[0] > 1.0).count();
        if (failingA > 0) {
            assertThat(verdictLine(summary, "**(a)**")).contains("at " + failingA + " of " + ratios.size() + " points");
        }
    }

    @Test
    void run_oneOrTwoThreads_sameRowsApartFromWallTime() throws IOException {
        List<String> one = withoutWallTime(run(1, dir.resolve("one")).resolve("quality.csv"));
        List<String> two = withoutWallTime(run(2, dir.resolve("two")).resolve("quality.csv"));

        assertThat(two).isEqualTo(one);
    }

    @Test
    void run_clusterLoadFlag_isRefusedBecauseEachWorkloadSaysHowItsLoadIsRead() throws IOException {
        ExperimentContext ctx = context(dir.resolve("x"), true);

        assertThatThrownBy(() -> quality(1).run(ctx)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("drop --cluster-load");
    }

    @Test
    void load_missingPipedreamGraph_failsNamingThePathAndTheVariable() throws IOException {
        QualityWorkload w = pipedreamWorkload("vgg16");

        assertThatThrownBy(() -> w.load(null)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(dir.resolve("nowhere/vgg16.txt").toString())
                .hasMessageContaining("NONA_SHARED_DAGS");
    }

    @Test
    void load_graphInTheSharedDagsFolder_isUsedInsteadOfTheNamedPath() throws IOException {
        Path shared = Files.createDirectories(dir.resolve("shared").resolve("tiny"));
        // a hand-written two-node graph in the profiler's format (not PipeDream data)
        Files.writeString(shared.resolve("graph.txt"), node("node1", "Input0", 0.0) + node("node2", "Conv2d(3, 64)", 2.0)
                + "\tnode1 -- node2\n");

        SimWorkloads.Loaded loaded = pipedreamWorkload("tiny").load(dir.resolve("shared").toString());

        assertThat(loaded.sim().classes().get(0).totalOps()).isPositive();
    }

    /** A workload of one model whose PipeDream graph the file names at {@code nowhere/<model>.txt}, a path that does not exist. */
    private QualityWorkload pipedreamWorkload(String model) throws IOException {
        Path file = dir.resolve("pd.json");
        Files.writeString(file, """
                {"cluster": {"servers": 8, "opsPerSecond": 1.0e11, "linkBitsPerSecond": 1.0e10},
                 "models": [{"name": "%s", "dag": {"pipedream": "nowhere/%s.txt"}, "ratePerSecond": 20}]}
                """.formatted(model, model));
        return new QualityWorkload("pd", file, false);
    }

    private static String node(String id, String op, double forwardMs) {
        return id + " -- " + op + " -- " + "forward_compute_time" + "=" + forwardMs
                + ", backward_compute_time=0.0, activation_size=4.0, parameter_size=0.0\n";
    }

    private Path run(int threads, Path out) throws IOException {
        quality(threads).run(context(out, false));
        return out;
    }

    private Quality quality(int threads) throws IOException {
        Path file = dir.resolve("small.json");
        Files.writeString(file, SMALL);
        return new Quality(List.of(new QualityWorkload("small", file, false), new QualityWorkload("small-cluster", file, true)),
                LOADS, threads, null);
    }

    private ExperimentContext context(Path out, boolean clusterLoad) throws IOException {
        Path file = dir.resolve("small.json");
        Files.writeString(file, SMALL);
        return new ExperimentContext(SimWorkloads.read(file), out, JOBS, 3, CostModel.DEFAULT,
                new ExpertSearch.Settings(200, 17, 1, 5_000), m -> { }, clusterLoad).seeds(1);
    }

    /** Per "workload|load|seed": {controller / best of the four baselines, controller / expert-jsq}, from the CSV's cells. */
    private static Map<String, double[]> ratiosFromCsv(List<Map<String, String>> csv) {
        Map<String, Map<String, Double>> byPoint = new LinkedHashMap<>();
        for (Map<String, String> row : csv) {
            byPoint.computeIfAbsent(row.get("workload") + "|" + row.get("load") + "|" + row.get("seed"), k -> new HashMap<>())
                    .put(row.get("policy"), Double.parseDouble(row.get("meanJctSeconds")));
        }
        Map<String, double[]> out = new LinkedHashMap<>();
        byPoint.forEach((k, jct) -> {
            double best = List.of("random", "opportunistic", "spark-fair", "jsq").stream().mapToDouble(jct::get).min().orElseThrow();
            out.put(k, new double[] {jct.get("nona-controller") / best, jct.get("nona-controller") / jct.get("expert-jsq")});
        });
        return out;
    }

    /** The per-load table row of {@code workload} at {@code load} (one seed: ratio list and worst are the same number). */
    private static String tableRow(String summary, String workload, double load) {
        String section = summary.substring(summary.indexOf("## " + workload + " ("));
        String prefix = String.format(Locale.ROOT, "| %.1f |", load);
        return Arrays.stream(section.split("\n")).filter(l -> l.startsWith(prefix)).findFirst().orElseThrow();
    }

    private static String verdictLine(String summary, String goal) {
        return Arrays.stream(summary.split("\n")).filter(l -> l.startsWith("- " + goal)).findFirst().orElseThrow();
    }

    private static List<Map<String, String>> csv(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        String[] header = lines.get(0).split(",");
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < header.length; i++) {
                row.put(header[i], cells[i]);
            }
            rows.add(row);
        }
        return rows;
    }

    private static List<String> withoutWallTime(Path csv) throws IOException {
        return Files.readAllLines(csv).stream().map(l -> l.substring(0, l.lastIndexOf(','))).collect(Collectors.toList());
    }
}
