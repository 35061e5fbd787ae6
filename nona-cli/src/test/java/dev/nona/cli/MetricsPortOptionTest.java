package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.controller.ControllerConfig;
import dev.nona.local.PrometheusReporterSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.ParseResult;

/** {@code --metrics-port} of {@code run} (9249 by default) and {@code demo} (off by default), and the entries. */
final class MetricsPortOptionTest {
    @Test
    void run_defaultsTo9249_demoDefaultsToOff() {
        ParseResult run = NonaCli.commandLine().parseArgs("run", "--bootstrap", "localhost:9092");
        assertThat(((RunCommand) run.subcommand().commandSpec().userObject()).metricsPort).isEqualTo(9249);
        ParseResult demo = NonaCli.commandLine().parseArgs("demo");
        assertThat(((DemoCommand) demo.subcommand().commandSpec().userObject()).metricsPort).isZero();
        ParseResult given = NonaCli.commandLine().parseArgs("demo", "--metrics-port", "9300");
        assertThat(((DemoCommand) given.subcommand().commandSpec().userObject()).metricsPort).isEqualTo(9300);
    }

    @Test
    void run_passesTheReporterToFlink_offWith0_andAConfigFilesEntryWins(@TempDir Path dir) throws Exception {
        RunCommand run = run("run", "--bootstrap", "localhost:9092");
        assertThat(run.controllerConfig().flink()).containsEntry(PrometheusReporterSettings.PORT_KEY, "9249")
                .containsEntry(PrometheusReporterSettings.FACTORY_CLASS_KEY, PrometheusReporterSettings.FACTORY_CLASS);
        assertThat(run("run", "--bootstrap", "h:1", "--metrics-port", "0").controllerConfig().flink())
                .doesNotContainKeys(PrometheusReporterSettings.PORT_KEY, PrometheusReporterSettings.FACTORY_CLASS_KEY);
        Path file = dir.resolve("controller.properties");
        Files.writeString(file, "flink.metrics.reporter.prom.port=9999\n");
        ControllerConfig fromFile = run("run", "--bootstrap", "h:1", "--config", file.toString(), "--metrics-port", "9300")
                .controllerConfig();
        assertThat(fromFile.flink()).containsEntry(PrometheusReporterSettings.PORT_KEY, "9999")
                .containsEntry(PrometheusReporterSettings.FACTORY_CLASS_KEY, PrometheusReporterSettings.FACTORY_CLASS);
        assertThat(fromFile.bootstrapServers()).isEqualTo("h:1");
    }

    private static RunCommand run(String... args) {
        return (RunCommand) NonaCli.commandLine().parseArgs(args).subcommand().commandSpec().userObject();
    }

    @Test
    void controllerSettings_passTheReporterFactoryAndPortToFlink() throws Exception {
        assertThat(PrometheusReporterSettings.controllerSettings(9300)).isEqualTo(Map.of(
                "flink.metrics.reporter.prom.factory.class", "org.apache.flink.metrics.prometheus.PrometheusReporterFactory",
                "flink.metrics.reporter.prom.port", "9300"));
        // on this module's classpath, so on the MiniCluster's
        assertThat(Class.forName(PrometheusReporterSettings.FACTORY_CLASS)).isNotNull();
    }

    @Test
    void flinkEntries_portOutOfRange_namesThePort() {
        assertThatThrownBy(() -> PrometheusReporterSettings.flinkEntries(70_000))
                .hasMessage("metrics port (70000) must be in 1..65535");
        assertThatThrownBy(() -> PrometheusReporterSettings.requireFlag(-1))
                .hasMessage("--metrics-port (-1) must be in 1..65535, or 0 for none");
        assertThat(PrometheusReporterSettings.requireFlag(0)).isZero();
    }
}
