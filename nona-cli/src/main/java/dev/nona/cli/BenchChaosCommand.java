package dev.nona.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.chaos.ChaosResult;
import dev.nona.chaos.ChaosRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nona bench chaos --seed S --minutes M}: a seeded fault schedule over traffic against {@code bin/nona run}
 * and the project's broker, both child processes ({@link ChaosRun}); the seed and each fault on stderr as it goes,
 * one JSON object on stdout at the end; exit code 1 when an invariant broke.
 */
@Command(name = "chaos", mixinStandardHelpOptions = true,
        description = "Play a seeded, randomised fault schedule (broker and controller kill -9, telemetry stall, "
                + "malformed burst, servers falling silent) over traffic, checking the invariants as it goes.")
final class BenchChaosCommand implements Callable<Integer> {
    @Option(names = "--seed", description = "The schedule's seed (default: a random one, printed); the same seed "
            + "replays the same schedule")
    Long seed;

    @Option(names = "--minutes", defaultValue = "5", description = "Minutes of traffic, >= 1 (default ${DEFAULT-VALUE})")
    double minutes;

    @Option(names = "--work-dir", paramLabel = "DIR", description = "Broker data, controller state directory and "
            + "logs (default: a new temporary directory)")
    Path workDir;

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
        long s = seed != null ? seed : ThreadLocalRandom.current().nextLong();
        System.err.println("nona chaos: seed " + s + " (replay: bin/nona bench chaos --seed " + s + " --minutes "
                + minutes + " --servers " + workload.servers + ")");
        Path dir = workDir != null ? workDir : Files.createTempDirectory("nona-chaos-");
        ChaosResult r = ChaosRun.run(new ChaosRun.Settings(s, (int) Math.round(minutes * 60), run.rate,
                workload.servers, workload.models, ChaosRun.controllerSettings(run.settings), dir),
                line -> System.err.println("nona chaos: " + line));
        spec.commandLine().getOut().println(new ObjectMapper().writeValueAsString(r.toJson()));
        spec.commandLine().getOut().flush();
        return r.held() ? 0 : 1;
    }
}
