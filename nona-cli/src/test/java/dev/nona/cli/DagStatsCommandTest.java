package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.dag.SharedDags;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class DagStatsCommandTest {
    private final TestingCli cli = new TestingCli();

    /** PipeDream's graph file; the test is skipped without it (see {@link SharedDags}). */
    private static Path pipedream(String model) {
        return SharedDags.pipedream(model);
    }

    @Test
    void stats_resnet18Pipedream_printsOneJsonObjectWithTheContractFields() throws Exception {
        int exit = cli.run("dag", "stats", "--pipedream", pipedream("resnet18").toString());

        assertThat(exit).isZero();
        JsonNode json = new ObjectMapper().readTree(cli.out());
        assertThat(json.get("tasks").asInt()).isEqualTo(71);
        assertThat(json.get("edges").asInt()).isEqualTo(79);
        assertThat(json.get("contractedTasks").asInt()).isEqualTo(10);
        assertThat(json.get("contractedEdges").asInt()).isEqualTo(12);
        assertThat(json.get("subgraphs").asInt()).isEqualTo(3);
        assertThat(json.get("variables").asLong()).isEqualTo(15);
        assertThat(json.get("capped").asBoolean()).isFalse();
        assertThat(cli.out().strip()).doesNotContain("\n");
    }

    @Test
    void stats_maxTripletsBelowOne_isAnErrorNamingTheFlag_andAGivenOneIsReported() throws Exception {
        assertThat(cli.run("dag", "stats", "--zoo", "alexnet", "--max-triplets", "0")).isEqualTo(2);
        assertThat(cli.err()).contains("--max-triplets (0) must be >= 1");

        assertThat(cli.run("dag", "stats", "--zoo", "alexnet", "--max-triplets", "5")).isZero();
        assertThat(new ObjectMapper().readTree(cli.out()).get("maxTripletsPerSubgraph").asLong()).isEqualTo(5);
    }

    @Test
    void stats_jsonFile_isRead(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("m.json");
        Files.writeString(file, "{\"name\":\"m\",\"tasks\":[{\"id\":\"a\",\"ops\":1},{\"id\":\"b\",\"ops\":2}],"
                + "\"edges\":[{\"from\":\"a\",\"to\":\"b\",\"bytes\":3}]}");

        int exit = cli.run("dag", "stats", "--json", file.toString());

        assertThat(exit).isZero();
        JsonNode json = new ObjectMapper().readTree(cli.out());
        assertThat(json.get("tasks").asInt()).isEqualTo(2);
        assertThat(json.get("contractedTasks").asInt()).isEqualTo(1);
    }

    @Test
    void stats_lowBound_reportsCapped() throws Exception {
        int exit = cli.run("dag", "stats", "--zoo", "resnet18", "--max-triplets", "1");

        assertThat(exit).isZero();
        JsonNode json = new ObjectMapper().readTree(cli.out());
        assertThat(json.get("capped").asBoolean()).isTrue();
        assertThat(json.get("variables").asLong()).isEqualTo(3);
    }

    @Test
    void stats_missingFile_failsWithOneLine() {
        int exit = cli.run("dag", "stats", "--pipedream", "/no/such/graph.txt");

        assertThat(exit).isNotZero();
        assertThat(cli.err()).isEqualTo("nona: --pipedream file '/no/such/graph.txt' does not exist" + System.lineSeparator());
    }

    @Test
    void stats_invalidJson_failsNamingTheField(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.json");
        Files.writeString(file, "{\"name\":\"m\",\"tasks\":[{\"id\":\"a\",\"ops\":-1}],\"edges\":[]}");

        int exit = cli.run("dag", "stats", "--json", file.toString());

        assertThat(exit).isNotZero();
        assertThat(cli.err().strip()).isEqualTo("nona: --json file '" + file + "': tasks[0]: task 'a': ops (-1.0) must be finite and >= 0");
    }

    @Test
    void export_thenStats_roundTripsThroughTheJsonFormat(@TempDir Path dir) throws Exception {
        int exported = cli.run("dag", "export", "--zoo", "resnet18");
        Path file = dir.resolve("resnet18.json");
        Files.writeString(file, cli.out());
        cli.clearOut();

        int exit = cli.run("dag", "stats", "--json", file.toString());

        assertThat(exported).isZero();
        assertThat(exit).isZero();
        JsonNode json = new ObjectMapper().readTree(cli.out());
        assertThat(json.get("name").asText()).isEqualTo("resnet18");
        assertThat(json.get("tasks").asInt()).isEqualTo(71);
        assertThat(json.get("contractedTasks").asInt()).isEqualTo(10);
        assertThat(json.get("variables").asLong()).isEqualTo(15);
    }
}
