package dev.nona.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.cli.NonaCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code nona demo --workload examples/memory-bound.json} end to end, briefly: a real KRaft broker (child process),
 * the controller on a MiniCluster with the workload's cold-start cost, the executor twin with the workload's two
 * server classes (36 large of 16 GB, 44 small of 512 MiB: VGG16 fits a small one only split) and caches of parts by
 * bytes, the five models published with their sizes. Decisions come, every part the controller placed fits its
 * server's memory (the twin refuses and counts any that does not), and the twin's parts load cold on first use.
 */
final class DemoWorkloadIT {
    private static final Path WORKLOAD = Path.of("..", "examples", "memory-bound.json");

    @Test
    void demoOfMemoryBoundWorkload_decides_noMemoryViolation_coldStarts() throws Exception {
        assertThat(Files.exists(WORKLOAD)).as(WORKLOAD.toAbsolutePath().toString()).isTrue();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int exit = NonaCli.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute("demo", "--workload", WORKLOAD.toString(), "--seconds", "4");

        assertThat(exit).as("exit code; summary: " + out + "; stderr: " + err).isZero();
        JsonNode summary = new ObjectMapper().readTree(out.toString());
        System.out.println("DemoWorkloadIT summary: " + summary);
        assertThat(summary.path("servers").asInt()).isEqualTo(80);
        assertThat(summary.path("requestsPerModel").size()).isEqualTo(5);
        assertThat(summary.path("distinctDecisions").asLong()).isPositive();
        assertThat(summary.path("exactlyOnce").asBoolean()).isTrue();
        assertThat(summary.path("outcomesConsumed").asLong()).isPositive();
        JsonNode memory = summary.path("memory");
        assertThat(memory.isObject()).as("memory section of " + summary).isTrue();
        assertThat(memory.path("memoryViolations").asLong()).isZero();
        assertThat(memory.path("failedOutcomes").asLong()).isZero();
        assertThat(memory.path("coldStarts").asLong()).isPositive();
        assertThat(memory.path("classes").findValuesAsText("name")).containsExactly("large", "small");
        long parts = 0;
        for (JsonNode c : memory.path("classes")) {
            parts += c.path("partsRun").asLong();
        }
        assertThat(parts).isGreaterThanOrEqualTo(summary.path("outcomesConsumed").asLong());
    }
}
