package dev.nona.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.local.LocalKafkaBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/nona run} as a child process against the bench's own broker (a {@link LocalKafkaBroker} child JVM),
 * which is killed with SIGKILL mid-stream and started again on the same data directory and port after 5 s
 * ({@link RecoveryBenchmark#runBrokerKill}); one server falls silent a second before the kill and stays silent. The
 * invariants, not the timings: every request the broker accepted is decided, none is dead-lettered, and no stage goes
 * to the silent server once its liveness timeout has passed (though it got stages while it reported).
 */
final class BrokerKillIT {
    @Test
    void brokerKillNine_everyRequestDecided_noneDeadLettered_noStageOnTheSilentServer(@TempDir Path dir)
            throws Exception {
        RecoveryBenchmark.Settings s = new RecoveryBenchmark.Settings(150, 25, 8, 8, List.of("resnet18", "gpt2"),
                Map.of("controller.id", "broker-kill-it", "rates.window", "5s", "checkpoint.interval", "1s",
                        "source.start-from-earliest", "false"),
                dir, false);
        RecoveryBenchmark.Result r;
        // a broker start took more than 90 s on the shared machine (load 45)
        try (LocalKafkaBroker broker = LocalKafkaBroker.builder().dataDir(dir.resolve("kafka"))
                .startTimeout(Duration.ofMinutes(5)).build().start()) {
            r = RecoveryBenchmark.runBrokerKill(s, broker, Duration.ofSeconds(5));
            assertThat(broker.starts()).as("the broker was started again").isEqualTo(2);
        }
        System.out.println("broker kill -9 and restart: " + r.toJson());
        assertThat(r.sent() + r.sendFailures()).isEqualTo(150 * 25);
        assertThat(r.undecided()).as("requests the broker accepted without a decision: %s", r.toJson()).isZero();
        assertThat(r.decided()).isEqualTo(r.sent());
        assertThat(r.deadLettered()).as("valid requests dead-lettered: %s", r.deadLetterReasons()).isZero();
        assertThat(r.silentServer()).isEqualTo("s7");
        assertThat(r.stagesOnSilentServerWhileLive()).as("the silent server got stages while it reported").isPositive();
        assertThat(r.stagesOnSilentServer()).as("stages on %s after its liveness timeout: %s", r.silentServer(),
                r.toJson()).isZero();
        assertThat(r.firstDecisionMillis()).as("a decision after the broker came back").isNotNaN();
    }
}
