package dev.nona.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.cli.NonaCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nona demo} end to end: a real KRaft broker (child process), the controller on a MiniCluster, the executor
 * twin, requests for the five zoo models with a rate shift and malformed records, decisions and outcomes read back
 * with read_committed.
 */
final class DemoCommandIT {
    private static final int SECONDS = 10;

    @Test
    void demo_shortRun_decidesEveryValidRequestOnce_andDeadLettersEveryMalformedOne(@TempDir Path tmp) throws Exception {
        Path summaryFile = tmp.resolve("summary.json");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = NonaCli.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute("demo", "--seconds", String.valueOf(SECONDS), "--summary-json", summaryFile.toString());

        assertThat(exit).as("exit code; summary: " + out + "; stderr: " + err).isZero();
        JsonNode summary = new ObjectMapper().readTree(summaryFile.toFile());
        assertThat(new ObjectMapper().readTree(out.toString())).isEqualTo(summary);
        long requests = summary.path("requestsPublished").asLong();
        // what the publisher draws: Poisson counts at each model's rate, the first half at the higher rates
        DemoScenario scenario = DemoScenario.standard(Duration.ofSeconds(SECONDS));
        double meanRequests = 0;
        for (String model : scenario.models()) {
            double mean = (scenario.rate(model, Duration.ZERO) + scenario.rate(model, Duration.ofSeconds(SECONDS)))
                    * SECONDS / 2.0;
            meanRequests += mean;
            assertPoisson(summary.path("requestsPerModel").path(model).asLong(), mean, "requests of " + model);
        }
        assertPoisson(requests, meanRequests, "requests published");
        assertThat(sum(summary.path("requestsPerModel"))).as("requests over the models").isEqualTo(requests);
        assertThat(sum(summary.path("decisionsPerTableVersion"))).as("decided requests over the table versions")
                .isEqualTo(requests);
        assertThat(summary.path("decisionsConsumed").asLong()).isEqualTo(requests);
        assertThat(summary.path("duplicateDecisions").asLong()).isZero();
        assertThat(summary.path("lostDecisions").asLong()).isZero();
        assertThat(summary.path("malformedPublished").asLong()).isEqualTo(8);
        assertThat(summary.path("deadLetters").asLong()).isEqualTo(8);
        assertThat(summary.path("tablesPublished").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(summary.path("driftEvents").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(summary.path("requestsPerModel").size()).isEqualTo(5);
        assertThat(summary.path("exactlyOnce").asBoolean()).isTrue();
        // the closed loop: the executor twin executed every decision and reported the servers
        assertThat(summary.path("outcomesConsumed").asLong()).isEqualTo(requests);
        assertThat(summary.path("missingOutcomes").asLong()).isZero();
        assertThat(summary.path("timeoutOutcomes").asLong()).isZero();
        assertThat(summary.path("observedMeanJctSeconds").asDouble()).isPositive();
        assertThat(summary.path("observedP99JctSeconds").asDouble())
                .isGreaterThanOrEqualTo(summary.path("observedMeanJctSeconds").asDouble());
        assertThat(summary.path("telemetryPublished").asLong()).isGreaterThanOrEqualTo(4 * 10);
        // the halves: each with its observed JCT and the table versions that placed its requests
        assertThat(summary.path("phases").size()).isEqualTo(2);
        assertThat(summary.path("phases").get(1).path("phase").asText()).isEqualTo("second half");
        assertThat(summary.path("phases").get(1).path("observedMeanJctSeconds").asDouble())
                .isEqualTo(summary.path("observedMeanJctSeconds").asDouble());
        assertThat(summary.path("phases").get(1).path("tableVersions").size()).isPositive();
        assertThat(summary.path("rollbacks").isNumber()).isTrue();
    }

    /** {@code count} within five standard deviations of a Poisson count of mean {@code mean}. */
    private static void assertPoisson(long count, double mean, String what) {
        double sd = Math.sqrt(mean);
        assertThat((double) count).as("%s (Poisson, mean %s)", what, mean).isBetween(mean - 5 * sd, mean + 5 * sd);
    }

    private static long sum(JsonNode counts) {
        long total = 0;
        for (JsonNode n : counts) {
            total += n.asLong();
        }
        return total;
    }

    @Test
    void demo_tooShort_isAOneLineErrorNamingTheValue() {
        StringWriter err = new StringWriter();
        int exit = NonaCli.commandLine().setErr(new PrintWriter(err)).execute("demo", "--seconds", "2");
        assertThat(exit).isNotZero();
        assertThat(err.toString().trim()).contains("seconds (2) must be >= 4").doesNotContain("\n");
    }
}
