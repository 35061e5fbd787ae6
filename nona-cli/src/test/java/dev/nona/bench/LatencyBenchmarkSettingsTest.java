package dev.nona.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.controller.DecisionDelivery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    @Test
    void brokerDir_given_isUsedAsIs(@TempDir Path dir) {
        LatencyBenchmark.Settings s = new LatencyBenchmark.Settings(1000, 10, 16, List.of("fig1"),
                DecisionDelivery.AT_LEAST_ONCE, Duration.ofSeconds(10), 3, Map.of(), Optional.of(dir));
        assertThat(LatencyBenchmark.brokerParent(s)).isEqualTo(dir);
    }

    @Test
    void brokerDir_aFile_isAnErrorNamingTheFlagAndValue(@TempDir Path dir) throws Exception {
        Path file = Files.createFile(dir.resolve("not-a-dir"));
        assertThatThrownBy(() -> new LatencyBenchmark.Settings(1000, 10, 16, List.of("fig1"),
                DecisionDelivery.AT_LEAST_ONCE, Duration.ofSeconds(10), 3, Map.of(), Optional.of(file)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--broker-dir")
                .hasMessageContaining(file.toString());
    }

    @Test
    void brokerDir_default_isMemoryOnlyWithRoomForTheRun() throws Exception {
        LatencyBenchmark.Settings small = settings(Map.of());
        LatencyBenchmark.Settings huge = new LatencyBenchmark.Settings(1e6, 1_000, 16, List.of("fig1"),
                DecisionDelivery.AT_LEAST_ONCE, Duration.ofSeconds(10), 3, Map.of());
        // 1,000/s for 10 + 3 + 30 s at 4 kB, plus 256 MiB
        assertThat(LatencyBenchmark.bytesNeeded(small)).isEqualTo(1000L * 43 * 4096 + (256L << 20));
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        assertThat(LatencyBenchmark.brokerParent(huge)).as("4 TB do not fit in memory").isEqualTo(tmp);
        Path shm = LatencyBenchmark.SHARED_MEMORY;
        boolean roomy = Files.isDirectory(shm) && Files.isWritable(shm)
                && Files.getFileStore(shm).getUsableSpace() >= LatencyBenchmark.bytesNeeded(small);
        assertThat(LatencyBenchmark.brokerParent(small)).isEqualTo(roomy ? shm : tmp);
        if (roomy) {
            assertThat(LatencyBenchmark.storage(shm)).isEqualTo("memory");
        }
    }

    @Test
    void badInputRate_negativeOrInfinite_isAnErrorNamingTheFlagAndValue() {
        for (double bad : new double[] {-1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> new LatencyBenchmark.Settings(1000, 10, 16, List.of("fig1"),
                    DecisionDelivery.AT_LEAST_ONCE, Duration.ofSeconds(10), 3, Map.of(), Optional.empty(), bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("--bad-input-rate (" + bad + ") must be finite and >= 0");
        }
    }

    @Test
    void badInputRate_addsItsRecordsToTheBrokersRoom() {
        LatencyBenchmark.Settings bad = new LatencyBenchmark.Settings(1000, 10, 16, List.of("fig1"),
                DecisionDelivery.AT_LEAST_ONCE, Duration.ofMillis(200), 3, Map.of(), Optional.empty(), 500);
        assertThat(LatencyBenchmark.bytesNeeded(bad) - LatencyBenchmark.bytesNeeded(settings(Map.of())))
                .isEqualTo(500L * 10 * LatencyBenchmark.BYTES_PER_BAD_RECORD);
    }

    private static LatencyBenchmark.Settings burst(int seconds, double rate, long count) {
        return new LatencyBenchmark.Settings(1000, seconds, 16, List.of("fig1"), DecisionDelivery.AT_LEAST_ONCE,
                Duration.ofMillis(200), 3, Map.of(), Optional.empty(), rate, true, true, count);
    }

    @Test
    void burstWindow_startsAtTheMiddleSecond_andLastsAsLongAsTheBurstAtItsRate() {
        assertThat(burst(20, 1000, 1000).burstWindow()).containsExactly(10, 11);
        assertThat(burst(20, 1000, 2500).burstWindow()).containsExactly(10, 13);
        assertThat(burst(21, 0, 0).burstWindow()).as("no burst: the middle second").containsExactly(10, 11);
        assertThat(burst(20, 1000, 0).burstWindow()).as("unbounded: the middle second").containsExactly(10, 11);
    }

    @Test
    void badInputCount_negative_withoutARate_orLongerThanTheSecondHalf_isAnErrorNamingTheFlag() {
        assertThatThrownBy(() -> burst(20, 1000, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--bad-input-count (-1) must be >= 0");
        assertThatThrownBy(() -> burst(20, 0, 1000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--bad-input-count (1000) needs --bad-input-rate");
        assertThatThrownBy(() -> burst(20, 1000, 10_001)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--bad-input-count (10001)").hasMessageContaining("--seconds (20)");
        assertThat(burst(20, 1000, 10_000).burstWindow()).containsExactly(10, 20);
    }
}
