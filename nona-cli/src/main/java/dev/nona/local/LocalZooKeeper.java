package dev.nona.local;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node ZooKeeper server ({@code org.apache.zookeeper.server.ZooKeeperServerMain}, the Maven
 * artifact {@code org.apache.zookeeper:zookeeper}) running as a child JVM, for JobManager high availability in
 * the tests and local runs: no ZooKeeper distribution, no Docker.
 *
 * <p>A child JVM rather than in process: the server then cannot share classes, logging or a heap with the JVM
 * that drives the test, and it can be killed like any other process of the cluster. {@link #start()} writes
 * {@code zoo.cfg} (loopback client port, no admin server, {@code ruok} allowed, sessions of 1 s to 60 s), starts
 * the server and waits until it answers {@code ruok} with {@code imok}. {@link #stop()} is a SIGTERM, {@link
 * #kill()} a {@code kill -9}; both keep the data directory and the port, so {@link #start()} afterwards brings
 * the same ensemble back with its znodes. Not thread safe: drive it from one thread.
 */
public final class LocalZooKeeper implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalZooKeeper.class);
    private static final String MAIN = "org.apache.zookeeper.server.ZooKeeperServerMain";

    private final Path dataDir;
    private final boolean ownsDataDir;
    private final int port;
    private final Duration tickTime;
    private final JvmClasspath classpath;
    private final Duration startTimeout;
    private ChildJvm process;

    private LocalZooKeeper(Builder b) throws IOException {
        this.ownsDataDir = b.dataDir == null;
        this.dataDir = ownsDataDir ? Files.createTempDirectory("nona-zookeeper-") : b.dataDir.toAbsolutePath();
        this.port = b.port > 0 ? b.port : FreePorts.next();
        this.tickTime = b.tickTime;
        this.classpath = b.classpath != null ? b.classpath : JvmClasspath.current();
        this.startTimeout = b.startTimeout;
        if (!classpath.containsJar("zookeeper-3.")) {
            throw new IllegalStateException("org.apache.zookeeper:zookeeper is not on the classpath; it is a runtime "
                    + "dependency of nona-cli (build with mvn -B -DskipTests package)");
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The quorum string clients take, {@code 127.0.0.1:<port>}; stable across restarts. */
    public String connectString() {
        return "127.0.0.1:" + port;
    }

    public Path dataDir() {
        return dataDir;
    }

    public Path logFile() {
        return dataDir.resolve("zookeeper.log");
    }

    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** The process id of the running server. */
    public long pid() {
        if (!isRunning()) {
            throw new IllegalStateException("ZooKeeper is not running");
        }
        return process.pid();
    }

    /** Starts the server and waits until it answers {@code ruok}; a no-op when it is running. */
    public LocalZooKeeper start() {
        if (isRunning()) {
            return this;
        }
        Path config = writeConfig();
        Path log4j = writeLog4jConfig();
        long t0 = System.nanoTime();
        process = ChildJvm.start("zookeeper", List.of("-Xmx256m", "-Dlog4j2.configurationFile=" + log4j.toUri(),
                "-Dzookeeper.jmx.log4j.disable=true"), classpath, MAIN, List.of(config.toString()), logFile());
        awaitReady();
        LOG.info("ZooKeeper pid {} ready at {} in {} ms (data {})", process.pid(), connectString(),
                (System.nanoTime() - t0) / 1_000_000, dataDir);
        return this;
    }

    /** SIGTERM and wait. */
    public void stop() {
        if (process != null) {
            process.stop(Duration.ofSeconds(15));
        }
    }

    /** {@code kill -9}: the server's sessions expire only once it is back and their timeout has passed. */
    public void kill() {
        if (process != null) {
            LOG.info("kill -9 ZooKeeper (pid {})", process.pid());
            process.kill();
        }
    }

    /** Stops the server and deletes the data directory if this object created it. */
    @Override
    public void close() {
        stop();
        if (ownsDataDir) {
            LocalKafkaBroker.deleteRecursively(dataDir);
        }
    }

    /** True when the server answers the four-letter command {@code ruok} with {@code imok}. */
    boolean answersRuok() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            socket.setSoTimeout(2000);
            OutputStream out = socket.getOutputStream();
            out.write("ruok".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return "imok".equals(new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim());
        } catch (IOException e) {
            return false;
        }
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + startTimeout.toNanos();
        while (!answersRuok()) {
            if (!process.isAlive()) {
                throw new IllegalStateException("ZooKeeper exited: " + process.logTail(3000));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("ZooKeeper did not answer at " + connectString() + " within "
                        + startTimeout + "; see " + logFile());
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for ZooKeeper", e);
            }
        }
    }

    private Path writeConfig() {
        Path file = dataDir.resolve("zoo.cfg");
        try {
            Files.createDirectories(dataDir.resolve("data"));
            Files.writeString(file, zooConfig(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        return file;
    }

    /** The text of {@code zoo.cfg}. */
    String zooConfig() {
        long tick = tickTime.toMillis();
        return "# written by dev.nona.local.LocalZooKeeper\n"
                + "tickTime=" + tick + "\n"
                + "dataDir=" + dataDir.resolve("data") + "\n"
                + "clientPort=" + port + "\n"
                + "clientPortAddress=127.0.0.1\n"
                + "maxClientCnxns=0\n"
                // the clients choose their session timeout: Flink's high-availability.zookeeper.client.session-timeout
                + "minSessionTimeout=" + Math.max(2 * tick, 1000) + "\n"
                + "maxSessionTimeout=60000\n"
                + "admin.enableServer=false\n"
                + "4lw.commands.whitelist=ruok,srvr,stat\n"
                + "autopurge.purgeInterval=1\n";
    }

    private Path writeLog4jConfig() {
        Path file = dataDir.resolve("log4j2.xml");
        String xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <Configuration status="WARN">
                  <Appenders>
                    <Console name="out" target="SYSTEM_OUT">
                      <PatternLayout pattern="%d{HH:mm:ss,SSS} %-5p %c{1} - %m%n"/>
                    </Console>
                  </Appenders>
                  <Loggers>
                    <Root level="INFO"><AppenderRef ref="out"/></Root>
                  </Loggers>
                </Configuration>
                """;
        try {
            Files.writeString(file, xml, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        return file;
    }

    /** Options; every one has a working default. */
    public static final class Builder {
        private Path dataDir;
        private int port;
        private Duration tickTime = Duration.ofMillis(500);
        private JvmClasspath classpath;
        private Duration startTimeout = Duration.ofSeconds(60);

        private Builder() {}

        /** Where {@code zoo.cfg}, the snapshots and the log go (default: a new temporary directory, deleted on close). */
        public Builder dataDir(Path dir) {
            this.dataDir = Objects.requireNonNull(dir, "data dir");
            return this;
        }

        /** The client port (default: a free one). */
        public Builder port(int port) {
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("ZooKeeper port (" + port + ") must be in 1..65535");
            }
            this.port = port;
            return this;
        }

        /** ZooKeeper's {@code tickTime} (default 500 ms): the shortest session a client may ask for is 2 ticks. */
        public Builder tickTime(Duration tick) {
            if (tick == null || tick.toMillis() < 1) {
                throw new IllegalArgumentException("ZooKeeper tick time (" + tick + ") must be >= 1 ms");
            }
            this.tickTime = tick;
            return this;
        }

        /** The child JVM's classpath (default: this JVM's, which must hold the ZooKeeper jars). */
        public Builder classpath(JvmClasspath cp) {
            this.classpath = Objects.requireNonNull(cp, "classpath");
            return this;
        }

        public Builder startTimeout(Duration timeout) {
            this.startTimeout = Objects.requireNonNull(timeout, "start timeout");
            return this;
        }

        public LocalZooKeeper build() {
            try {
                return new LocalZooKeeper(this);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create ZooKeeper's data directory", e);
            }
        }
    }
}
