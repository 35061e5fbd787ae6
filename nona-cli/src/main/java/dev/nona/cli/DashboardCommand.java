package dev.nona.cli;

import dev.nona.check.Checks;
import dev.nona.controller.ControllerOptions;
import dev.nona.dashboard.Dashboard;
import dev.nona.topics.admin.KafkaClientConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.flink.util.TimeUtils;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nona dashboard --bootstrap HOST:PORT [--config FILE] [--port P] [--host H] [--liveness-timeout D]}: serves the live page
 * (see {@link Dashboard}) until interrupted. Prints {@code {"url": ...}} on stdout once it serves.
 */
@Command(name = "dashboard", mixinStandardHelpOptions = true,
        description = "Serve a live page of the controller's topics: rates, tables, JCT, servers, events.")
final class DashboardCommand implements Callable<Integer> {
    /** The page's default port. */
    static final int DEFAULT_PORT = 8080;

    @Spec
    CommandSpec spec;

    @Option(names = "--bootstrap", required = true, description = "Kafka bootstrap servers, HOST:PORT[,HOST:PORT...]")
    String bootstrap;

    @Option(names = "--config", paramLabel = "FILE",
            description = "Kafka client properties passed to the consumer as-is (security.protocol, sasl.*, ssl.*, ...)")
    Path config;

    @Option(names = "--port", paramLabel = "P", defaultValue = "" + DEFAULT_PORT,
            description = "HTTP port of the page (default: ${DEFAULT-VALUE}; 0 for any free port)")
    int port;

    @Option(names = "--host", paramLabel = "H", defaultValue = "localhost",
            description = "address to listen on (default: ${DEFAULT-VALUE}; 0.0.0.0 for every interface)")
    String host;

    @Option(names = "--liveness-timeout", paramLabel = "D",
            description = "a server not heard from for longer is shown silent, e.g. 3s (default: the controller's "
                    + "cluster.liveness-timeout)")
    String livenessTimeout;

    @Override
    public Integer call() throws Exception {
        Checks.portOrZero(port, "--port");
        Duration liveness = livenessTimeout == null ? ControllerOptions.CLUSTER_LIVENESS_TIMEOUT.defaultValue()
                : parseDuration(livenessTimeout);
        CountDownLatch stopped = new CountDownLatch(1);
        Properties client = KafkaClientConfig.load(config, bootstrap);
        try (Dashboard dashboard = Dashboard.start(bootstrap, client, host, port, liveness)) {
            Thread hook = new Thread(stopped::countDown, "nona-dashboard-stop");
            Runtime.getRuntime().addShutdownHook(hook);
            spec.commandLine().getOut().println("{\"url\":\"" + dashboard.url() + "\"}");
            spec.commandLine().getOut().flush();
            stopped.await();
        }
        return 0;
    }

    private static Duration parseDuration(String text) {
        Duration d;
        try {
            d = TimeUtils.parseDuration(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--liveness-timeout (" + text + ") is not a duration like 3s or 500ms");
        }
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException("--liveness-timeout (" + text + ") must be > 0");
        }
        return d;
    }
}
