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

    @Test
    void badServerClass_exits2NamingTheOptionTheValueAndTheField() {
        TestingCli cli = new TestingCli();

        int exit = cli.run("executor", "--bootstrap", "localhost:1", "--server-class", "a100:2:4e11:4e10",
                "--server-class", "t4:0:1e11:1.6e10");

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err().strip()).isEqualTo("nona: --server-class ('t4:0:1e11:1.6e10'): COUNT (0) must be a whole "
                + "number >= 1");
        assertThat(cli.out()).isEmpty();
    }

    @Test
    void badColdStart_exits2NamingTheField() {
        TestingCli cli = new TestingCli();

        int exit = cli.run("executor", "--bootstrap", "localhost:1", "--server-class", "a100:2:4e11:4e10",
                "--cold-start", "0.2:-5");

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err().strip()).isEqualTo("nona: --cold-start ('0.2:-5'): LOAD_BYTES_PER_SECOND (-5) must be a "
                + "finite number > 0");
    }

    @Test
    void serversWithServerClasses_exits2() {
        TestingCli cli = new TestingCli();

        int exit = cli.run("executor", "--bootstrap", "localhost:1", "--server-class", "a100:2:4e11:4e10",
                "--servers", "4");

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err().strip()).startsWith("nona: --servers cannot be used with --server-class");
    }

    @Test
    void silenceOfAServerBeyondTheClasses_exits2NamingIt() {
        TestingCli cli = new TestingCli();

        int exit = cli.run("executor", "--bootstrap", "localhost:1", "--server-class", "a:1:1e12:1e9",
                "--server-class", "b:1:1e11:1e9", "--silence-server", "s-2:5");

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err().strip()).isEqualTo("nona: --silence-server: server 's-2' is not one of s-0 .. s-1");
    }
}
