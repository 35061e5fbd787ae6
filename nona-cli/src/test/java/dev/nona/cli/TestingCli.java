package dev.nona.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the {@code nona} CLI in-process, as {@code bin/nona} would, and keeps what it printed on stdout and stderr. */
final class TestingCli {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** Runs one command line; returns its exit code. Output accumulates over runs until {@link #clearOut()}. */
    int run(String... args) {
        CommandLine cli = NonaCli.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    String out() {
        return out.toString();
    }

    String err() {
        return err.toString();
    }

    void clearOut() {
        out.getBuffer().setLength(0);
    }
}
