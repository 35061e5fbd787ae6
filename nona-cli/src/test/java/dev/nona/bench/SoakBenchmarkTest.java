package dev.nona.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
