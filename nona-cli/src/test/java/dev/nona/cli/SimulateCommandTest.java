package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.sim.experiment.HeadlineSeeds;
import dev.nona.sim.policy.PolicyRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SimulateCommandTest {
    /** One server, 100 Gop/s, a 10 Gbit/s link, AlexNet at one request per second. */
    private static final String ONE_SERVER_ALEXNET = """
            {"cluster": {"servers": 1, "opsPerSecond": 1.0e11, "linkBitsPerSecond": 1.0e10},
             "models": [{"name": "alexnet", "dag": {"zoo": "alexnet"}, "ratePerSecond": 1}]}
            """;

    private final TestingCli cli = new TestingCli();

    private static Path workload(Path dir, String text) throws Exception {
        Path file = dir.resolve("w.json");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void simulate_resnetWorkload_printsTheContractFields(@TempDir Path dir) throws Exception {
        Path w = workload(dir, """
                {"cluster": {"servers": 8, "opsPerSecond": 1.0e11, "linkBitsPerSecond": 1.0e10},
                 "models": [{"name": "resnet18", "dag": {"zoo": "resnet18"}, "ratePerSecond": 10}],
                 "background": {"comm": {"ratePerSecond": 0.1, "bytes": 1.0e6}}}
                """);
        int exit = cli.run("simulate", "--workload", w.toString(), "--policy", "nona", "--load", "0.5", "--jobs", "2000", "--seed", "3");

        assertThat(exit).as(cli.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(cli.out());
        for (String field : new String[] {"policy", "jobs", "meanJctSeconds", "p99JctSeconds", "linkUtilization",
                "meanLinkWaitSeconds", "eventsPerSecond", "models"}) {
            assertThat(json.has(field)).as(field).isTrue();
        }
        assertThat(json.get("jobs").asLong()).isEqualTo(2000);
        JsonNode model = json.get("models").get(0);
        assertThat(model.get("name").asText()).isEqualTo("resnet18");
        assertThat(model.get("completed").asLong()).isEqualTo(2000);
        assertThat(model.get("meanJctSeconds").asDouble()).isGreaterThan(0.036); // at least its compute, 36 ms
        assertThat(json.get("p99JctSeconds").asDouble()).isGreaterThanOrEqualTo(json.get("meanJctSeconds").asDouble() * 0.5);
    }

    @Test
    void simulate_backgroundCommOnlyAtLoad08_countsBackgroundJobsAndMatchesMd1(@TempDir Path dir) throws Exception {
        Path w = workload(dir, """
                {"cluster": {"servers": 1, "opsPerSecond": 1.0e11, "linkBitsPerSecond": 1.0e10},
                 "models": [],
                 "background": {"comm": {"ratePerSecond": 1, "bytes": 1.0e6}}}
                """);
        int exit = cli.run("simulate", "--workload", w.toString(), "--policy", "local", "--load", "0.8", "--jobs", "300000");

        assertThat(exit).as(cli.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(cli.out());
        assertThat(json.get("jobs").asLong()).isEqualTo(300000);
        assertThat(json.get("models")).isEmpty();
        assertThat(json.get("background").get(0).get("completed").asLong()).isEqualTo(300000);
        assertThat(json.get("linkUtilization").asDouble()).isCloseTo(0.8, within(0.01));
        double s = 8e6 / 1e10;
        double md1 = 0.8 * s / (2 * 0.2);
        assertThat(json.get("meanLinkWaitSeconds").asDouble()).isCloseTo(md1, within(0.05 * md1));
    }

    /** One server of 3 GB and twenty of 1.2 GB; {@code LARGE} large servers' count, ResNet-18 and AlexNet at 2.9 GB. */
    static String fewLargeServers(int large) {
        return """
                {"cluster": {"serverClasses": [
                   {"name": "large", "count": %d, "opsPerSecond": 2.0e11, "memoryBytes": 3.0e9},
                   {"name": "small", "count": 20, "opsPerSecond": 1.0e11, "memoryBytes": 1.2e9}],
                  "linkBitsPerSecond": 1.0e10, "coldStart": {"fixedSeconds": 0.2, "loadBytesPerSecond": 2.0e9}},
                 "models": [{"name": "resnet18", "dag": {"zoo": "resnet18"}, "ratePerSecond": 20, "sizeBytes": 2.9e9},
                            {"name": "alexnet", "dag": {"zoo": "alexnet"}, "ratePerSecond": 20, "sizeBytes": 2.9e9}]}
                """.formatted(large);
    }

    /**
     * Two models that only one server holds whole, and not together: the run warns, naming them, and the refusals it
     * warns of are there; with a large server each, no warning.
     */
    @Test
    void simulate_modelsOnlyOneServerHoldsWhole_warnsOnStderr_andTheirPartsAreRefused(@TempDir Path dir) throws Exception {
        Path w = workload(dir, fewLargeServers(1));
        int exit = cli.run("simulate", "--workload", w.toString(), "--policy", "least-expected-finish", "--load", "0.3",
                "--jobs", "2000", "--seed", "1");

        assertThat(exit).as(cli.err()).isZero();
        assertThat(cli.err()).contains("nona simulate: warning: memory: 'resnet18' (2900000000 bytes), 'alexnet' "
                + "(2900000000 bytes) fit whole only on the 1 server(s) of 3000000000 bytes or more, and not all at once");
        assertThat(new ObjectMapper().readTree(cli.out()).get("memoryViolations").asLong()).isPositive();

        Path two = workload(dir, fewLargeServers(2));
        TestingCli again = new TestingCli();
        assertThat(again.run("simulate", "--workload", two.toString(), "--policy", "least-expected-finish", "--load", "0.3",
                "--jobs", "2000", "--seed", "1")).as(again.err()).isZero();
        assertThat(again.err()).doesNotContain("warning: memory");
        assertThat(new ObjectMapper().readTree(again.out()).get("memoryViolations").asLong()).isZero();
    }

    @Test
    void simulateHelp_namesEveryRegisteredPolicy() {
        assertThat(cli.run("simulate", "--help")).isZero();
        String help = cli.out().replaceAll("\\s+", " ");
        for (String policy : PolicyRegistry.names()) {
            assertThat(help).contains(" " + policy + ",");
        }
        assertThat(help).contains(" adaptive ");
    }

    @Test
    void simulate_unknownPolicy_failsWithOneLineNamingIt(@TempDir Path dir) throws Exception {
        Path w = workload(dir, """
                {"cluster": {"servers": 1, "opsPerSecond": 1, "linkBitsPerSecond": 1},
                 "models": [{"name": "alexnet", "dag": {"zoo": "alexnet"}, "ratePerSecond": 1}]}
                """);
        int exit = cli.run("simulate", "--workload", w.toString(), "--policy", "decima");

        assertThat(exit).isNotZero();
        assertThat(cli.err()).contains("--policy (decima)").doesNotContain("\tat ");
    }

    @Test
    void simulateAndExperiment_unknownCostModel_failWithOneLineNamingIt(@TempDir Path dir) throws Exception {
        Path w = workload(dir, ONE_SERVER_ALEXNET);

        int simulate = cli.run("simulate", "--workload", w.toString(), "--policy", "nona", "--cost-model", "exact");
        int experiment = cli.run("experiment", "md1", "--out", dir.resolve("md1").toString(), "--workload", w.toString(),
                "--cost-model", "exact");

        assertThat(simulate).isNotZero();
        assertThat(experiment).isNotZero();
        assertThat(cli.err().lines()).containsExactly("nona: --cost-model (exact) must be paper, server-queueing or controller-mapping",
                "nona: --cost-model (exact) must be paper, server-queueing or controller-mapping");
    }

    @Test
    void experiment_outThatIsAFile_failsBeforeItRuns_namingTheFlag(@TempDir Path dir) throws Exception {
        Path w = workload(dir, ONE_SERVER_ALEXNET);
        Path file = Files.writeString(dir.resolve("results"), "not a folder");

        int exit = cli.run("experiment", "fig3", "--out", file.toString(), "--workload", w.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err().strip()).isEqualTo("nona: --out (" + file + ") is a file, not a folder");
        assertThat(cli.err()).doesNotContain("fig3 load"); // no simulation ran
    }

    @Test
    void experiment_defaultWorkloadNotUnderTheWorkingDirectory_saysWhereItLookedAndWhatToDo(@TempDir Path dir) {
        assertThat(Path.of("examples/zoo.json")).as("the tests run in the module's folder, not the root")
                .doesNotExist();

        int exit = cli.run("experiment", "md1", "--out", dir.resolve("md1").toString());

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err().strip()).isEqualTo("nona: --workload was not given, and its default (examples/zoo.json) is "
                + "not in " + Path.of("").toAbsolutePath() + ": run from the repository's root, or give --workload FILE");
    }

    @Test
    void experiment_md1_writesCsvPngAndSummary(@TempDir Path dir) throws Exception {
        Path w = workload(dir, ONE_SERVER_ALEXNET);
        Path outDir = dir.resolve("md1");
        int exit = cli.run("experiment", "md1", "--out", outDir.toString(), "--workload", w.toString(), "--jobs", "1000");

        assertThat(exit).as(cli.err()).isZero();
        assertThat(outDir.resolve("md1.csv")).isRegularFile();
        assertThat(outDir.resolve("md1.png")).isRegularFile();
        assertThat(Files.readString(outDir.resolve("summary.md"))).contains("M/D/1");
    }

    @Test
    void experiment_headlineWithClusterLoad_readsTheLoadOverTheClusterAndSaysHowToRegenerate(@TempDir Path dir) throws Exception {
        Path w = workload(dir, """
                {"cluster": {"servers": 8, "opsPerSecond": 1.0e11, "linkBitsPerSecond": 1.0e10},
                 "models": [{"name": "resnet18", "dag": {"zoo": "resnet18"}, "ratePerSecond": 10},
                            {"name": "alexnet", "dag": {"zoo": "alexnet"}, "ratePerSecond": 10}],
                 "background": {"comm": {"ratePerSecond": 0.2, "bytes": 1.0e6}}}
                """);
        Path outDir = dir.resolve("headline");
        int exit = cli.run("experiment", "headline", "--out", outDir.toString(), "--workload", w.toString(), "--jobs", "300",
                "--expert-jobs", "300", "--cluster-load");

        assertThat(exit).as(cli.err()).isZero();
        String summary = Files.readString(outDir.resolve("summary.md"));
        // 0.7 over 8 servers is 0.0875 per server
        assertThat(summary).contains("over the cluster").contains("At u = 0.0875 per server")
                .contains("--workload " + w + " --jobs 300 --seed 1 --cluster-load");
        assertThat(Files.readAllLines(outDir.resolve("headline.csv"))).hasSize(1 + 5 * HeadlineSeeds.POLICIES.size());
    }

    /** ResNet-18 on 8 servers behind a 10 Mbit/s link: random placement sends its edges over the link, far past its capacity. */
    private static final String SLOW_LINK_RESNET = """
            {"cluster": {"servers": 8, "opsPerSecond": 1.0e11, "linkBitsPerSecond": 1.0e7},
             "models": [{"name": "resnet18", "dag": {"zoo": "resnet18"}, "ratePerSecond": 10}]}
            """;

    @Test
    void simulate_randomOverloadingTheLink_stopsAtMaxInFlightAsUnstableWithAOneLineWarning(@TempDir Path dir) throws Exception {
        Path w = workload(dir, SLOW_LINK_RESNET);
        int exit = cli.run("simulate", "--workload", w.toString(), "--policy", "random", "--load", "0.9", "--jobs", "100000",
                "--max-in-flight", "500");

        assertThat(exit).as(cli.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(cli.out());
        assertThat(json.get("unstable").asBoolean()).isTrue();
        assertThat(json.get("inFlightLimit").asInt()).isEqualTo(500);
        assertThat(json.get("maxJobsInFlight").asInt()).isEqualTo(500);
        assertThat(json.get("completed").asLong()).isLessThan(100_000);
        assertThat(json.get("arrivalsStopped").asBoolean()).isFalse();
        assertThat(cli.err().lines()).singleElement().asString()
                .startsWith("nona simulate: warning: unstable: 500 jobs in flight (the limit)");
    }

    @Test
    void simulate_stableRun_isNotUnstableAndWarnsNothing(@TempDir Path dir) throws Exception {
        Path w = workload(dir, ONE_SERVER_ALEXNET);
        int exit = cli.run("simulate", "--workload", w.toString(), "--policy", "local", "--load", "0.5", "--jobs", "2000");

        assertThat(exit).as(cli.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(cli.out());
        assertThat(json.get("unstable").asBoolean()).isFalse();
        assertThat(json.get("completed").asLong()).isEqualTo(2000);
        assertThat(json.get("inFlightLimit").asInt()).isPositive();
        assertThat(cli.err()).isEmpty();
    }

    @Test
    void simulate_maxInFlightZero_failsWithOneLineNamingIt(@TempDir Path dir) throws Exception {
        Path w = workload(dir, ONE_SERVER_ALEXNET);
        int exit = cli.run("simulate", "--workload", w.toString(), "--policy", "local", "--max-in-flight", "0");

        assertThat(exit).isNotZero();
        assertThat(cli.err().lines()).containsExactly("nona: --max-in-flight (0) must be >= 1 and <= " + Integer.MAX_VALUE);
    }

    @Test
    void simulate_heteroExample_printsCacheFiguresAndClasses() throws Exception {
        Path w = Path.of("..", "examples", "hetero.json");
        int exit = cli.run("simulate", "--workload", w.toString(), "--policy", "least-expected-finish", "--load", "0.5",
                "--jobs", "2000");

        assertThat(exit).as(cli.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(cli.out());
        assertThat(json.get("memoryViolations").asLong()).isZero();
        assertThat(json.get("coldStarts").asLong()).isPositive();
        assertThat(json.get("reloads").asLong()).isBetween(0L, json.get("coldStarts").asLong());
        assertThat(json.get("evictions").asLong()).isNotNegative();
        JsonNode classes = json.get("classes");
        assertThat(classes).hasSize(3);
        assertThat(classes.get(0).get("name").asText()).isEqualTo("a100");
        assertThat(classes.get(0).get("partsRun").asLong()).isPositive();
        assertThat(classes.get(0).get("utilisation").asDouble()).isBetween(0.0, 1.0);
        assertThat(json.get("inferenceJctLowerBoundSeconds").asDouble()).isPositive()
                .isLessThanOrEqualTo(json.get("inferenceMeanJctSeconds").asDouble());
    }

    @Test
    void simulate_paperCluster_hasOneDefaultClassAndNoColdStarts(@TempDir Path dir) throws Exception {
        Path w = workload(dir, ONE_SERVER_ALEXNET);
        int exit = cli.run("simulate", "--workload", w.toString(), "--policy", "jsq", "--load", "0.5", "--jobs", "500");

        assertThat(exit).as(cli.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(cli.out());
        assertThat(json.get("coldStarts").asLong()).isZero();
        assertThat(json.get("reloads").asLong()).isZero();
        assertThat(json.get("evictions").asLong()).isZero();
        assertThat(json.get("memoryViolations").asLong()).isZero();
        assertThat(json.get("classes").get(0).get("name").asText()).isEqualTo("default");
        assertThat(json.get("classes").get(0).get("utilisation").asDouble()).isCloseTo(0.5, within(0.1));
        // alexnet is a chain: its longest path is all of its 1.430070888e9 ops, at 1e11 ops/s
        assertThat(json.get("inferenceJctLowerBoundSeconds").asDouble()).isCloseTo(0.01430070888, within(1e-12));
    }

    @Test
    void simulate_aClusterTooLargeForTheHeap_isOneLineNamingItsServers(@TempDir Path dir) throws Exception {
        Path w = workload(dir, """
                {"cluster": {"servers": 2000000000, "opsPerSecond": 1.0e11, "linkBitsPerSecond": 1.0e10},
                 "models": [{"name": "alexnet", "dag": {"zoo": "alexnet"}, "ratePerSecond": 1}]}
                """);
        int exit = cli.run("simulate", "--workload", w.toString(), "--policy", "jsq", "--jobs", "100");

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err().strip()).startsWith("nona: the simulated cluster's 2000000000 servers need about")
                .contains("MiB of heap").doesNotContain("\n");
    }

    /**
     * What no verb checks before allocating still ends in one line and exit 2, not a stack trace: 200,000 servers
     * pass the engine's own check in a 128 MiB heap, and the controller's per-server state then does not fit.
     */
    @Test
    void main_outOfMemory_isOneLineAndExit2(@TempDir Path dir) throws Exception {
        Path w = workload(dir, """
                {"cluster": {"servers": 200000, "opsPerSecond": 1.0e11, "linkBitsPerSecond": 1.0e10},
                 "models": [{"name": "alexnet", "dag": {"zoo": "alexnet"}, "ratePerSecond": 1}]}
                """);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx128m", "-cp", System.getProperty("java.class.path"),
                NonaCli.class.getName(), "simulate", "--workload", w.toString(), "--policy", "nona-controller",
                "--jobs", "100").redirectErrorStream(true).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("finished").isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();

        assertThat(p.exitValue()).as(out).isEqualTo(2);
        assertThat(out).isEqualTo(NonaCli.outOfMemory(128L << 20));
    }
}
