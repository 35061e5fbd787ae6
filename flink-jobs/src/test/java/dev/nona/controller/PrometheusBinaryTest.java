package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

/** {@link PrometheusServerITCase} finds the binary on the PATH, skips without it, and fails without it on CI. */
final class PrometheusBinaryTest {
    @Test
    void onThePath_found(@TempDir Path dir) throws Exception {
        Path binary = Files.createFile(dir.resolve("prometheus"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxr-xr-x")));
        assertThat(PrometheusServerITCase.prometheusBinary(Map.of("PATH", "/nonexistent:" + dir, "CI", "true")))
                .isEqualTo(binary);
    }

    @Test
    void absent_skipsOutsideCi_failsOnCi(@TempDir Path dir) {
        assertThatThrownBy(() -> PrometheusServerITCase.prometheusBinary(Map.of("PATH", dir.toString())))
                .isInstanceOf(TestAbortedException.class).hasMessageContaining("skipped");
        assertThatThrownBy(() -> PrometheusServerITCase.prometheusBinary(Map.of("PATH", dir.toString(), "CI", "true")))
                .isExactlyInstanceOf(AssertionError.class).hasMessageContaining("CI=true");
    }
}
