package dev.nona.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.bench.RecoveryBenchmark;
import dev.nona.local.LocalKafkaBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nona bench recovery --fault controller-kill}: {@code bin/nona run} as a child process against the project's
 * real broker (a throwaway {@link LocalKafkaBroker}, or {@code --bootstrap}), killed with SIGKILL mid-stream and
 * started again with the same state directory ({@link RecoveryBenchmark}); one JSON object on stdout.
 */
@Command(name = "recovery", mixinStandardHelpOptions = true,
        description = "Kill the controller process (kill -9) mid-stream, start it again, and measure the recovery.")
final class BenchRecoveryCommand implements Callable<Integer> {
    @Option(names = "--fault", defaultValue = "controller-kill",
            description = "The fault: controller-kill (default ${DEFAULT-VALUE})")
    String fault;

    @Option(names = "--rate", defaultValue = "1000", description = "Requests per second (default ${DEFAULT-VALUE})")
    double rate;

    @Option(names = "--seconds", defaultValue = "90", description = "Seconds of requests (default ${DEFAULT-VALUE})")
    int seconds;

    @Option(names = "--kill-at", defaultValue = "20", description = "Second of the kill (default ${DEFAULT-VALUE})")
    int killAt;

    @Option(names = "--fresh", description = "Start the killed controller again with --fresh (not from its checkpoint)")
    boolean fresh;

    @Option(names = "--bootstrap", description = "An existing broker (default: a throwaway local broker)")
    String bootstrap;

    @Option(names = "--work-dir", paramLabel = "DIR", description = "The controller's working directory, state "
            + "directory and logs (default: a new temporary directory)")
    Path workDir;

    @Option(names = "--set", description = "Controller configuration KEY=VALUE (docs/controller.md), repeatable")
    Map<String, String> settings = new LinkedHashMap<>();

    @Mixin
    BenchCommand.Workload workload;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!fault.equals("controller-kill")) {
            throw new IllegalArgumentException("--fault (" + fault + ") must be controller-kill");
        }
        Path dir = workDir != null ? workDir : Files.createTempDirectory("nona-recovery-");
        Map<String, String> controller = new LinkedHashMap<>();
        controller.put("controller.id", "nona-recovery");
        controller.put("source.start-from-earliest", "false"); // not an earlier run's requests
        controller.putAll(settings);
        RecoveryBenchmark.Settings s = new RecoveryBenchmark.Settings(rate, seconds, killAt, workload.servers,
                workload.models, controller, dir, fresh);
        RecoveryBenchmark.Result r;
        if (bootstrap != null) {
            r = RecoveryBenchmark.run(s, bootstrap);
        } else {
            try (LocalKafkaBroker broker = LocalKafkaBroker.builder().dataDir(dir.resolve("kafka")).build().start()) {
                r = RecoveryBenchmark.run(s, broker.bootstrapServers());
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("fault", fault);
        out.put("rate", rate);
        out.put("seconds", seconds);
        out.put("killAtSecond", killAt);
        out.put("fresh", fresh);
        out.putAll(r.toJson());
        out.put("workDir", dir.toString());
        out.put("settings", controller);
        spec.commandLine().getOut().println(new ObjectMapper().writeValueAsString(out));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
