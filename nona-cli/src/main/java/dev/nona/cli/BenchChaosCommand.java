package dev.nona.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.bench.ControllerOnCluster;
import dev.nona.chaos.ChaosOnCluster;
import dev.nona.chaos.ChaosResult;
import dev.nona.chaos.ChaosRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nona bench chaos --seed S --minutes M}: a seeded fault schedule over traffic against {@code bin/nona run}
 * and the project's broker, both child processes ({@link ChaosRun}), or with {@code --on-cluster} against the
 * controller job on a multi-process Flink cluster with ZooKeeper high availability ({@link ChaosOnCluster}); the
 * seed and each fault on stderr as it goes, one JSON object on stdout at the end; exit code 1 when an invariant
 * broke.
 */
@Command(name = "chaos", mixinStandardHelpOptions = true,
        description = "Play a seeded, randomised fault schedule (broker and controller kill -9, telemetry stall, "
                + "malformed burst, servers falling silent; with --on-cluster TaskManager and JobManager kill -9 "
                + "instead of the controller's) over traffic, checking the invariants as it goes.")
final class BenchChaosCommand implements Callable<Integer> {
    @Option(names = "--seed", description = "The schedule's seed (default: a random one, printed); the same seed "
            + "replays the same schedule")
    Long seed;

    @Option(names = "--minutes", defaultValue = "5", description = "Minutes of traffic, >= 1 (default ${DEFAULT-VALUE})")
    double minutes;

    @Option(names = "--work-dir", paramLabel = "DIR", description = "Broker data, controller state directory and "
            + "logs (default: a new temporary directory)")
    Path workDir;

    @Option(names = "--on-cluster", description = "Run the controller job on a multi-process Flink cluster with "
            + "ZooKeeper high availability (two JobManagers, two TaskManagers) and kill its TaskManager and its "
            + "leading JobManager, rather than kill bin/nona run")
    boolean onCluster;

    @Option(names = "--job-jar", paramLabel = "JAR", description = "--on-cluster: the controller's job jar "
            + "(default: flink-jobs/target/flink-jobs-*-job.jar above the working directory or this program)")
    Path jobJar;

    @Mixin
    BenchCommand.Workload workload;

    @Mixin
    BenchCommand.ControllerRun run;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        // the run's own Kafka clients lose the broker on purpose: their reconnect warnings are noise here
        Configurator.setLevel("org.apache.kafka", Level.ERROR);
        if (!(minutes >= 1) || Double.isInfinite(minutes)) {
            throw new IllegalArgumentException("--minutes (" + minutes + ") must be >= 1");
        }
        long s = seed != null ? seed : ThreadLocalRandom.current().nextLong();
        Path jar = null;
        if (onCluster) {
            jar = jobJar != null ? jobJar : ControllerOnCluster.findJobJar().orElseThrow(() ->
                    new IllegalArgumentException("no job jar (flink-jobs/target/flink-jobs-*-job.jar): build it with "
                            + "mvn -B -DskipTests package, or name it with --job-jar"));
        }
        System.err.println("nona chaos: seed " + s + " (replay: bin/nona bench chaos --seed " + s + " --minutes "
                + minutes + " --servers " + workload.servers + (onCluster ? " --on-cluster" : "") + ")");
        Path dir = workDir != null ? OutputPaths.directory("--work-dir", workDir)
                : Files.createTempDirectory("nona-chaos-");
        ChaosRun.Settings settings = new ChaosRun.Settings(s, (int) Math.round(minutes * 60), run.rate,
                workload.servers, workload.models, ChaosRun.controllerSettings(run.settings), dir);
        Consumer<String> log = line -> System.err.println("nona chaos: " + line);
        ChaosResult r = onCluster ? ChaosOnCluster.run(settings, jar, log) : ChaosRun.run(settings, log);
        spec.commandLine().getOut().println(new ObjectMapper().writeValueAsString(r.toJson()));
        spec.commandLine().getOut().flush();
        return r.held() ? 0 : 1;
    }
}
