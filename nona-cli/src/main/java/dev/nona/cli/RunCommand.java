package dev.nona.cli;

import dev.nona.controller.ControllerConfig;
import dev.nona.controller.ControllerMain;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nona run --bootstrap HOST:PORT [--config FILE]}: runs the controller against an existing Kafka, on a local
 * MiniCluster (or on the cluster named by {@code flink.execution.target} and friends in the config file).
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run the placement controller against an existing Kafka (local Flink MiniCluster by default).")
final class RunCommand implements Callable<Integer> {
    @Option(names = "--bootstrap", required = true, description = "Kafka bootstrap servers, HOST:PORT[,HOST:PORT...]")
    String bootstrap;

    @Option(names = "--config", description = "Controller properties file (see docs/controller.md)")
    Path config;

    @Override
    public Integer call() throws Exception {
        ControllerConfig cfg = config == null
                ? ControllerConfig.fromMap(Map.of("bootstrap.servers", bootstrap))
                : ControllerConfig.load(config, bootstrap);
        ControllerMain.run(cfg);
        return 0;
    }
}
