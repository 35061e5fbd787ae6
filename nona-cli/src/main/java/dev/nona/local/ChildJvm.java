package dev.nona.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * One Java child process (a Kafka broker, a Flink JobManager or TaskManager) with its output appended to a
 * log file. {@link #stop} sends SIGTERM and waits; {@link #kill} sends SIGKILL, as {@code kill -9} would.
 * A shutdown hook kills the child if this JVM exits first, so no process outlives a test run.
 */
public final class ChildJvm {

    private final String name;
    private final Process process;
    private final Path logFile;
    private final Thread reaper;

    private ChildJvm(String name, Process process, Path logFile) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
        this.reaper = new Thread(process::destroyForcibly, "reap-" + name);
        Runtime.getRuntime().addShutdownHook(reaper);
    }

    /**
     * The JVM option that makes a child of the project's own classes ({@code bin/nona run}, the bench's publishers) log
     * by the project's {@code log4j2.xml}. Without it, a child started from a test's classpath takes the
     * {@code log4j2-test.properties} that Flink's test jars carry (every logger off), and its log stays empty: a
     * controller killed and restarted in {@code ControllerRestartIT} logged nothing at all.
     */
    public static final String PROJECT_LOGGING = "-Dlog4j2.configurationFile=classpath:log4j2.xml";

    /**
     * This JVM's class-data-sharing options ({@code -XX:SharedArchiveFile=...}, {@code -Xshare:...}, {@code -Xlog:...}),
     * as {@code bin/nona} gave them, for a child of the same classpath to start as {@code bin/nona} would start it
     * (docs/operations.md, "Start-up time"); none when this JVM maps no archive of its own.
     */
    public static List<String> sharedArchiveOptions() {
        List<String> in = ManagementFactory.getRuntimeMXBean().getInputArguments();
        if (in.stream().noneMatch(a -> a.startsWith("-XX:SharedArchiveFile="))) {
            return List.of();
        }
        return in.stream().filter(a -> a.startsWith("-XX:SharedArchiveFile=") || a.startsWith("-Xshare:")
                || a.startsWith("-Xlog:")).toList();
    }

    /** Starts {@code java <jvmOptions> -cp <classpath> <mainClass> <args>} with output appended to {@code logFile}. */
    public static ChildJvm start(String name, List<String> jvmOptions, JvmClasspath classpath, String mainClass,
            List<String> args, Path logFile) {
        return start(name, jvmOptions, classpath, mainClass, args, logFile, null);
    }

    /** As {@link #start(String, List, JvmClasspath, String, List, Path)}, in {@code workingDir} (null: this JVM's). */
    public static ChildJvm start(String name, List<String> jvmOptions, JvmClasspath classpath, String mainClass,
            List<String> args, Path logFile, Path workingDir) {
        Objects.requireNonNull(mainClass, "main class");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(classpath.asArgument());
        cmd.add(mainClass);
        cmd.addAll(args);
        try {
            Files.createDirectories(logFile.toAbsolutePath().getParent());
            ProcessBuilder builder = new ProcessBuilder(cmd);
            if (workingDir != null) {
                builder.directory(workingDir.toFile());
            }
            Process p = builder
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.PIPE)
                    .start();
            return new ChildJvm(name, p, logFile);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + " (" + mainClass + ")", e);
        }
    }

    /** Runs a short-lived tool to completion; fails, with the log's tail, on a non-zero exit or a timeout. */
    public static void run(String name, List<String> jvmOptions, JvmClasspath classpath, String mainClass,
            List<String> args, Path logFile, Duration timeout) {
        run(name, jvmOptions, classpath, mainClass, args, logFile, null, timeout);
    }

    /** As {@link #run(String, List, JvmClasspath, String, List, Path, Duration)}, in {@code workingDir}. */
    public static void run(String name, List<String> jvmOptions, JvmClasspath classpath, String mainClass,
            List<String> args, Path logFile, Path workingDir, Duration timeout) {
        ChildJvm tool = start(name, jvmOptions, classpath, mainClass, args, logFile, workingDir);
        try {
            if (!tool.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                tool.kill();
                throw new IllegalStateException(name + " did not finish within " + timeout + "; see " + logFile);
            }
            tool.unregister();
            if (tool.process.exitValue() != 0) {
                throw new IllegalStateException(name + " exited with " + tool.process.exitValue() + ": "
                        + tool.logTail(2000));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            tool.kill();
            throw new IllegalStateException("interrupted while running " + name, e);
        }
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Path logFile() {
        return logFile;
    }

    /** SIGTERM, then SIGKILL if the process is still alive after {@code grace}. */
    public void stop(Duration grace) {
        process.destroy();
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        unregister();
    }

    /** SIGKILL, like {@code kill -9}: no shutdown hooks, no clean close of files or sockets. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        unregister();
    }

    /** The last {@code maxChars} characters of the log, for error messages. */
    public String logTail(int maxChars) {
        try {
            if (!Files.exists(logFile)) {
                return "(no log at " + logFile + ")";
            }
            String all = Files.readString(logFile, StandardCharsets.UTF_8);
            return all.substring(Math.max(0, all.length() - maxChars));
        } catch (IOException e) {
            return "(cannot read " + logFile + ": " + e.getMessage() + ")";
        }
    }

    private void unregister() {
        try {
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is exiting: the hook runs anyway
        }
    }
}
