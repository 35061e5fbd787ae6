package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code nona executor}'s option errors come before it connects to Kafka, in one line naming option and value. */
final class ExecutorCommandTest {

    @Test
    void badSlowServer_exits2NamingTheOptionAndValue() {
        TestingCli cli = new TestingCli();

        int exit = cli.run("executor", "--bootstrap", "localhost:1", "--slow-server", "s-1:fast");

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err().strip()).isEqualTo("nona: --slow-server ('s-1:fast'): FACTOR ('fast') must be a finite number >= 1");
        assertThat(cli.out()).isEmpty();
    }

    @Test
    void silenceOfAnUnknownServer_exits2NamingIt() {
        TestingCli cli = new TestingCli();

        int exit = cli.run("executor", "--bootstrap", "localhost:1", "--servers", "2", "--silence-server", "s-2:5");

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err().strip()).isEqualTo("nona: --silence-server: server 's-2' is not one of s-0 .. s-1");
    }

    @Test
    void notANumber_isPicocliErrorNamingTheOption() {
        TestingCli cli = new TestingCli();

        int exit = cli.run("executor", "--bootstrap", "localhost:1", "--servers", "four");

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err()).contains("--servers").contains("four");
    }
}
