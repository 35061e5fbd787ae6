package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a verb writes, checked before it starts: the flag and the value named, no exception of the file system's. */
final class OutputPathsTest {
    @TempDir
    Path dir;

    @Test
    void directory_absent_isCreatedWithItsParents() {
        Path out = dir.resolve("a").resolve("b");

        assertThat(OutputPaths.directory("--out", out)).isDirectory();
    }

    @Test
    void directory_thatIsAFile_orUnderAFile_namesTheFlagAndTheValue() throws Exception {
        Path file = Files.writeString(dir.resolve("f"), "x");

        assertThatThrownBy(() -> OutputPaths.directory("--out", file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--out (" + file + ") is a file, not a folder");
        assertThatThrownBy(() -> OutputPaths.directory("--out", file.resolve("sub")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--out (" + file.resolve("sub") + ") cannot be created: ");
    }

    @Test
    void file_thatIsAFolder_orUnderAFile_namesTheFlagAndTheValue() throws Exception {
        Path file = Files.writeString(dir.resolve("f"), "x");

        assertThatThrownBy(() -> OutputPaths.file("--summary-json", dir))
                .hasMessage("--summary-json (" + dir + ") is a folder, not a file");
        assertThatThrownBy(() -> OutputPaths.file("--summary-json", file.resolve("s.json")))
                .hasMessage("--summary-json (" + file.resolve("s.json") + ") is under " + file + ", a file, not a folder");
    }

    @Test
    void file_inAFolderNotYetThere_createsTheFolder_notTheFile() {
        Path json = dir.resolve("runs").resolve("s.json");

        assertThat(OutputPaths.file("--summary-json", json)).isEqualTo(json);
        assertThat(json.getParent()).isDirectory();
        assertThat(json).doesNotExist();
    }
}
