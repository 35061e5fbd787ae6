package dev.nona.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SoakBenchmarkTest {
    @Test
    void outside_cutsTheExcludedRangesOut_inOrder_clippedToTheMinute() {
        List<long[]> parts = SoakBenchmark.outside(100, 200, List.of(new long[] {150, 160}, new long[] {90, 110},
                new long[] {155, 170}, new long[] {300, 400}));
        assertThat(parts).containsExactly(new long[] {110, 150}, new long[] {170, 200});
    }

    @Test
    void outside_nothingExcluded_isTheWholeRange_andAllExcluded_isNothing() {
        assertThat(SoakBenchmark.outside(0, 60, List.of())).containsExactly(new long[] {0, 60});
        assertThat(SoakBenchmark.outside(0, 60, List.of(new long[] {-5, 60}))).isEmpty();
    }

    @Test
    void checkpointBytes_isEveryFileUnderTheCheckpoint_orNaNWhenItIsGone(@TempDir Path dir) throws Exception {
        Path chk = Files.createDirectories(dir.resolve("chk-7"));
        Files.write(chk.resolve("_metadata"), new byte[1000]);
        Files.write(Files.createDirectories(chk.resolve("sub")).resolve("state"), new byte[24]);
        assertThat(SoakBenchmark.checkpointBytes(chk)).isEqualTo(1024.0);
        assertThat(SoakBenchmark.checkpointBytes(dir.resolve("chk-8"))).isNaN();
    }

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
