package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The model-aware contract of {@code nona simulate} and {@code nona solve} on the shipped thesis examples. */
final class ModelAwareCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final StringWriter err = new StringWriter();

    private static Path example(String name) {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path f = d.resolve("examples/thesis").resolve(name);
            if (Files.isRegularFile(f)) {
                return f;
            }
        }
        throw new IllegalStateException("examples/thesis/" + name + " not found");
    }

    /** Runs the CLI; returns its exit code and what it printed on stdout (System.out or the command's writer). */
    private Object[] run(String... args) {
        PrintStream saved = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StringWriter out = new StringWriter();
        try {
            System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            CommandLine cli = NonaCli.commandLine();
            cli.setOut(new PrintWriter(out, true));
            cli.setErr(new PrintWriter(err, true));
            int exit = cli.execute(args);
            return new Object[] {exit, bytes.toString(StandardCharsets.UTF_8) + out};
        } finally {
            System.setOut(saved);
        }
    }

    private JsonNode simulate(String file, String policy) throws Exception {
        Object[] r = run("simulate", "--workload", example(file).toString(), "--policy", policy);
        assertThat((int) r[0]).as(err.toString()).isZero();
        return JSON.readTree((String) r[1]);
    }

    @Test
    void simulate_thesisWorkload_printsMakespanAndColdStarts() throws Exception {
        JsonNode colocation = simulate("simple-10-requests.json", "colocation");
        JsonNode random = simulate("simple-10-requests.json", "random");

        assertThat(colocation.get("policy").asText()).isEqualTo("colocation");
        assertThat(colocation.get("coldStarts").asLong()).isEqualTo(1);
        assertThat(colocation.get("makespanSeconds").asDouble()).isEqualTo(13.0);
        assertThat(random.get("coldStarts").asLong()).isGreaterThan(1);
        assertThat(random.get("jobs").asInt()).isEqualTo(10);
    }

    @Test
    void simulate_section643_registryBeatsBothColocations() throws Exception {
        double registry = simulate("registry-win.json", "registry").get("makespanSeconds").asDouble();
        assertThat(simulate("registry-win.json", "colocation").get("makespanSeconds").asDouble()).isGreaterThan(registry);
        assertThat(simulate("registry-win.json", "colocation-queuing").get("makespanSeconds").asDouble()).isGreaterThan(registry);
    }

    @Test
    void simulate_modelAwarePolicyOnANonaWorkload_isAOneLineError(@TempDir Path dir) throws Exception {
        Path w = alexnetOnTwoServers(dir);

        Object[] r = run("simulate", "--workload", w.toString(), "--policy", "registry");

        assertThat((int) r[0]).isNotZero();
        assertThat(err.toString()).contains("--policy (registry) needs a model-aware workload").doesNotContain("\tat ");
    }

    @Test
    void simulate_colocationOnANonaWorkload_runsTheDagEnginesColocation(@TempDir Path dir) throws Exception {
        Path w = alexnetOnTwoServers(dir);

        for (String policy : new String[] {"colocation", "colocation-queuing"}) {
            Object[] r = run("simulate", "--workload", w.toString(), "--policy", policy, "--jobs", "200");

            assertThat((int) r[0]).as(err.toString()).isZero();
            JsonNode out = JSON.readTree((String) r[1]);
            assertThat(out.get("policy").asText()).isEqualTo(policy);
            assertThat(out.get("linkUtilization").asDouble()).as("a job runs whole").isZero();
        }
    }

    @Test
    void solve_coldStartFigures_raiseThePredictionUnlessPaper() throws Exception {
        Object[] withTerm = run("solve", "--workload", example("nona-cold-start.json").toString());
        Object[] paper = run("solve", "--workload", example("nona-cold-start.json").toString(), "--paper");
        assertThat((int) withTerm[0]).as(err.toString()).isZero();

        double jct = JSON.readTree((String) withTerm[1]).get("models").get(0).get("predictedJctSeconds").asDouble();
        double jctPaper = JSON.readTree((String) paper[1]).get("models").get(0).get("predictedJctSeconds").asDouble();
        // Nothing warm: every request loads its 3 s model, spread over the parts that load in parallel.
        assertThat(jctPaper).isLessThan(0.1);
        assertThat(jct).isGreaterThan(1.0).isLessThan(3.0 + 2.0);
    }

    /** A DAG workload (not a model-aware one): alexnet on two servers. */
    private static Path alexnetOnTwoServers(Path dir) throws Exception {
        Path w = dir.resolve("w.json");
        Files.writeString(w, """
                {"cluster": {"servers": 2, "opsPerSecond": 1e12, "linkBitsPerSecond": 8e10},
                 "models": [{"name": "a", "dag": {"zoo": "alexnet"}, "ratePerSecond": 1}]}""");
        return w;
    }
}
