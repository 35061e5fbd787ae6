package dev.nona.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.local.StateDirectory;
import dev.nona.topics.testing.InProcessKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/nona run} as a child process against a real (in-process KRaft) broker, killed with SIGKILL mid-stream
 * and started again with the same state directory ({@link RecoveryBenchmark}): every request decided, none
 * dead-lettered, and the restart says where it resumed from; restarted with {@code --fresh}, it places the first
 * request after the restart under the newest solved table it read from {@code placement-tables}.
 */
final class ControllerRestartIT {
    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    private static RecoveryBenchmark.Settings settings(Path dir, String controllerId, boolean fresh) {
        return new RecoveryBenchmark.Settings(300, 16, 6, 8, List.of("resnet18", "gpt2"),
                Map.of("controller.id", controllerId, "rates.window", "5s", "checkpoint.interval", "1s",
                        "source.start-from-earliest", "false"),
                dir, fresh);
    }

    @Test
    void killAndRestart_resumesFromTheNewestCheckpoint_everyRequestDecided_noneDeadLettered(@TempDir Path dir)
            throws Exception {
        RecoveryBenchmark.Result r = RecoveryBenchmark.runControllerKill(settings(dir, "restart-it", false), KAFKA.bootstrapServers());
        System.out.println("controller kill -9 and restart (resume): " + r.toJson());
        assertThat(r.undecided()).as("requests without a decision: %s", r.toJson()).isZero();
        assertThat(r.decided()).isEqualTo(r.sent());
        assertThat(r.deadLettered()).as("valid requests dead-lettered: %s", r.deadLetterReasons()).isZero();
        assertThat(r.resumedFrom()).as("the CONTROLLER_STARTED event of the restart names its checkpoint: %s",
                r.toJson()).contains(dir.resolve("state").toString()).contains("chk-");

        // a third start resumes from the second run's checkpoint and deletes the first run's folder: the state
        // directory keeps about two runs' checkpoints however often the controller restarts
        Path state = dir.resolve("state");
        List<Path> runs = jobFolders(state);
        assertThat(runs).as("the job folders of the two runs").hasSize(2);
        Path second = new StateDirectory(state).latest().checkpoint().getParent();
        Path first = runs.stream().filter(p -> !p.equals(second)).findFirst().orElseThrow();
        try (ControllerChildJvm third = new ControllerChildJvm(KAFKA.bootstrapServers(),
                settings(dir, "restart-it", false).controller(), dir)) {
            third.start(false);
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            Path newest = second;
            while (newest.equals(second) && System.nanoTime() < deadline && third.isAlive()) {
                Thread.sleep(200);
                newest = new StateDirectory(state).latest().checkpoint().getParent();
            }
            assertThat(newest).as("a checkpoint of the third run, restored from the second's: %s", third.logTail(3000))
                    .isNotEqualTo(second);
            assertThat(first).as("the first run's folder, deleted at the third start").doesNotExist();
            assertThat(jobFolders(state)).containsExactlyInAnyOrder(second, newest);
            assertThat(third.logTail(100_000)).contains("Deleted " + first);
        }
    }

    /** The folders of the runs' jobs in state directory {@code state}. */
    private static List<Path> jobFolders(Path state) throws Exception {
        try (Stream<Path> all = Files.list(state)) {
            return all.filter(Files::isDirectory).toList();
        }
    }

    @Test
    void killAndFreshRestart_placesUnderTheNewestSolvedTable_noneDeadLettered(@TempDir Path dir) throws Exception {
        RecoveryBenchmark.Result r = RecoveryBenchmark.runControllerKill(settings(dir, "fresh-it", true), KAFKA.bootstrapServers());
        System.out.println("controller kill -9 and restart (--fresh): " + r.toJson());
        assertThat(r.deadLettered()).as("valid requests dead-lettered: %s", r.deadLetterReasons()).isZero();
        assertThat(r.undecided()).as("requests without a decision: %s", r.toJson()).isZero();
        assertThat(r.startReason()).isEqualTo("--fresh");
        assertThat(r.resumedFrom()).isEmpty();
        assertThat(r.firstDecisionFallback()).as("the first decision after the fresh restart: %s", r.toJson()).isFalse();
        assertThat(r.startTableVersion()).as("the table read from placement-tables before the restart placed").isPositive();
        assertThat(r.firstDecisionTableVersion()).isPositive();
    }
}
