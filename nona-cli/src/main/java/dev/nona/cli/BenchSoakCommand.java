package dev.nona.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.bench.SoakBenchmark;
import dev.nona.topics.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nona bench soak --minutes 30}: the closed loop (a throwaway real broker, {@code bin/nona run} as a child
 * process with a state directory, the executor twin) at a steady rate, with the controller's heap after GC, its
 * checkpoint size and the p99 per minute and the growth of each over the run ({@link SoakBenchmark}). One JSON
 * object on stdout, a line per minute and a one-line summary on stderr.
 */
@Command(name = "soak", mixinStandardHelpOptions = true,
        description = "Run the closed loop at a steady rate for many minutes; report heap after GC, checkpoint size "
                + "and p99 per minute and the growth of each over the run.")
final class BenchSoakCommand implements Callable<Integer> {
    @Option(names = "--minutes", defaultValue = "30", description = "Minutes of requests (default ${DEFAULT-VALUE})")
    int minutes;

    @Option(names = "--warmup-minutes", defaultValue = "2",
            description = "First minutes left out of the growth figures (default ${DEFAULT-VALUE})")
    int warmupMinutes;

    @Option(names = "--interval-seconds", defaultValue = "60",
            description = "Seconds per sampled \"minute\"; shorter for a quick check (default ${DEFAULT-VALUE})")
    int intervalSeconds;

    @Option(names = "--work-dir", paramLabel = "DIR", description = "The controller's working directory: settings, "
            + "state directory, logs, GC log (default: a new temporary directory)")
    Path workDir;

    @Option(names = "--broker-dir", paramLabel = "DIR", description = "Where the throwaway broker keeps its log, "
            + "deleted after the run (default: /dev/shm when it has room, else the temporary directory)")
    Path brokerDir;

    @Mixin
    BenchCommand.Workload workload;

    @Mixin
    BenchCommand.ControllerRun run;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        // the loop is closed: the controller learns
        Map<String, String> controller = run.controllerSettings("nona-soak",
                Map.of("topics.outcomes", Topics.PLACEMENT_OUTCOMES.name()));
        Optional<Path> broker = Optional.ofNullable(brokerDir).map(d -> OutputPaths.directory("--broker-dir", d));
        Path dir = workDir != null ? OutputPaths.directory("--work-dir", workDir)
                : Files.createTempDirectory("nona-soak-");
        SoakBenchmark.Settings s;
        try {
            s = new SoakBenchmark.Settings(run.rate, minutes, intervalSeconds, warmupMinutes, workload.servers,
                    workload.models, controller, dir, broker);
        } catch (IllegalArgumentException e) {
            if (workDir == null) {
                Files.deleteIfExists(dir);
            }
            throw e;
        }
        var err = spec.commandLine().getErr();
        SoakBenchmark.Result r = SoakBenchmark.run(s, line -> {
            err.println(line);
            err.flush();
        });
        spec.commandLine().getOut().println(new ObjectMapper().writeValueAsString(r.toJson()));
        spec.commandLine().getOut().flush();
        err.println(r.summary());
        err.flush();
        return 0;
    }
}
