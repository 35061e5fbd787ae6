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
import java.util.TreeMap;

/**
 * {@code bin/nona run} in a child JVM (its own MiniCluster) against a broker, with a settings file and a state
 * directory in a working directory: started, killed with SIGKILL ({@link #kill}, as {@code kill -9}) and started
 * again ({@link #start(boolean)}) with the same state directory, so the restart resumes from the newest checkpoint
 * (or, {@code fresh}, starts with {@code --fresh}). The k-th start logs to {@code controller-<k>.log} in the working
 * directory. Not thread safe: drive it from one thread at a time.
 */
public final class ControllerProcess implements ControllerUnderTest {
    private final String bootstrap;
    private final Path workDir;
    private final Path config;
    private final Path stateDir;
    private final List<ChildJvm> started = new ArrayList<>();

    /**
     * @param controller the settings file's entries ({@code docs/controller.md})
     * @param workDir    the working directory: the settings file, the state directory ({@code state}) and the logs
     */
    public ControllerProcess(String bootstrap, Map<String, String> controller, Path workDir) {
        this.bootstrap = Objects.requireNonNull(bootstrap, "bootstrap");
        this.workDir = Objects.requireNonNull(workDir, "working directory");
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
    public void start(boolean fresh) {
        if (isAlive()) {
            throw new IllegalStateException("the controller process (pid " + current().pid() + ") still runs");
        }
        List<String> args = new ArrayList<>(List.of("run", "--bootstrap", bootstrap, "--config", config.toString(),
                "--state-dir", stateDir.toString(), "--metrics-port", "0"));
        if (fresh) {
            args.add("--fresh");
        }
        int k = started.size() + 1;
        started.add(ChildJvm.start("controller-" + k, List.of("-Xmx1g"), JvmClasspath.current(),
                "dev.nona.cli.NonaCli", args, workDir.resolve("controller-" + k + ".log"), workDir));
    }

    /** SIGKILL of the running process ({@code kill -9}): no shutdown hook, no final checkpoint. */
    public void kill() {
        if (!started.isEmpty()) {
            current().kill();
        }
    }

    /** How many processes were started. */
    public int starts() {
        return started.size();
    }

    @Override
    public boolean isAlive() {
        return !started.isEmpty() && current().isAlive();
    }

    @Override
    public String logTail(int maxChars) {
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

    @Override
    public void close() {
        started.forEach(ChildJvm::kill);
    }

    private ChildJvm current() {
        return started.get(started.size() - 1);
    }
}
