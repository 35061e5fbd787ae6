package dev.nona.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code nona dag ...}: inspect model DAGs. */
@Command(name = "dag", description = "Inspect model DAGs.", mixinStandardHelpOptions = true,
        subcommands = {DagStatsCommand.class, DagExportCommand.class})
final class DagCommand implements Runnable {
    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }
}
