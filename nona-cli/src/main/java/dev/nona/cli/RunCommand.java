package dev.nona.cli;

import dev.nona.controller.ControllerConfig;
import dev.nona.controller.ControllerMain;
import dev.nona.local.PrometheusReporterSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nona run --bootstrap HOST:PORT [--config FILE] [--metrics-port P]}: runs the controller against an existing
 * Kafka, on a local MiniCluster (or on the cluster named by {@code flink.execution.target} and friends in the config
 * file), with Flink's Prometheus reporter serving the metrics on {@code http://HOST:P/metrics} (9249 by default; 0
 * turns it off; {@code flink.metrics.reporter.*} entries of the config file win).
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run the placement controller against an existing Kafka (local Flink MiniCluster by default).")
final class RunCommand implements Callable<Integer> {
    @Option(names = "--bootstrap", required = true, description = "Kafka bootstrap servers, HOST:PORT[,HOST:PORT...]")
    String bootstrap;

    @Option(names = "--config", description = "Controller properties file (see docs/controller.md)")
    Path config;

    @Option(names = "--metrics-port", paramLabel = "P", defaultValue = "" + PrometheusReporterSettings.DEFAULT_PORT,
            description = "port of Flink's Prometheus reporter, /metrics (default: ${DEFAULT-VALUE}; 0: off)")
    int metricsPort;

    @Override
    public Integer call() throws Exception {
        ControllerMain.run(controllerConfig());
        return 0;
    }

    /** The controller's config: the file's (or the defaults), the bootstrap, and the reporter unless the file sets it. */
    ControllerConfig controllerConfig() throws IOException {
        Map<String, String> defaults = metricsPort == 0 ? Map.of() : PrometheusReporterSettings.controllerSettings(metricsPort);
        return config == null
                ? ControllerConfig.fromMap(withBootstrap(defaults))
                : ControllerConfig.load(config, bootstrap, defaults);
    }

    private Map<String, String> withBootstrap(Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(settings);
        all.put("bootstrap.servers", bootstrap);
        return all;
    }
}
