package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nona bench latency}, briefly: the real broker (a child process), the controller on a MiniCluster, 100
 * requests/s for 3 s, in both delivery modes. Checks the JSON and that every request was decided; the figures
 * themselves are the benchmark's business, not the test's.
 */
final class BenchLatencyCommandIT {
    private static final List<String> FIELDS = List.of("delivery", "rate", "seconds", "requests", "decided",
            "duplicates", "p50Millis", "p90Millis", "p99Millis", "maxMillis");

    @Test
    void atLeastOnce_shortRun_everyRequestDecided_jsonHasEveryField() throws Exception {
        JsonNode out = run("--delivery", "at-least-once");
        assertThat(out.path("delivery").asText()).isEqualTo("at-least-once");
        check(out);
    }

    @Test
    void exactlyOnce_200msCheckpoints_everyRequestDecidedOnce() throws Exception {
        JsonNode out = run("--delivery", "exactly-once", "--checkpoint-interval", "200ms");
        assertThat(out.path("delivery").asText()).isEqualTo("exactly-once");
        assertThat(out.path("checkpointIntervalMillis").asLong()).isEqualTo(200);
        assertThat(out.path("checkpointStorage").asText()).as("the controller's default").isEqualTo("jobmanager");
        assertThat(out.path("duplicates").asLong()).as("no failure, exactly once").isZero();
        check(out);
    }

    @Test
    void badDelivery_isAOneLineErrorNamingTheValue() {
        TestingCli cli = new TestingCli();
        assertThat(cli.run("bench", "latency", "--delivery", "twice")).isNotZero();
        assertThat(cli.err().trim()).contains("twice").contains("at-least-once or exactly-once").doesNotContain("\n");
    }

    @Test
    void badInputRate_negative_isAOneLineErrorNamingTheFlagAndValue() {
        TestingCli cli = new TestingCli();
        assertThat(cli.run("bench", "latency", "--bad-input-rate", "-5")).isNotZero();
        assertThat(cli.err().trim()).contains("--bad-input-rate (-5.0) must be finite and >= 0").doesNotContain("\n");
    }

    @Test
    void brokerDir_aFile_isAOneLineErrorNamingTheValue(@TempDir Path dir) throws Exception {
        Path file = Files.createFile(dir.resolve("log"));
        TestingCli cli = new TestingCli();
        assertThat(cli.run("bench", "latency", "--broker-dir", file.toString())).isNotZero();
        assertThat(cli.err().trim()).contains("--broker-dir").contains(file.toString()).doesNotContain("\n");
    }

    private static JsonNode run(String... extra) throws Exception {
        TestingCli cli = new TestingCli();
        String[] args = new String[6 + extra.length];
        System.arraycopy(new String[] {"bench", "latency", "--rate", "100", "--seconds", "3"}, 0, args, 0, 6);
        System.arraycopy(extra, 0, args, 6, extra.length);
        int exit = cli.run(args);
        assertThat(exit).as("exit code; stderr: %s", cli.err()).isZero();
        return new ObjectMapper().readTree(cli.out());
    }

    private static void check(JsonNode out) {
        assertThat(FIELDS).allSatisfy(f -> assertThat(out.has(f)).as("field %s in %s", f, out).isTrue());
        assertThat(out.path("rate").asDouble()).isEqualTo(100.0);
        assertThat(out.path("seconds").asInt()).isEqualTo(3);
        assertThat(out.path("requests").asLong()).isEqualTo(300);
        assertThat(out.path("decided").asLong()).isEqualTo(out.path("requests").asLong());
        double p50 = out.path("p50Millis").asDouble();
        double p90 = out.path("p90Millis").asDouble();
        double p99 = out.path("p99Millis").asDouble();
        assertThat(p50).isPositive().isLessThanOrEqualTo(p90);
        assertThat(p90).isLessThanOrEqualTo(p99);
        assertThat(p99).isLessThanOrEqualTo(out.path("maxMillis").asDouble());
        long from = out.path("measuredFromEpochMillis").asLong();
        assertThat(from).as("measuredFromEpochMillis, a wall-clock time within the last 10 minutes")
                .isBetween(System.currentTimeMillis() - 600_000L, System.currentTimeMillis());
        assertThat(out.path("maxMillisBySecond").size()).as("one maximum per measured second").isEqualTo(3);
        assertThat(out.path("brokerStorage").asText()).isIn("memory", "disk");
        assertThat(out.path("brokerDir").asText()).isNotBlank();
    }
}
