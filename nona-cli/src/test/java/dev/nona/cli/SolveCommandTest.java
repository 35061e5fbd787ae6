package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.placement.PlacementTable;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

final class SolveCommandTest {
    /** Fig. 1 of the Nona paper: 1, 10, 10, 1 ms at 1e12 ops/s; 100 MB on 1->2, 2->4 and 10 MB on 1->3, 3->4. */
    private static final String FIGURE1_DAG = """
            {"name": "f", "tasks": [{"id": "1", "ops": 1e9}, {"id": "2", "ops": 1e10}, {"id": "3", "ops": 1e10}, {"id": "4", "ops": 1e9}],
             "edges": [{"from": "1", "to": "2", "bytes": 1e8}, {"from": "1", "to": "3", "bytes": 1e7},
                       {"from": "2", "to": "4", "bytes": 1e8}, {"from": "3", "to": "4", "bytes": 1e7}]}
            """;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = NonaCli.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    private static Path workload(Path dir, String background) throws Exception {
        Files.writeString(dir.resolve("f.json"), FIGURE1_DAG);
        Path w = dir.resolve("w.json");
        Files.writeString(w, """
                {"cluster": {"servers": 2, "opsPerSecond": 1e12, "linkBitsPerSecond": 8e10},
                 "models": [{"name": "f", "dag": {"file": "f.json"}, "ratePerSecond": 10}]%s}
                """.formatted(background));
        return w;
    }

    @Test
    void solve_figure1LightLink_printsContractAndSplitsWithTwosServer(@TempDir Path dir) throws Exception {
        int exit = run("solve", "--workload", workload(dir, "").toString(), "--paper");

        assertThat(exit).as(err.toString()).isZero();
        JsonNode json = new ObjectMapper().readTree(out.toString());
        for (String field : List.of("objective", "linkLoad", "linkWaitSeconds", "solveMillis", "feasible", "models")) {
            assertThat(json.has(field)).as(field).isTrue();
        }
        assertThat(json.get("feasible").asBoolean()).isTrue();
        JsonNode model = json.get("models").get(0);
        assertThat(model.get("name").asText()).isEqualTo("f");
        assertThat(model.get("ratePerSecond").asDouble()).isEqualTo(10.0);
        JsonNode sg = model.get("subgraphs").get(0);
        assertThat(sg.get("root").asText()).isEqualTo("1");
        assertThat(sg.get("sink").asText()).isEqualTo("4");
        double splitWith2 = 0;
        for (JsonNode c : sg.get("choices")) {
            assertThat(c.get("probability").asDouble()).isPositive();
            JsonNode parts = c.get("parts");
            if (parts.size() == 2) {
                String rootPart = parts.get(c.get("rootPart").asInt()).toString();
                String sinkPart = parts.get(c.get("sinkPart").asInt()).toString();
                assertThat(rootPart.equals("[\"3\"]") && sinkPart.equals("[\"3\"]")).as("moves 200 MB").isFalse();
                if (rootPart.equals("[\"2\"]") && sinkPart.equals("[\"2\"]")) {
                    splitWith2 += c.get("probability").asDouble();
                }
            }
        }
        assertThat(splitWith2).isGreaterThanOrEqualTo(0.9);
        assertThat(model.get("predictedJctSeconds").asDouble()).isBetween(0.014, 0.0141);
    }

    @Test
    void solve_controllerMapping_namesTheModelAndSplits(@TempDir Path dir) throws Exception {
        int exit = run("solve", "--workload", workload(dir, "").toString(), "--cost-model", "controller-mapping");

        assertThat(exit).as(err.toString()).isZero();
        JsonNode json = new ObjectMapper().readTree(out.toString());
        assertThat(json.get("costModel").asText()).isEqualTo("controller-mapping");
        assertThat(json.get("formulation").asText()).isEqualTo("controller-mapping");
        // the pooled M/G/2 wait of Figure1Test's worked example
        assertThat(json.get("serverWaitSeconds").asDouble()).isBetween(1.3473e-4, 1.3474e-4);
        // split with 2 (by hand, Figure1Test: 14 ms + 2 phi + W + P R/u + P 10 ms = 14.79 ms) beats 22 ms + W together
        assertThat(json.get("models").get(0).get("predictedJctSeconds").asDouble()).isBetween(0.0147, 0.0148);
    }

