package dev.nona.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.nona.check.Checks;
import dev.nona.twin.ExecutorTwin;
import dev.nona.twin.ServerClassSpecs;
import dev.nona.twin.TwinExecutor;
import dev.nona.twin.TwinOptions;
import dev.nona.workload.ColdStartCost;
import dev.nona.workload.ServerClass;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nona executor --bootstrap H:P [--servers N] [--ops-per-second X] [--link-bits-per-second Y]
 * [--cache-slots K] [--cold-start-seconds C] [--server-class NAME:COUNT:OPS_PER_SECOND:MEMORY_BYTES]...
 * [--cold-start FIXED_SECONDS:LOAD_BYTES_PER_SECOND] [--slow-server ID:FACTOR]... [--silence-server ID:AT_SECONDS]...}:
 * the executor twin (docs/executor.md). With {@code --server-class} (or {@code --cold-start}) the servers cache model
 * parts by bytes instead of model slots. Runs until interrupted (or {@code --seconds}), lets the requests it
 * received end (each gets an outcome, within the timeout), then prints its counters as JSON.
 */
@Command(name = "executor", mixinStandardHelpOptions = true,
        description = "Run the executor twin: execute placement-decisions on a simulated cluster in wall-clock time, "
                + "publish placement-outcomes and cluster-telemetry.")
final class ExecutorCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--bootstrap", required = true, paramLabel = "H:P", description = "Kafka bootstrap servers")
    String bootstrap;

    @Option(names = "--servers", paramLabel = "N", defaultValue = "4",
            description = "servers s-0 .. s-(N-1) (default: ${DEFAULT-VALUE})")
    int servers;

    @Option(names = "--ops-per-second", paramLabel = "X", defaultValue = "1.0e12",
            description = "every server's nominal compute rate (default: ${DEFAULT-VALUE})")
    double opsPerSecond;

    @Option(names = "--link-bits-per-second", paramLabel = "Y", defaultValue = "1.0e10",
            description = "the bottleneck link's capacity (default: ${DEFAULT-VALUE})")
    double linkBitsPerSecond;

    @Option(names = "--cache-slots", paramLabel = "K", defaultValue = "3",
            description = "models each server holds loaded (LRU); 0: no caches, no cold starts (default: ${DEFAULT-VALUE})")
    int cacheSlots;

    @Option(names = "--cold-start-seconds", paramLabel = "C", defaultValue = "0.5",
            description = "time to load a model on a server that does not hold it (default: ${DEFAULT-VALUE})")
    double coldStartSeconds;

    @Option(names = "--server-class", paramLabel = "NAME:COUNT:OPS_PER_SECOND:MEMORY_BYTES",
            description = "COUNT servers of class NAME, each computing OPS_PER_SECOND with MEMORY_BYTES for model parts "
                    + "(numbered class by class); repeatable; replaces --servers and --ops-per-second, and the servers "
                    + "cache parts by bytes instead of --cache-slots")
    List<String> serverClasses = new ArrayList<>();

    @Option(names = "--cold-start", paramLabel = "FIXED_SECONDS:LOAD_BYTES_PER_SECOND",
            description = "loading a part of b bytes not held on its server takes FIXED_SECONDS + b / LOAD_BYTES_PER_SECOND "
                    + "(caches by bytes; replaces --cold-start-seconds; default with --server-class: loads take no time)")
    String coldStart;

    @Mixin
    TwinFaultOptions faults = new TwinFaultOptions();

    @Option(names = "--timeout-seconds", paramLabel = "T", defaultValue = "10",
            description = "a request not complete T s after its decision arrived gets a timeout outcome "
                    + "(default: ${DEFAULT-VALUE})")
    double timeoutSeconds;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "0",
            description = "stop after S seconds; 0 runs until interrupted (default: ${DEFAULT-VALUE})")
    double seconds;

    @Option(names = "--from-beginning",
            description = "execute the decisions already on placement-decisions too (default: only new ones)")
    boolean fromBeginning;

    @Override
    public Integer call() throws Exception {
        Checks.nonNegative(seconds, "--seconds");
        TwinOptions options = options();
        CountDownLatch done = new CountDownLatch(1);
        try (ExecutorTwin twin = new ExecutorTwin(bootstrap, options, fromBeginning, System::currentTimeMillis)) {
            long drainMillis = Math.round(timeoutSeconds * 1000) + 5_000;
            Thread hook = new Thread(() -> {
                twin.stop();
                awaitQuietly(done, drainMillis);
            }, "nona-executor-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            try {
                TwinExecutor.Summary summary = twin.run(seconds > 0 ? Duration.ofMillis(Math.round(seconds * 1000)) : null);
                spec.commandLine().getOut().println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                        .writeValueAsString(summary));
                spec.commandLine().getOut().flush();
            } finally {
                done.countDown(); // after the summary is out: a shutdown hook waits for it
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it waits for this method
            }
        }
        return 0;
    }

    /** The twin's options: model slots as before, or with --server-class/--cold-start caches of parts by bytes. */
    TwinOptions options() {
        if (serverClasses.isEmpty() && coldStart == null) {
            return new TwinOptions(servers, opsPerSecond, linkBitsPerSecond, cacheSlots, coldStartSeconds,
                    timeoutSeconds, faults.slow(), faults.silence());
        }
        refuse("--cache-slots", "--cold-start-seconds");
        List<ServerClass> classes;
        if (serverClasses.isEmpty()) {
            classes = List.of(new ServerClass(ServerClass.DEFAULT_NAME, servers, opsPerSecond, ServerClass.UNBOUNDED));
        } else {
            refuse("--servers", "--ops-per-second");
            classes = ServerClassSpecs.parseClasses(serverClasses);
        }
        ColdStartCost cost = coldStart == null ? null : ServerClassSpecs.parseColdStart(coldStart);
        return TwinOptions.ofClasses(classes, cost, linkBitsPerSecond, timeoutSeconds, faults.slow(), faults.silence());
    }

    /** Options that mean nothing with --server-class or --cold-start are errors when given. */
    private void refuse(String... options) {
        for (String option : options) {
            if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
                throw new IllegalArgumentException(option + " cannot be used with "
                        + (serverClasses.isEmpty() ? "--cold-start" : "--server-class")
                        + " (the servers cache model parts by bytes; their classes give their number and speed)");
            }
        }
    }

    private static void awaitQuietly(CountDownLatch done, long millis) {
        try {
            done.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
