package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.local.PrometheusReporterSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;
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
    }
}
