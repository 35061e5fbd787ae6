package dev.nona.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.DecisionDelivery;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the latency benchmark asks of the controller: its defaults, but for what the command line says. */
final class LatencyBenchmarkSettingsTest {
    private static LatencyBenchmark.Settings settings(Map<String, String> extra) {
        return new LatencyBenchmark.Settings(1000, 10, 16, List.of("fig1"), DecisionDelivery.EXACTLY_ONCE,
                Duration.ofMillis(200), 3, extra);
    }

    @Test
    void checkpointStorage_isTheControllersDefault_unlessSet() {
        Map<String, String> m = LatencyBenchmark.controllerSettings(settings(Map.of()), "127.0.0.1:9092");
        assertThat(m).doesNotContainKey("checkpoint.dir")
                .containsEntry("decisions.delivery", "exactly-once").containsEntry("checkpoint.interval", "200ms");
        assertThat(LatencyBenchmark.controllerSettings(settings(Map.of("checkpoint.dir", "file:///tmp/cp")), "b:1"))
                .containsEntry("checkpoint.dir", "file:///tmp/cp");
    }
}
