package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** {@code nona bench table}: its flags are checked by name, and a small table solves. */
final class BenchTableCommandTest {
    private final TestingCli cli = new TestingCli();

    @Test
    void flagsBelowOne_orFewerServersThanClasses_areErrorsNamingTheFlag() {
        assertThat(cli.run("bench", "table", "--servers", "0")).isEqualTo(2);
        assertThat(cli.err()).contains("--servers (0) must be >= 1");
        assertThat(cli.run("bench", "table", "--models", "-3")).isEqualTo(2);
        assertThat(cli.err()).contains("--models (-3) must be >= 1");
        assertThat(cli.run("bench", "table", "--classes", "0")).isEqualTo(2);
        assertThat(cli.err()).contains("--classes (0) must be >= 1");
        assertThat(cli.run("bench", "table", "--classes", "50", "--servers", "10")).isEqualTo(2);
        assertThat(cli.err()).contains("--servers (10) must be >= --classes (50)");
    }

    @Test
    void aSmallTable_solvesAndSaysItsSize() throws Exception {
        int exit = cli.run("bench", "table", "--models", "5", "--servers", "20", "--classes", "2");

        assertThat(exit).as(cli.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(cli.out());
        assertThat(json.get("models").asInt()).isEqualTo(5);
        assertThat(json.get("servers").asInt()).isEqualTo(20);
        assertThat(json.get("classes").asInt()).isEqualTo(2);
        assertThat(json.get("feasible").asBoolean()).isTrue();
    }
}
