package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

final class DashboardCommandTest {
    private final TestingCli cli = new TestingCli();

    @Test
    void badPort_isAOneLineErrorNamingTheValue() {
        assertThat(cli.run("dashboard", "--bootstrap", "localhost:9092", "--port", "70000")).isNotZero();
        assertThat(cli.err().strip()).isEqualTo("nona: --port (70000) must be in 0..65535");
        assertThat(cli.out()).isEmpty();
    }

    @Test
    void badLivenessTimeout_isAOneLineErrorNamingTheValue() {
        assertThat(cli.run("dashboard", "--bootstrap", "localhost:9092", "--liveness-timeout", "0s")).isNotZero();
        assertThat(cli.run("dashboard", "--bootstrap", "localhost:9092", "--liveness-timeout", "soon")).isNotZero();
        assertThat(cli.err().strip().split("\n")).containsExactly("nona: --liveness-timeout (0s) must be > 0",
                "nona: --liveness-timeout (soon) is not a duration like 3s or 500ms");
    }

    @Test
    void missingConfigFile_isAOneLineErrorNamingIt() {
        assertThat(cli.run("dashboard", "--bootstrap", "localhost:9092", "--config", "no-such.properties")).isNotZero();
        assertThat(cli.err().strip()).isEqualTo("nona: config file (no-such.properties) does not exist");
    }

    @Test
    void noBootstrap_isAMissingOption() {
        assertThat(cli.run("dashboard")).isNotZero();
        assertThat(cli.err()).contains("--bootstrap");
    }

    @Test
    void demo_dashboardWithoutAPort_takesTheDefault() {
        DemoCommand demo = new DemoCommand();
        CommandLine.populateCommand(demo, "--dashboard");
        assertThat(demo.dashboardPort).isEqualTo(DashboardCommand.DEFAULT_PORT);
        DemoCommand off = new DemoCommand();
        CommandLine.populateCommand(off);
        assertThat(off.dashboardPort).isNull();
        DemoCommand given = new DemoCommand();
        CommandLine.populateCommand(given, "--dashboard=0");
        assertThat(given.dashboardPort).isZero();
    }
}