    /**
     * Models that only one server holds whole, and not together: the solution says so in its diagnostic (and so
     * does the table written from it), though it is feasible: the solve keeps them whole and predicts them loaded.
     */
    @Test
    void solve_modelsOnlyOneServerHoldsWhole_sayItInTheDiagnostic(@TempDir Path dir) throws Exception {
        Path w = dir.resolve("few.json");
        Files.writeString(w, SimulateCommandTest.fewLargeServers(1));
        Path table = dir.resolve("table.json");
        int exit = run("solve", "--workload", w.toString(), "--cost-model", "controller-mapping", "--table-out",
                table.toString());

        assertThat(exit).as(err.toString()).isZero();
        JsonNode json = new ObjectMapper().readTree(out.toString());
        assertThat(json.get("feasible").asBoolean()).isTrue();
        assertThat(json.get("diagnostic").asText()).startsWith("memory: 'resnet18' (2900000000 bytes), 'alexnet'")
                .contains("fit whole only on the 1 server(s) of 3000000000 bytes or more");
        assertThat(PlacementTable.fromJson(Files.readString(table)).diagnostic()).isEqualTo(json.get("diagnostic").asText());

        Files.writeString(w, SimulateCommandTest.fewLargeServers(2));
        out.getBuffer().setLength(0);
        assertThat(run("solve", "--workload", w.toString(), "--cost-model", "controller-mapping")).isZero();
        assertThat(new ObjectMapper().readTree(out.toString()).get("diagnostic").asText()).isEmpty();
    }

    @Test
    void solve_paperAndAnotherCostModel_isAnErrorNamingBoth(@TempDir Path dir) throws Exception {
        int exit = run("solve", "--workload", workload(dir, "").toString(), "--paper", "--cost-model", "controller-mapping");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("--paper contradicts --cost-model controller-mapping");
        assertThat(run("solve", "--workload", workload(dir, "").toString(), "--cost-model", "exact")).isEqualTo(2);
        assertThat(err.toString()).contains("--cost-model (exact) must be paper, server-queueing or controller-mapping");
    }

    @Test
    void solve_maxTripletsBelowOne_isAnErrorNamingTheFlag(@TempDir Path dir) throws Exception {
        int exit = run("solve", "--workload", workload(dir, "").toString(), "--max-triplets", "0");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("--max-triplets (0) must be >= 1");
    }

    @Test
    void solve_tableOutThatIsAFolder_isAnErrorNamingTheFlag(@TempDir Path dir) throws Exception {
        int exit = run("solve", "--workload", workload(dir, "").toString(), "--table-out", dir.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString().strip()).isEqualTo("nona: --table-out (" + dir + ") is a folder, not a file");
    }

    @Test
    void solve_tableOut_writesReadablePlacementTable(@TempDir Path dir) throws Exception {
        Path table = dir.resolve("table.json");
        int exit = run("solve", "--workload", workload(dir, "").toString(), "--table-out", table.toString());

        assertThat(exit).as(err.toString()).isZero();
        PlacementTable t = PlacementTable.fromJson(Files.readString(table));
        assertThat(t.model("f").tasks()).containsExactly("1", "2", "3", "4");
        assertThat(t.solvedFor().ratesPerSecond()).containsEntry("f", 10.0);
    }

    @Test
    void solve_saturatedLink_isInfeasibleWithNullObjective(@TempDir Path dir) throws Exception {
        int exit = run("solve", "--workload", workload(dir,
                ", \"background\": {\"comm\": {\"ratePerSecond\": 1200, \"bytes\": 1e7}}").toString());

        assertThat(exit).isZero();
        JsonNode json = new ObjectMapper().readTree(out.toString());
        assertThat(json.get("feasible").asBoolean()).isFalse();
        assertThat(json.get("objective").isNull()).isTrue();
        assertThat(json.get("linkLoad").asDouble()).isCloseTo(1.2, Assertions.within(1e-9));
    }

    @Test
    void solve_badWorkload_oneLineErrorNamingField(@TempDir Path dir) throws Exception {
        Path w = dir.resolve("w.json");
        Files.writeString(w, "{\"cluster\": {\"servers\": 2, \"opsPerSecond\": 1, \"linkBitsPerSecond\": 1, \"gpus\": 3}, \"models\": []}");

        int exit = run("solve", "--workload", w.toString());

        assertThat(exit).isNotZero();
        assertThat(err.toString().strip()).contains("cluster.gpus").doesNotContain("\n");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void solve_backgroundOnlyWorkload_oneLineErrorSaysTheOptimiserNeedsAModel(@TempDir Path dir) throws Exception {
        Path w = dir.resolve("w.json");
        Files.writeString(w, """
                {"cluster": {"servers": 1, "opsPerSecond": 1e11, "linkBitsPerSecond": 1e10}, "models": [],
                 "background": {"comm": {"ratePerSecond": 100, "bytes": 1e7}}}
                """);

        int exit = run("solve", "--workload", w.toString());

        assertThat(exit).isNotZero();
        assertThat(err.toString().strip()).isEqualTo(
                "nona: models: the workload lists none (background only); the optimiser needs at least one model");
        assertThat(out.toString()).isEmpty();
    }
}
