package dev.nona.bench;

import dev.nona.local.ChildJvm;
import dev.nona.local.JvmClasspath;
import dev.nona.local.StateDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code bin/nona run} in a child JVM (its own MiniCluster) against a broker, with a settings file and a state
 * directory in a working directory: started, killed with SIGKILL ({@link #kill}, as {@code kill -9}) and started
 * again ({@link #start(boolean)}) with the same state directory, so the restart resumes from the newest checkpoint
 * (or, {@code fresh}, starts with {@code --fresh}), as a restarted pod does. The k-th start logs to
 * {@code controller-<k>.log} in the working directory. The recovery and soak benchmarks and the chaos run drive it.
 * Thread safe (one lock): a chaos run kills and starts it on its fault thread and asks on its own whether it exited
 * by itself.
 */
public final class ControllerChildJvm implements ControllerUnderTest {
    /** The child's JVM options unless told otherwise. */
    public static final List<String> DEFAULT_JVM = List.of("-Xmx1g");

    private final String bootstrap;
    private final Path workDir;
    private final Path config;
    private final Path stateDir;
    private final List<String> jvmOptions;
    private final List<ChildJvm> started = new ArrayList<>();
    private boolean killed;
    private int exitsNoted;
    private int exits;

    /** With {@link #DEFAULT_JVM}. */
    public ControllerChildJvm(String bootstrap, Map<String, String> controller, Path workDir) {
        this(bootstrap, controller, workDir, DEFAULT_JVM);
    }

    /**
     * Writes the settings file ({@code controller.properties} in {@code workDir}); starts nothing.
     *
     * @param controller the settings file's entries ({@code docs/controller.md})
     * @param workDir    the working directory: the settings file, the state directory ({@code state}) and the logs
     * @param jvmOptions the child's JVM options (heap, GC, GC log)
     */
    public ControllerChildJvm(String bootstrap, Map<String, String> controller, Path workDir, List<String> jvmOptions) {
        this.bootstrap = Objects.requireNonNull(bootstrap, "bootstrap");
        this.workDir = Objects.requireNonNull(workDir, "working directory");
        this.jvmOptions = List.copyOf(jvmOptions);
        this.config = workDir.resolve("controller.properties");
        this.stateDir = workDir.resolve("state");
        StringBuilder props = new StringBuilder();
        new TreeMap<>(controller).forEach((k, v) -> props.append(k).append('=').append(v).append('\n'));
        try {
            Files.createDirectories(workDir);
            Files.writeString(config, props);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + config, e);
        }
    }

    public Path stateDir() {
        return stateDir;
    }

    @Override
    public void start() {
        start(false);
    }

    /** Starts a new process (with {@code --fresh} when {@code fresh}); the one before must be dead. */
    public synchronized void start(boolean fresh) {
        if (isAlive()) {
            throw new IllegalStateException("the controller process (pid " + current().pid() + ") still runs");
        }
        List<String> args = new ArrayList<>(List.of("run", "--bootstrap", bootstrap, "--config", config.toString(),
                "--state-dir", stateDir.toString(), "--metrics-port", "0"));
        if (fresh) {
            args.add("--fresh");
        }
        int k = started.size() + 1;
        // as bin/nona would start it: the same classpath, the same archive; its -Xlog options first, for they begin
        // with -Xlog:disable, which would end a GC log the caller's options ask for (the soak's)
        List<String> jvm = new ArrayList<>(ChildJvm.sharedArchiveOptions());
        jvm.addAll(jvmOptions);
        jvm.add(ChildJvm.PROJECT_LOGGING);
        started.add(ChildJvm.start("controller-" + k, jvm, JvmClasspath.current(), "dev.nona.cli.NonaCli",
                args, workDir.resolve("controller-" + k + ".log"), workDir));
        killed = false; // only now: the killed process of the start before must not count as exited by itself
    }

    /** SIGKILL of the running process ({@code kill -9}): no shutdown hook, no final checkpoint. */
    public synchronized void kill() {
        killed = true;
        if (!started.isEmpty()) {
            current().kill();
        }
    }

    /** How many processes were started. */
    @Override
    public synchronized int starts() {
        return started.size();
    }

    /** The running process's id (for {@code jcmd}); the latest start's. */
    public synchronized long pid() {
        if (started.isEmpty()) {
            throw new IllegalStateException("the controller process was not started");
        }
        return current().pid();
    }

    @Override
    public synchronized boolean isAlive() {
        return !started.isEmpty() && current().isAlive();
    }

    /**
     * Whether the process of the latest start has exited without being killed (a failed start, a crash), the first
     * time this is asked for that start.
     */
    public synchronized boolean exitedByItselfSinceAsked() {
        if (started.isEmpty() || killed || current().isAlive() || exitsNoted == started.size()) {
            return false;
        }
        exitsNoted = started.size();
        exits++;
        return true;
    }

    @Override
    public synchronized Optional<String> endedByItself() {
        return exitedByItselfSinceAsked()
                ? Optional.of("the controller process (start " + starts() + ") exited by itself: " + logTail(1500))
                : Optional.empty();
    }

    /** How many starts ended by themselves (as far as {@link #exitedByItselfSinceAsked()} was asked). */
    @Override
    public synchronized int exits() {
        return exits;
    }

    @Override
    public synchronized String logTail(int maxChars) {
        return started.isEmpty() ? "(not started)" : current().logTail(maxChars);
    }

    @Override
    public void awaitCheckpoint(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (new StateDirectory(stateDir).latest().checkpoint() == null) {
            if (System.nanoTime() > deadline || !isAlive()) {
                throw new IllegalStateException("no completed checkpoint in " + stateDir + ": " + logTail(4000));
            }
            Thread.sleep(200);
        }
    }

    /** Kills every process it started (a kill is enough: the run is over). */
    @Override
    public synchronized void close() {
        killed = true;
        started.forEach(ChildJvm::kill);
    }

    private ChildJvm current() {
        return started.get(started.size() - 1);
    }
}
