package dev.nona.cli;

import dev.nona.check.Checks;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.nona.demo.Demo;
import dev.nona.demo.DemoScenario;
import dev.nona.demo.DemoSummary;
import dev.nona.demo.DemoWorkload;
import dev.nona.local.PrometheusReporterSettings;
import dev.nona.workload.WorkloadReader;
import dev.nona.twin.TwinOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nona demo [--workload F] [--seconds S] [--summary-json FILE] [--metrics-port P] [--dashboard[=P]] [--baseline POLICY] [--slow-server ID:FACTOR]...
 * [--silence-server ID:AT]...}:
 * starts a real Kafka broker, creates the topics, runs the controller on a local MiniCluster and the executor twin
 * (which executes the decisions and publishes the servers' telemetry and the outcomes), publishes requests for the
 * five zoo models (with a rate shift at half time and a few malformed records), shows a live view on stderr and
 * prints the summary as JSON on stdout. With {@code --workload F} it runs the workload file's cluster (server classes,
 * memory, cold starts) and models instead ({@link DemoWorkload}). Exits 1 when a valid request was not decided exactly
 * once or a malformed one is not a dead letter, or when a decision put a part on a server whose memory cannot hold it.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run the controller end to end on a real Kafka broker and a local Flink MiniCluster.")
final class DemoCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "60",
            description = "how long requests are published (default: ${DEFAULT-VALUE}; rates shift at half time)")
    int seconds;

    @Option(names = "--workload", paramLabel = "F",
            description = "run the workload file's cluster (serverClasses or servers + opsPerSecond, coldStart) and models "
                    + "(DAGs, sizeBytes, rates, constant) instead of the five zoo models on four servers")
    Path workload;

    @Option(names = "--summary-json", paramLabel = "FILE", description = "also write the summary to FILE")
    Path summaryJson;

    @Option(names = "--metrics-port", paramLabel = "P", defaultValue = "0",
            description = "serve the controller's metrics with Flink's Prometheus reporter on http://localhost:P/metrics "
                    + "(default: off)")
    int metricsPort;

    @Mixin
    TwinFaultOptions faults = new TwinFaultOptions();

    @Option(names = "--baseline", paramLabel = "POLICY", defaultValue = "spark-fair",
            description = "replay the same arrivals through a fresh twin under this simulator policy (random, "
                    + "spark-fair, local, jsq, p2c) and report its observed JCT (default: ${DEFAULT-VALUE})")
    String baseline;

    @Option(names = "--dashboard", paramLabel = "P", arity = "0..1", fallbackValue = "" + DashboardCommand.DEFAULT_PORT,
            description = "also serve the live page (bin/nona dashboard) on http://localhost:P/ and print its URL "
                    + "(P defaults to " + DashboardCommand.DEFAULT_PORT + "; 0 for any free port)")
    Integer dashboardPort;

    @Override
    public Integer call() throws Exception {
        if (seconds < 4) {
            throw new IllegalArgumentException("--seconds (" + seconds + ") must be >= 4");
        }
        PrometheusReporterSettings.requireFlag(metricsPort);
        if (dashboardPort != null) {
            Checks.portOrZero(dashboardPort, "--dashboard");
        }
        if (summaryJson != null) {
            OutputPaths.file("--summary-json", summaryJson);
        }
        Demo demo;
        if (workload == null) {
            DemoScenario scenario = DemoScenario.standard(Duration.ofSeconds(seconds));
            TwinOptions twin = Demo.twinOptions(scenario, faults.slow(), faults.silence());
            demo = new Demo(scenario, twin, baseline, System.err, metricsPort);
        } else {
            DemoWorkload w = DemoWorkload.of(WorkloadReader.read(workload), Duration.ofSeconds(seconds), faults.slow(),
                    faults.silence());
            demo = new Demo(w, baseline, System.err, metricsPort);
        }
        DemoSummary summary = demo.withDashboard(dashboardPort).run();
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
        String text = json.writeValueAsString(summary);
        if (summaryJson != null) {
            Files.writeString(summaryJson, text + System.lineSeparator());
        }
        spec.commandLine().getOut().println(text);
        if (summary.missingOutcomes() > 0) {
            spec.commandLine().getErr().printf("nona: demo: %d decided requests have no outcome from the executor twin%n",
                    summary.missingOutcomes());
        }
        if (!summary.exactlyOnce()) {
            spec.commandLine().getErr().printf("nona: demo: exactly-once check failed: lost %d, duplicates %d, "
                    + "unexpected %d, dead letters %d of %d malformed%n", summary.lostDecisions(),
                    summary.duplicateDecisions(), summary.unexpectedDecisions(), summary.deadLetters(),
                    summary.malformedPublished());
            return 1;
        }
        if (summary.memory() != null && summary.memory().memoryViolations() > 0) {
            spec.commandLine().getErr().printf("nona: demo: %d decisions put a part on a server whose memory cannot "
                    + "hold it (the twin ran none of them)%n", summary.memory().memoryViolations());
            return 1;
        }
        return 0;
    }
}
