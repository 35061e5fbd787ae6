package dev.nona.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class StateDirectoryTest {
    @TempDir
    Path dir;

    /** A completed checkpoint {@code job/chk-n} whose metadata was written at {@code millis}. */
    private Path checkpoint(String job, int n, long millis) throws IOException {
        Path chk = Files.createDirectories(dir.resolve(job).resolve("chk-" + n));
        Path metadata = chk.resolve("_metadata");
        try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(metadata))) {
            out.writeInt(Checkpoints.HEADER_MAGIC_NUMBER);
            out.writeInt(3);
        }
        Files.setLastModifiedTime(metadata, FileTime.fromMillis(millis));
        return chk;
    }

    @Test
    void latest_theCheckpointWrittenLast_acrossTheRunsJobFolders() throws IOException {
        checkpoint("job-a", 40, 1_000_000);
        Path newest = checkpoint("job-b", 2, 2_000_000); // a later run numbers its checkpoints from 1 again
        checkpoint("job-b", 1, 1_500_000);
        Files.createDirectories(dir.resolve("job-b").resolve("chk-3")); // in progress: no _metadata yet
        Files.createDirectories(dir.resolve("job-b").resolve("shared"));
        StateDirectory.Latest latest = new StateDirectory(dir).latest();
        assertThat(latest.checkpoint()).isEqualTo(newest);
        assertThat(latest.skipped()).isEmpty();
    }

    @Test
    void latest_skipsATruncatedMetadataFile_andNamesIt() throws IOException {
        Path older = checkpoint("job-a", 5, 1_000_000);
        Path broken = checkpoint("job-a", 6, 2_000_000);
        Files.write(broken.resolve("_metadata"), new byte[] {1, 2});
        StateDirectory.Latest latest = new StateDirectory(dir).latest();
        assertThat(latest.checkpoint()).isEqualTo(older);
        assertThat(latest.skipped()).singleElement().asString().contains("chk-6").contains("truncated");
    }

    @Test
    void latest_none_saysWhy() throws IOException {
        assertThat(new StateDirectory(dir.resolve("absent")).latest().whyNone()).contains("no such directory");
        assertThat(new StateDirectory(dir).latest().whyNone()).startsWith("no checkpoint found in " + dir);
        Path only = checkpoint("job-a", 1, 1_000_000);
        Files.write(only.resolve("_metadata"), "not flink".getBytes());
        StateDirectory.Latest latest = new StateDirectory(dir).latest();
        assertThat(latest.checkpoint()).isNull();
        assertThat(latest.whyNone()).startsWith("no readable checkpoint in").contains("magic");
    }

    /** A job folder's name as Flink gives it: the job's id, 32 hexadecimal digits. */
    private static String job(char c) {
        return String.valueOf(c).repeat(32);
    }

    @Test
    void prune_onAResume_deletesOlderRunsAndRunsWithNoCheckpoint_keepsTheOneResumedFromAndUnreadableOnes()
            throws IOException {
        checkpoint(job('a'), 40, 1_000_000); // an older run
        Path resumed = checkpoint(job('b'), 2, 2_000_000);
        Files.createDirectories(dir.resolve(job('c')).resolve("chk-1")); // died before its first checkpoint completed
        Files.createDirectories(dir.resolve(job('c')).resolve("shared"));
        Path broken = checkpoint(job('d'), 7, 3_000_000); // newer, but its metadata is not Flink's
        Files.write(broken.resolve("_metadata"), new byte[] {1, 2});
        Files.createDirectories(dir.resolve("notes"));
        Files.writeString(dir.resolve(StateDirectory.OWNER_FILE), "c1\n");
        StateDirectory state = new StateDirectory(dir);
        StateDirectory.Latest latest = state.latest();
        assertThat(latest.checkpoint()).isEqualTo(resumed);

        assertThat(state.prune(latest, false)).containsExactly(dir.resolve(job('a')), dir.resolve(job('c')));
        assertThat(dir.resolve(job('a'))).doesNotExist();
        assertThat(dir.resolve(job('c'))).doesNotExist();
        assertThat(resumed.resolve("_metadata")).exists();
        assertThat(broken.resolve("_metadata")).exists();
        assertThat(dir.resolve("notes")).isDirectory();
        assertThat(dir.resolve(StateDirectory.OWNER_FILE)).exists();
        assertThat(state.latest().checkpoint()).isEqualTo(resumed); // the next start finds the same
    }

    @Test
    void prune_onAFreshStart_keepsEveryRunWithACompletedCheckpoint() throws IOException {
        Path older = checkpoint(job('a'), 40, 1_000_000);
        Path newer = checkpoint(job('b'), 2, 2_000_000);
        Files.createDirectories(dir.resolve(job('c')).resolve("taskowned"));
        assertThat(new StateDirectory(dir).prune(null, false)).containsExactly(dir.resolve(job('c')));
        assertThat(older).exists();
        assertThat(newer).exists();
    }

    @Test
    void prune_inClaimMode_deletesNothing_forARunMayUseTheFilesOfThoseItWasRestoredFrom() throws IOException {
        Path older = checkpoint(job('a'), 40, 1_000_000);
        checkpoint(job('b'), 2, 2_000_000);
        Files.createDirectories(dir.resolve(job('c')));
        StateDirectory state = new StateDirectory(dir);
        assertThat(state.prune(state.latest(), true)).isEmpty();
        assertThat(older).exists();
        assertThat(dir.resolve(job('c'))).isDirectory();
        assertThat(new StateDirectory(dir.resolve("absent")).prune(null, false)).isEmpty();
    }

    @Test
    void defaultFor_isUnderTheWorkingDirectory_perControllerId() {
        assertThat(StateDirectory.defaultFor(dir, "c1").dir()).isEqualTo(dir.resolve("nona-state").resolve("c1"));
        assertThat(StateDirectory.defaultFor(dir, "c1").checkpointUri()).startsWith("file:/").contains("/nona-state/c1");
    }
}
