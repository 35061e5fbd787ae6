package dev.nona.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;

/**
 * The {@code conf/} directory of a {@link LocalFlinkCluster}: {@code config.yaml} (Flink 2.x reads YAML; flat
 * keys) and a log4j2 configuration. The defaults suit a 2-core machine and fast failure detection; overrides
 * win.
 */
final class FlinkClusterConfig {

    private final Path workDir;
    private final Map<String, String> entries = new LinkedHashMap<>();

    FlinkClusterConfig(Path workDir, int rpcPort, int restPort, int slots, String tmMemory, String jmMemory,
            Map<String, String> overrides) {
        this.workDir = workDir;
        entries.put("jobmanager.rpc.address", "127.0.0.1");
        entries.put("jobmanager.rpc.port", String.valueOf(rpcPort));
        entries.put("jobmanager.bind-host", "127.0.0.1");
        entries.put("jobmanager.memory.process.size", jmMemory);
        entries.put("rest.address", "127.0.0.1");
        entries.put("rest.bind-address", "127.0.0.1");
        entries.put("rest.port", String.valueOf(restPort));
        entries.put("taskmanager.host", "127.0.0.1");
        entries.put("taskmanager.bind-host", "127.0.0.1");
        entries.put("taskmanager.numberOfTaskSlots", String.valueOf(slots));
        entries.put("taskmanager.memory.process.size", tmMemory);
        // spread a job's tasks over the TaskManagers, so that killing any one of them hits the job
        entries.put("taskmanager.load-balance.mode", "SLOTS");
        // meant for Pekko's remoting start (10 s by default; at load 40-55 on 2 cores a JobManager of an HA pair
        // twice failed with "Could not create actor system", Futures timed out after 10000 ms), but Flink 2.2 writes
        // it where classic remoting does not read it (it failed the same way with this set, at load 27): the start
        // is retried instead (LocalFlinkCluster#relaunchFailedStarts)
        entries.put("pekko.startup-timeout", "60 s");
        entries.put("heartbeat.interval", "1000");
        entries.put("heartbeat.timeout", "8000");
        entries.put("restart-strategy.type", "fixed-delay");
        entries.put("restart-strategy.fixed-delay.attempts", "1000");
        entries.put("restart-strategy.fixed-delay.delay", "1 s");
        entries.put("state.backend.type", "hashmap");
        entries.put("execution.checkpointing.dir", workDir.resolve("checkpoints").toUri().toString());
        entries.put("io.tmp.dirs", workDir.resolve("tmp").toString());
        entries.put("web.tmpdir", workDir.resolve("web").toString());
        entries.put("blob.storage.directory", workDir.resolve("blobs").toString());
        entries.putAll(overrides);
    }

    Path confDir() {
        return workDir.resolve("conf");
    }

    Configuration asConfiguration() {
        return Configuration.fromMap(entries);
    }

    /** Writes {@code conf/config.yaml} and {@code conf/log4j2.xml}. */
    void write() {
        StringBuilder yaml = new StringBuilder("# written by dev.nona.local.LocalFlinkCluster\n");
        entries.forEach((k, v) -> yaml.append(k).append(": ").append(quote(v)).append('\n'));
        String log4j = """
                <?xml version="1.0" encoding="UTF-8"?>
                <Configuration status="WARN">
                  <Appenders>
                    <Console name="out" target="SYSTEM_OUT">
                      <PatternLayout pattern="%d{HH:mm:ss,SSS} %-5p %-60c %x - %m%n"/>
                    </Console>
                  </Appenders>
                  <Loggers>
                    <Logger name="org.apache.kafka" level="WARN"/>
                    <Logger name="org.apache.pekko" level="WARN"/>
                    <Root level="INFO"><AppenderRef ref="out"/></Root>
                  </Loggers>
                </Configuration>
                """;
        try {
            Files.createDirectories(confDir());
            Files.createDirectories(workDir.resolve("log"));
            Files.writeString(confDir().resolve("config.yaml"), yaml, StandardCharsets.UTF_8);
            Files.writeString(confDir().resolve("log4j2.xml"), log4j, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write Flink configuration under " + workDir, e);
        }
    }

    /**
     * Writes {@code conf/masters}, one {@code host:webPort} line per JobManager, as the distribution's {@code
     * start-cluster.sh} reads it for a cluster with standby JobManagers (here only a record of the layout).
     */
    void writeMasters(List<String> hostsAndWebPorts) {
        try {
            Files.createDirectories(confDir());
            Files.writeString(confDir().resolve("masters"), String.join("\n", hostsAndWebPorts) + "\n",
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write conf/masters under " + workDir, e);
        }
    }

    private static String quote(String v) {
        return v.matches("[A-Za-z0-9_./:-]+") ? v : "'" + v.replace("'", "''") + "'";
    }
}
