package dev.nona.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code bin/nona} command line. Each verb is its own class; adding one is one line in
 * {@link #subcommands()}. Verbs print JSON on stdout; errors are one line on stderr and a non-zero exit.
 */
@Command(
        name = "nona",
        mixinStandardHelpOptions = true,
        version = "nona 0.1.0",
        description = "Congestion- and model-aware placement of DNN inference DAGs.")
public final class NonaCli implements Runnable {

    /** The verbs, in the order help lists them. */
    static Object[] subcommands() {
        return new Object[] {
            new DagCommand(),
            new SolveCommand(),
            new TopicsCommand(),
            new SimulateCommand(),
            new ExperimentCommand(),
            new RunCommand(),
            new BenchCommand(),
            new DemoCommand(),
            new ExecutorCommand(),
            new DashboardCommand(),
            new ExplainCommand(),
            new CommandCommand(),
            new StatusCommand(),
        };
    }

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new NonaCli());
        for (Object sub : subcommands()) {
            cli.addSubcommand(sub);
        }
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            commandLine.getErr().println("nona: " + oneLine(ex));
            return 2;
        });
        cli.setParameterExceptionHandler((ex, args) -> {
            CommandLine failing = ex.getCommandLine();
            failing.getErr().println("nona " + failing.getCommandSpec().qualifiedName(" ").replaceFirst("^nona ?", "")
                    + ": " + oneLine(ex) + " (try --help)");
            return 2;
        });
        return cli;
    }

    static String oneLine(Throwable ex) {
        String msg = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
        if (kafkaTimeout(ex)) {
            // Kafka's own words name neither the broker nor what to check (e.g. "Timeout expired while fetching
            // topic metadata" from nona status with an unreachable --bootstrap)
            msg += ": no answer from the Kafka cluster in time (check --bootstrap, and the security settings the "
                    + "cluster expects)";
        }
        return msg.replace('\n', ' ');
    }

    private static boolean kafkaTimeout(Throwable ex) {
        for (Throwable t = ex; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof org.apache.kafka.common.errors.TimeoutException) {
                return true;
            }
        }
        return false;
    }

    public static void main(String[] args) {
        int code;
        try {
            code = commandLine().execute(args);
        } catch (OutOfMemoryError e) {
            // what a verb did not check before allocating: one line, as every other error, not a stack trace
            System.err.println(outOfMemory(Runtime.getRuntime().maxMemory()));
            code = 2;
        }
        System.exit(code);
    }

    /** The line for a run the heap of {@code maxHeapBytes} could not hold. */
    static String outOfMemory(long maxHeapBytes) {
        return "nona: out of memory: the heap (" + (maxHeapBytes >> 20) + " MiB) cannot hold this run; make it smaller, "
                + "or raise the heap (NONA_JAVA_OPTS=-Xmx8g)";
    }
}
