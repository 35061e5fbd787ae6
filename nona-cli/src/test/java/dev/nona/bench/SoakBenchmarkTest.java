package dev.nona.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SoakBenchmarkTest {
    @Test
    void settings_warmupAsLongAsTheRun_isRefused_namingBothFlags(@TempDir Path dir) {
        assertThatThrownBy(() -> new SoakBenchmark.Settings(1000, 3, 60, 3, 16, List.of("resnet18"), Map.of(), dir,
                Optional.empty())).hasMessage("--warmup-minutes (3) must be >= 0 and < --minutes (3)");
    }

    @Test
    void settings_requests_andEachMinutesFirstRequest() {
        SoakBenchmark.Settings s = new SoakBenchmark.Settings(250, 4, 10, 1, 4, List.of("resnet18"), Map.of(),
                Path.of("w"), Optional.empty());
        assertThat(s.requests()).isEqualTo(10_000);
        assertThat(s.firstOf(0)).isZero();
        assertThat(s.firstOf(3)).isEqualTo(7_500);
    }

    @Test
    void requestIds_haveOneWidthForTheWholeRun_andTheReaderReadsTheirIndex() {
        SoakBenchmark.Settings s = new SoakBenchmark.Settings(1000, 30, 60, 2, 16, List.of("resnet18"), Map.of(),
                Path.of("w"), Optional.empty());
        assertThat(s.idDigits()).isEqualTo(7); // 1,800,000 requests: indexes 0 to 1,799,999
        for (long i : new long[] {0, 42, 999_999, 1_000_000, 1_799_999}) {
            String id = LatencyPublisher.requestId(LatencyReader.MEASURED, i, s.idDigits());
            assertThat(id).as("id of %d", i).hasSize(9);
            assertThat(LatencyReader.measuredIndex(id.getBytes(StandardCharsets.UTF_8))).isEqualTo(i);
        }
        assertThat(LatencyPublisher.requestId("m-", 42, 7)).isEqualTo("m-0000042");
        assertThat(LatencyPublisher.requestId("m-", 1_000_000, 0)).isEqualTo("m-1000000");
    }
}
