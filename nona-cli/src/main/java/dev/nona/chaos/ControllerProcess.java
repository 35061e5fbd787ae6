package dev.nona.chaos;

import dev.nona.local.ChildJvm;
import dev.nona.local.JvmClasspath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code bin/nona run} as a child JVM (its MiniCluster inside) with a state directory under the working
 * directory: each start resumes from the newest checkpoint there, as a restarted pod does. Start {@code k} writes
 * its output to {@code controller-<k>.log}. Thread safe (one lock): started and killed by the fault thread, asked
 * whether it exited by itself by the run's.
 */
final class ControllerProcess implements AutoCloseable {
    private final String bootstrap;
    private final Path workDir;
    private final Path config;
    private ChildJvm process;
    private boolean killed;
    private int starts;
    private int exitsNoted;
    private int exits;

    ControllerProcess(String bootstrap, Path workDir, Map<String, String> settings) throws IOException {
        this.bootstrap = bootstrap;
        this.workDir = workDir;
        Files.createDirectories(workDir);
        this.config = workDir.resolve("controller.properties");
        StringBuilder props = new StringBuilder();
        new TreeMap<>(settings).forEach((k, v) -> props.append(k).append('=').append(v).append('\n'));
        Files.writeString(config, props);
    }

    Path stateDir() {
        return workDir.resolve("state");
    }

    synchronized void start() {
        starts++;
        process = ChildJvm.start("controller-" + starts, List.of("-Xmx1g"), JvmClasspath.current(),
                "dev.nona.cli.NonaCli", List.of("run", "--bootstrap", bootstrap, "--config", config.toString(),
                        "--state-dir", stateDir().toString(), "--metrics-port", "0"),
                workDir.resolve("controller-" + starts + ".log"), workDir);
        killed = false; // only now: the killed process of the start before must not count as exited by itself
    }

    /** SIGKILL, as {@code kill -9}. */
    synchronized void kill() {
        killed = true;
        if (process != null) {
            process.kill();
        }
    }

    synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /**
     * Whether the process of the latest start has exited without being killed (a failed start, a crash), the first
     * time this is asked for that start; the tail of its log then goes in the message.
     */
    synchronized boolean exitedByItselfSinceAsked() {
        ChildJvm p = process;
        if (p == null || killed || p.isAlive() || exitsNoted == starts) {
            return false;
        }
        exitsNoted = starts;
        exits++;
        return true;
    }

    /** How many starts ended by themselves (as far as {@link #exitedByItselfSinceAsked()} was asked). */
    synchronized int exits() {
        return exits;
    }

    synchronized int starts() {
        return starts;
    }

    synchronized String logTail(int chars) {
        return process == null ? "(not started)" : process.logTail(chars);
    }

    @Override
    public void close() {
        kill();
    }
}
