package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.local.FreePorts;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class NonaCliTest {

    @Test
    void usageError_missingRequiredOption_oneLineNamingTheVerbAndExit2() {
        TestingCli cli = new TestingCli();

        int exit = cli.run("solve");

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err().strip()).doesNotContain("\n");
        assertThat(cli.err()).startsWith("nona solve: ").contains("--workload");
    }

    @Test
    void usageError_unknownVerb_oneLineAndExit2() {
        TestingCli cli = new TestingCli();

        int exit = cli.run("teleport");

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err().strip()).doesNotContain("\n").contains("teleport");
    }

    @Test
    void numericFlagsOutOfRange_namedAsTyped_beforeAnyBrokerIsAsked() {
        TestingCli cli = new TestingCli();
        String closed = "127.0.0.1:1"; // nothing listens: the checks come first

        assertThat(cli.run("topics", "create", "--bootstrap", closed, "--partitions", "0")).isEqualTo(2);
        assertThat(cli.run("topics", "create", "--bootstrap", closed, "--replication", "0")).isEqualTo(2);
        assertThat(cli.run("topics", "create", "--bootstrap", closed, "--timeout-seconds", "0")).isEqualTo(2);
        assertThat(cli.run("status", "--bootstrap", closed, "--timeout-seconds", "-1")).isEqualTo(2);
        assertThat(cli.run("status", "--bootstrap", closed, "--events", "-1")).isEqualTo(2);
        assertThat(cli.run("status", "--bootstrap", closed, "--liveness-timeout", "0")).isEqualTo(2);
        assertThat(cli.run("dashboard", "--bootstrap", closed, "--port", "70000")).isEqualTo(2);
        assertThat(cli.run("demo", "--dashboard=-1")).isEqualTo(2);
        assertThat(cli.err().lines()).containsExactly(
                "nona: --partitions (0) must be >= 1",
                "nona: --replication (0) must be >= 1",
                "nona: --timeout-seconds (0) must be >= 1",
                "nona: --timeout-seconds (-1) must be >= 1",
                "nona: --events (-1) must be >= 0",
                "nona: --liveness-timeout (0) must be >= 1",
                "nona: --port (70000) must be in 0..65535",
                "nona: --dashboard (-1) must be in 0..65535");
    }

    @Test
    void command_serversNamingNone_orABlankTopic_isAnError_notAnUnpin() {
        TestingCli cli = new TestingCli();
        String closed = "127.0.0.1:1"; // nothing listens: the checks come first

        assertThat(cli.run("command", "pin", "--bootstrap", closed, "--model", "m", "--servers", ",")).isEqualTo(2);
        assertThat(cli.run("command", "tenant", "--bootstrap", closed, "--tenant", "t", "--servers", " ")).isEqualTo(2);
        assertThat(cli.run("command", "freeze", "--bootstrap", closed, "--topic", "")).isEqualTo(2);
        assertThat(cli.err().lines()).containsExactly(
                "nona: --servers (',') names no server; give --servers none to mean none",
                "nona: --servers (' ') names no server; give --servers none to mean none",
                "nona: --topic ('') must not be blank");
    }

    @Test
    void benchWorkAndBrokerDirectories_thatAreFiles_failBeforeAnyBrokerStarts(@TempDir Path dir) throws Exception {
        TestingCli cli = new TestingCli();
        Path file = Files.writeString(dir.resolve("f"), "not a folder");

        assertThat(cli.run("bench", "chaos", "--minutes", "1", "--seed", "1", "--work-dir", file.toString())).isEqualTo(2);
        assertThat(cli.run("bench", "recovery", "--work-dir", file.toString())).isEqualTo(2);
        assertThat(cli.run("bench", "soak", "--work-dir", file.toString())).isEqualTo(2);
        assertThat(cli.run("bench", "latency", "--broker-dir", file.toString())).isEqualTo(2);
        assertThat(cli.err().lines()).containsExactly(
                "nona: --work-dir (" + file + ") is a file, not a folder",
                "nona: --work-dir (" + file + ") is a file, not a folder",
                "nona: --work-dir (" + file + ") is a file, not a folder",
                "nona: --broker-dir (" + file + ") is a file, not a folder");
    }

    @Test
    void kafkaTimeout_saysWhatToCheck_evenWhenWrapped() {
        String kafka = "Timeout expired while fetching topic metadata";

        assertThat(NonaCli.oneLine(new IllegalStateException("reading failed", new TimeoutException(kafka))))
                .isEqualTo("reading failed: no answer from the Kafka cluster in time (check --bootstrap, and the "
                        + "security settings the cluster expects)");
        assertThat(NonaCli.oneLine(new IllegalStateException("no\nkafka"))).isEqualTo("no kafka");
    }

    @Test
    void status_noBrokerAtBootstrap_oneLineSayingWhatToCheck() {
        TestingCli cli = new TestingCli();

        int exit = cli.run("status", "--bootstrap", "127.0.0.1:" + FreePorts.next(), "--timeout-seconds", "1");

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err().strip()).doesNotContain("\n").startsWith("nona: ")
                .endsWith("no answer from the Kafka cluster in time (check --bootstrap, and the security settings the "
                        + "cluster expects)");
    }
}
