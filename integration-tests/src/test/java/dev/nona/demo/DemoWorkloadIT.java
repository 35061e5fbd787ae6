package dev.nona.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nona.cli.NonaCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        assertThat(summary.path("failedSolves").asLong()).isZero();
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

    /**
     * The same workload with every server of 2 GB and VGG16 of 2.5 GB: no server holds it whole, so the optimiser
     * cuts it into parts that fit, its requests sent before the first table wait for it (none is a dead letter), the
     * re-solve at the measured rates prices the current table (none fails), and no part runs where it does not fit.
     */
    @Test
    void demoOfAChainNoServerHoldsWhole_waitsForItsSplit_resolves_noMemoryViolation(@TempDir Path dir) throws Exception {
        demoOfAModelNoServerHoldsWhole(dir, "vgg16", "chain larger than every server");
    }

    /**
     * As for the chain, with ResNet-18 of 2.5 GB instead, a model of several subgraphs: a server runs the sink side of
     * one subgraph with the root side of the next, so its table must keep every such chain within 2 GB (before, a
     * table of choices that each fit put it whole on one server, and every request of it was a dead letter).
     */
    @Test
    void demoOfAModelOfSeveralSubgraphsNoServerHoldsWhole_isPlacedInParts_noMemoryViolation(@TempDir Path dir)
            throws Exception {
        demoOfAModelNoServerHoldsWhole(dir, "resnet18", "several subgraphs larger than every server");
    }

    private static void demoOfAModelNoServerHoldsWhole(Path dir, String model, String name) throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode workload = (ObjectNode) json.readTree(WORKLOAD.toFile());
        for (JsonNode c : workload.path("cluster").path("serverClasses")) {
            ((ObjectNode) c).put("memoryBytes", 2.0e9);
        }
        for (JsonNode m : workload.path("models")) {
            if (m.path("name").asText().equals(model)) {
                ((ObjectNode) m).put("sizeBytes", 2.5e9);
            }
        }
        Path file = dir.resolve(model + "-larger-than-every-server.json");
        json.writeValue(file.toFile(), workload);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int exit = NonaCli.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute("demo", "--workload", file.toString(), "--seconds", "15");

        assertThat(exit).as("exit code; summary: " + out + "; stderr: " + err).isZero();
        JsonNode summary = json.readTree(out.toString());
        System.out.println("DemoWorkloadIT (" + name + ") summary: " + summary);
        assertThat(summary.path("exactlyOnce").asBoolean()).isTrue();
        assertThat(summary.path("warmupDeadLetters").asLong()).as("warm-up requests before the first table").isZero();
        assertThat(summary.path("requestsPerModel").path(model).asLong()).isPositive();
        assertThat(summary.path("deadLetterReasons").fieldNames()).toIterable()
                .noneMatch(reason -> reason.startsWith("MODEL_UNPLACEABLE"));
        assertThat(summary.path("failedSolves").asLong()).isZero();
        assertThat(summary.path("tablesPublished").asLong()).as("the first table (at the declared rates) and one "
                + "at the measured rates").isGreaterThanOrEqualTo(2);
        assertThat(summary.path("memory").path("memoryViolations").asLong()).isZero();
        assertThat(summary.path("memory").path("failedOutcomes").asLong()).isZero();
    }
}
