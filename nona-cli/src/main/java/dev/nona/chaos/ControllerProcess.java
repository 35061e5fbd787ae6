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
 * its output to {@code controller-<k>.log}. Not thread safe: drive it from one thread.
 */
final class ControllerProcess implements AutoCloseable {
    private final String bootstrap;
    private final Path workDir;
    private final Path config;
    private ChildJvm process;
    private int starts;

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

    void start() {
        starts++;
        process = ChildJvm.start("controller-" + starts, List.of("-Xmx1g"), JvmClasspath.current(),
                "dev.nona.cli.NonaCli", List.of("run", "--bootstrap", bootstrap, "--config", config.toString(),
                        "--state-dir", stateDir().toString(), "--metrics-port", "0"),
                workDir.resolve("controller-" + starts + ".log"), workDir);
    }

    /** SIGKILL, as {@code kill -9}. */
    void kill() {
        if (process != null) {
            process.kill();
        }
    }

    boolean isAlive() {
        return process != null && process.isAlive();
    }

    int starts() {
        return starts;
    }

    String logTail(int chars) {
        return process == null ? "(not started)" : process.logTail(chars);
    }

    @Override
    public void close() {
        kill();
    }
}
