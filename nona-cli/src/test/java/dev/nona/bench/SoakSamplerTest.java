package dev.nona.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SoakSamplerTest {
    @Test
    void checkpointBytes_isEveryFileUnderTheCheckpoint_orNaNWhenItIsGone(@TempDir Path dir) throws Exception {
        Path chk = Files.createDirectories(dir.resolve("chk-7"));
        Files.write(chk.resolve("_metadata"), new byte[1000]);
        Files.write(Files.createDirectories(chk.resolve("sub")).resolve("state"), new byte[24]);
        assertThat(SoakSampler.checkpointBytes(chk)).isEqualTo(1024.0);
        assertThat(SoakSampler.checkpointBytes(dir.resolve("chk-8"))).isNaN();
    }
}
