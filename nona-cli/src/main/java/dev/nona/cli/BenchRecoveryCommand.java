package dev.nona.cli;

import dev.nona.check.Checks;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.bench.ControllerOnCluster;
import dev.nona.bench.RecoveryBenchmark;
import dev.nona.local.LocalKafkaBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nona bench recovery --fault controller-kill|broker-kill|taskmanager-kill}: one fault injected mid-stream
 * against the controller and the project's real broker ({@link RecoveryBenchmark}): the controller process
 * ({@code bin/nona run} as a child process) killed with SIGKILL and started again with the same state directory; the
 * bench's own broker (a {@link LocalKafkaBroker} child JVM) killed with SIGKILL and started again on the same data
 * directory and port after {@code --down-seconds}; or the TaskManager running the controller job on a multi-process
 * Flink cluster killed with SIGKILL. One JSON object on stdout.
 */
@Command(name = "recovery", mixinStandardHelpOptions = true,
        description = "Inject a fault (kill -9 of the controller process, the broker or a TaskManager) mid-stream and "
                + "measure the recovery.")
final class BenchRecoveryCommand implements Callable<Integer> {
    static final List<String> FAULTS = List.of("controller-kill", "broker-kill", "taskmanager-kill");

    @Option(names = "--fault", defaultValue = "controller-kill",
            description = "controller-kill, broker-kill or taskmanager-kill (default ${DEFAULT-VALUE})")
    String fault;

    @Option(names = "--seconds", defaultValue = "90", description = "Seconds of requests (default ${DEFAULT-VALUE})")
    int seconds;

    @Option(names = "--kill-at", defaultValue = "20", description = "Second of the kill (default ${DEFAULT-VALUE})")
    int killAt;

    @Option(names = "--down-seconds", defaultValue = "10",
            description = "broker-kill: seconds the broker stays down (default ${DEFAULT-VALUE})")
    int downSeconds;

    @Option(names = "--fresh", description = "controller-kill: start the killed controller again with --fresh (not "
            + "from its checkpoint)")
    boolean fresh;

    @Option(names = "--job-jar", paramLabel = "JAR", description = "taskmanager-kill: the controller's job jar "
            + "(default: flink-jobs/target/flink-jobs-*-job.jar above the working directory or this program)")
    Path jobJar;

    @Option(names = "--bootstrap", description = "An existing broker (default: a throwaway local broker; not with "
            + "broker-kill, which kills the bench's own)")
    String bootstrap;

    @Option(names = "--work-dir", paramLabel = "DIR", description = "The controller's working directory, state "
            + "directory and logs (default: a new temporary directory)")
    Path workDir;

    @Mixin
    BenchCommand.Workload workload;

    @Mixin
    BenchCommand.ControllerRun run;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!FAULTS.contains(fault)) {
            throw new IllegalArgumentException("--fault (" + fault + ") must be one of " + String.join(", ", FAULTS));
        }
        if (fault.equals("broker-kill") && bootstrap != null) {
            throw new IllegalArgumentException("--bootstrap (" + bootstrap + ") cannot be used with --fault "
                    + "broker-kill: the bench kills and restarts its own broker");
        }
        Checks.atLeastOne(downSeconds, "--down-seconds");
        Path jar = null;
        if (fault.equals("taskmanager-kill")) {
            jar = jobJar != null ? jobJar : ControllerOnCluster.findJobJar().orElseThrow(() ->
                    new IllegalArgumentException("no job jar (flink-jobs/target/flink-jobs-*-job.jar): build it with "
                            + "mvn -B -DskipTests package, or name it with --job-jar"));
        }
        Path dir = workDir != null ? OutputPaths.directory("--work-dir", workDir)
                : Files.createTempDirectory("nona-recovery-");
        Map<String, String> controller = run.controllerSettings("nona-recovery", Map.of());
        RecoveryBenchmark.Settings s = new RecoveryBenchmark.Settings(run.rate, seconds, killAt, workload.servers,
                workload.models, controller, dir, fresh);
        RecoveryBenchmark.Result r;
        if (bootstrap != null) {
            r = run(s, bootstrap, jar);
        } else {
            // the broker may take minutes to start, and to start again after a kill, on a loaded machine
            try (LocalKafkaBroker broker = LocalKafkaBroker.builder().dataDir(dir.resolve("kafka"))
                    .startTimeout(Duration.ofMinutes(5)).build().start()) {
                r = fault.equals("broker-kill")
                        ? RecoveryBenchmark.runBrokerKill(s, broker, Duration.ofSeconds(downSeconds))
                        : run(s, broker.bootstrapServers(), jar);
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("fault", fault);
        out.put("rate", run.rate);
        out.put("seconds", seconds);
        out.put("killAtSecond", killAt);
        if (fault.equals("controller-kill")) {
            out.put("fresh", fresh);
        }
        out.putAll(r.toJson());
        out.put("workDir", dir.toString());
        out.put("settings", controller);
        spec.commandLine().getOut().println(new ObjectMapper().writeValueAsString(out));
        spec.commandLine().getOut().flush();
        return 0;
    }

    private RecoveryBenchmark.Result run(RecoveryBenchmark.Settings s, String broker, Path jar) throws Exception {
        return fault.equals("taskmanager-kill") ? RecoveryBenchmark.runTaskManagerKill(s, broker, jar)
                : RecoveryBenchmark.runControllerKill(s, broker);
    }
}
