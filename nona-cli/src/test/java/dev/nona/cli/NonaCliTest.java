package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

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
}
