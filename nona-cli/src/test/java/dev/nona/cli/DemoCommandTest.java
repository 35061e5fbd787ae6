package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code nona demo}'s option errors come before anything starts, in one line naming the option and value. */
final class DemoCommandTest {

    @Test
    void unknownBaseline_exits2NamingIt() {
        TestingCli cli = new TestingCli();

        int exit = cli.run("demo", "--baseline", "nona");

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err().strip())
                .isEqualTo("nona: --baseline ('nona') must be one of [jsq, local, p2c, random, spark-fair]");
    }

    @Test
    void slowServerTheDemoDoesNotHave_exits2NamingIt() {
        TestingCli cli = new TestingCli();

        int exit = cli.run("demo", "--slow-server", "s-4:2");

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err().strip()).isEqualTo("nona: --slow-server: server 's-4' is not one of s-0 .. s-3");
    }
}
