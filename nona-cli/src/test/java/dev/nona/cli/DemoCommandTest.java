package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code nona demo}'s option errors come before anything starts, in one line naming the option and value. */
final class DemoCommandTest {

    @Test
    void unknownBaseline_exits2NamingIt() {
        TestingCli cli = new TestingCli();

        int exit = cli.run("demo", "--baseline", "nona");

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err().strip())
                .isEqualTo("nona: --baseline ('nona') must be one of [jsq, local, p2c, random, spark-fair]");
    }

    @Test
    void secondsMetricsPortAndSummaryJson_areCheckedBeforeAnythingStarts_namingTheFlag(@TempDir Path tmp) {
        TestingCli cli = new TestingCli();

        assertThat(cli.run("demo", "--seconds", "3")).isEqualTo(2);
        assertThat(cli.run("demo", "--metrics-port", "70000")).isEqualTo(2);
        assertThat(cli.run("demo", "--summary-json", tmp.toString())).isEqualTo(2);
        assertThat(cli.err().lines()).containsExactly("nona: --seconds (3) must be >= 4",
                "nona: --metrics-port (70000) must be in 1..65535, or 0 for none",
                "nona: --summary-json (" + tmp + ") is a folder, not a file");
    }

    @Test
    void slowServerTheDemoDoesNotHave_exits2NamingIt() {
        TestingCli cli = new TestingCli();

        int exit = cli.run("demo", "--slow-server", "s-4:2");

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err().strip()).isEqualTo("nona: --slow-server: server 's-4' is not one of s-0 .. s-3");
    }

    @Test
    void workloadWithABadServerClass_exits2NamingTheFieldAndValue(@TempDir Path tmp)
            throws Exception {
        Path file = tmp.resolve("bad.json");
        Files.writeString(file, "{\"cluster\": {\"serverClasses\": [{\"name\": \"small\", \"count\": 0, "
                + "\"opsPerSecond\": 1e11, \"memoryBytes\": 5e8}], \"linkBitsPerSecond\": 1e10}, "
                + "\"models\": [{\"name\": \"a\", \"dag\": {\"zoo\": \"alexnet\"}, \"ratePerSecond\": 5}]}");
        TestingCli cli = new TestingCli();

        int exit = cli.run("demo", "--workload", file.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err().strip()).startsWith("nona: ").contains("count (0) must be >= 1");
        assertThat(cli.out()).isEmpty();
    }

    @Test
    void workloadSilencingAServerBeyondItsClasses_exits2NamingIt() {
        TestingCli cli = new TestingCli();

        int exit = cli.run("demo", "--workload", "../examples/hetero.json", "--silence-server", "s-80:5");

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err().strip()).isEqualTo("nona: --silence-server: server 's-80' is not one of s-0 .. s-79");
    }
}
