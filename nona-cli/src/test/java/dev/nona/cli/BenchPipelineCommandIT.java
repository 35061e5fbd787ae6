package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * {@code nona bench pipeline}, briefly: both jobs on a MiniCluster over a few thousand requests, with and without
 * the warm-up run. Checks the JSON and the counts; the figures themselves are the benchmark's business.
 */
final class BenchPipelineCommandIT {
    @Test
    void warmup_defaultsToTheRecords_andIsReported() throws Exception {
        JsonNode out = run("bench", "pipeline", "--records", "2000", "--servers", "16");
        assertThat(out.path("records").asLong()).isEqualTo(2000);
        assertThat(out.path("warmupRecords").asLong()).as("default: --records").isEqualTo(2000);
        assertThat(out.path("placementRecordsPerSecond").asDouble()).isPositive();
        assertThat(out.path("placementBytesWritten").asLong()).as("the measured run's decisions only")
                .isCloseTo(Math.round(out.path("placementBytesPerDecision").asDouble() * 2000), within(2000L));
    }

    @Test
    void warmupZero_runsNone() throws Exception {
        JsonNode out = run("bench", "pipeline", "--records", "1000", "--servers", "16", "--warmup-records", "0");
        assertThat(out.path("warmupRecords").asLong()).isZero();
        assertThat(out.path("records").asLong()).isEqualTo(1000);
    }

    @Test
    void negativeWarmup_isAOneLineErrorNamingTheValue() {
        TestingCli cli = new TestingCli();
        assertThat(cli.run("bench", "pipeline", "--records", "10", "--warmup-records", "-5")).isNotZero();
        assertThat(cli.err().trim()).contains("--warmup-records (-5)").doesNotContain("\n");
    }

    private static Offset<Long> within(long n) {
        return Offset.offset(n);
    }

    private static JsonNode run(String... args) throws Exception {
        TestingCli cli = new TestingCli();
        int exit = cli.run(args);
        assertThat(exit).as("exit code; stderr: %s", cli.err()).isZero();
        return new ObjectMapper().readTree(cli.out());
    }
}
