package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.ControllerConfig;
import dev.nona.local.StateDirectory;
import java.io.DataOutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code run --state-dir DIR [--fresh]}: where checkpoints go, and which one a start resumes from. */
final class RunStateDirTest {
    @TempDir
    Path dir;

    private static RunCommand run(String... args) {
        return (RunCommand) NonaCli.commandLine().parseArgs(args).subcommand().commandSpec().userObject();
    }

    private Path checkpoint(Path stateDir) throws Exception {
        return checkpoint(stateDir, "job-a", 4);
    }

    private Path checkpoint(Path stateDir, String job, int n) throws Exception {
        Path chk = Files.createDirectories(stateDir.resolve(job).resolve("chk-" + n));
        try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(chk.resolve("_metadata")))) {
            out.writeInt(Checkpoints.HEADER_MAGIC_NUMBER);
        }
        return chk;
    }

    @Test
    void stateDir_isTheCheckpointStorage_withRetainedCheckpoints_andADefaultPerControllerId() throws Exception {
        ControllerConfig c = run("run", "--bootstrap", "h:1", "--state-dir", dir.toString()).controllerConfig();
        assertThat(Path.of(URI.create(c.checkpointDir()))).isEqualTo(dir);
        assertThat(c.flink()).containsEntry("execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION");
        ControllerConfig byDefault = run("run", "--bootstrap", "h:1").controllerConfig();
        assertThat(byDefault.checkpointDir()).contains("/nona-state/" + byDefault.controllerId());
    }

    @Test
    void onARemoteCluster_theCheckpointStorageIsTheConfigs_unlessAStateDirIsGiven() throws Exception {
        Path file = dir.resolve("controller.properties");
        Files.writeString(file, "flink.execution.target=remote\n");
        RunCommand remote = run("run", "--bootstrap", "h:1", "--config", file.toString());
        ControllerConfig c = remote.controllerConfig();
        assertThat(c.checkpointDir()).isBlank();
        assertThat(remote.start(c).details()).containsEntry("resumed", false)
                .containsEntry("reason", "no checkpoint storage (checkpoint.dir)");
        assertThat(run("run", "--bootstrap", "h:1", "--config", file.toString(), "--state-dir", dir.toString())
                .controllerConfig().checkpointDir()).startsWith("file:");
    }

    @Test
    void start_resumesFromTheNewestCheckpoint_unlessFresh() throws Exception {
        Path chk = checkpoint(dir);
        RunCommand resume = run("run", "--bootstrap", "h:1", "--state-dir", dir.toString());
        RunCommand.Start start = resume.start(resume.controllerConfig());
        assertThat(start.recoveryPath()).isEqualTo(chk.toUri().toString());
        assertThat(start.details()).containsEntry("resumed", true).containsEntry("checkpoint", chk.toString());
        assertThat(resume.controllerConfig(Map.of(RunCommand.RECOVERY_PATH, start.recoveryPath())).flink())
                .containsEntry("execution.state-recovery.path", chk.toUri().toString());

        RunCommand fresh = run("run", "--bootstrap", "h:1", "--state-dir", dir.toString(), "--fresh");
        RunCommand.Start freshStart = fresh.start(fresh.controllerConfig());
        assertThat(freshStart.recoveryPath()).isNull();
        assertThat(freshStart.details()).containsEntry("resumed", false).containsEntry("reason", "--fresh");
    }

    @Test
    void start_deletesTheFoldersOfOlderRuns_andSaysHowMany_unlessTheConfigRestoresInClaimMode() throws Exception {
        Path older = checkpoint(dir, "a".repeat(32), 9);
        Files.setLastModifiedTime(older.resolve("_metadata"), java.nio.file.attribute.FileTime.fromMillis(1_000_000));
        Path newest = checkpoint(dir, "b".repeat(32), 3);
        Path file = dir.resolve("claim.properties");
        Files.writeString(file, "flink.execution.state-recovery.claim-mode=CLAIM\n");
        RunCommand claim = run("run", "--bootstrap", "h:1", "--state-dir", dir.toString(), "--config", file.toString());
        RunCommand.Start claimed = claim.start(claim.controllerConfig());
        assertThat(claimed.details()).containsEntry("checkpoint", newest.toString()).containsEntry("pruned", 0);
        assertThat(older).exists();

        RunCommand resume = run("run", "--bootstrap", "h:1", "--state-dir", dir.toString());
        RunCommand.Start start = resume.start(resume.controllerConfig());
        assertThat(start.details()).containsEntry("checkpoint", newest.toString()).containsEntry("pruned", 1);
        assertThat(older.getParent()).doesNotExist();
        assertThat(newest).exists();
    }

    @Test
    void start_withoutACheckpoint_startsFresh_andSaysWhy() throws Exception {
        RunCommand none = run("run", "--bootstrap", "h:1", "--state-dir", dir.resolve("empty").toString());
        RunCommand.Start start = none.start(none.controllerConfig());
        assertThat(start.recoveryPath()).isNull();
        assertThat(start.details().get("reason").toString()).startsWith("no checkpoint found in");
        assertThat(start.message()).contains("starts fresh");
    }

    @Test
    void stateDirThatIsAFile_orAConfigCheckpointDirUnderAFile_failsBeforeFlinkStarts_namingIt() throws Exception {
        Path file = Files.writeString(dir.resolve("state"), "not a folder");
        Path props = Files.writeString(dir.resolve("controller.properties"),
                "checkpoint.dir=" + file.resolve("cp").toUri() + "\n");
        TestingCli cli = new TestingCli();

        // an unreachable broker: the check comes before Flink or Kafka is asked anything
        assertThat(cli.run("run", "--bootstrap", "127.0.0.1:1", "--state-dir", file.toString())).isEqualTo(2);
        assertThat(cli.run("run", "--bootstrap", "127.0.0.1:1", "--config", props.toString())).isEqualTo(2);
        assertThat(cli.run("run", "--bootstrap", "127.0.0.1:1", "--config", dir.resolve("absent.properties").toString()))
                .isEqualTo(2);
        assertThat(cli.err().lines()).containsExactly(
                "nona: --state-dir (" + file + ") is a file, not a folder",
                "nona: checkpoint.dir (" + file.resolve("cp") + ") cannot be created: Not a directory ("
                        + file.resolve("cp") + ")",
                "nona: config file (" + dir.resolve("absent.properties") + ") does not exist");
    }

    @Test
    void stateDir_isClaimedForItsControllerId_andAnotherControllersIsAnError_beforeAnyCheckpointIsRead() throws Exception {
        Path chk = checkpoint(dir);
        Path props = Files.writeString(dir.resolve("b.properties"),
                "controller.id=controller-b\n");
        RunCommand a = run("run", "--bootstrap", "h:1", "--state-dir", dir.toString());
        ControllerConfig config = a.controllerConfig();
        a.holdStateDirectory(config).close();
        assertThat(Files.readString(dir.resolve(StateDirectory.OWNER_FILE)).strip()).isEqualTo(config.controllerId());
        assertThat(a.start(config).recoveryPath()).as("the checkpoint there before the claim is its own")
                .isEqualTo(chk.toUri().toString());
        a.holdStateDirectory(config).close(); // again: the same controller

        TestingCli cli = new TestingCli();
        assertThat(cli.run("run", "--bootstrap", "127.0.0.1:1", "--state-dir", dir.toString(), "--config",
                props.toString())).isEqualTo(2);
        assertThat(cli.run("run", "--bootstrap", "127.0.0.1:1", "--state-dir", dir.toString(), "--config",
                props.toString(), "--fresh")).isEqualTo(2);
        String line = "nona: --state-dir (" + dir + ") holds the checkpoints of controller '" + config.controllerId()
                + "', not of 'controller-b' (controller.id): give each controller a state directory of its own";
        assertThat(cli.err().lines()).containsExactly(line, line);
    }

    @Test
    void stateDirHeldByARunningController_isAnErrorNamingItsPid_andFreeOnceItsHoldEnds() throws Exception {
        RunCommand first = run("run", "--bootstrap", "h:1", "--state-dir", dir.toString());
        TestingCli cli = new TestingCli();
        try (StateDirectory.Hold held = first.holdStateDirectory(first.controllerConfig())) {
            assertThat(cli.run("run", "--bootstrap", "127.0.0.1:1", "--state-dir", dir.toString())).isEqualTo(2);
        }
        assertThat(cli.err().strip()).isEqualTo("nona: --state-dir (" + dir + ") is in use by another controller "
                + "process (pid " + ProcessHandle.current().pid() + "): stop it first, or give this one a state "
                + "directory of its own");
        first.holdStateDirectory(first.controllerConfig()).close(); // free again
    }
}
