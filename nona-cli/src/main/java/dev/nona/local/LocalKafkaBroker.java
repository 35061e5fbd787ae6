package dev.nona.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka 4.x broker in KRaft mode (combined {@code broker,controller}) running as a child
 * JVM, started from the Maven-resolved {@code kafka_2.13} artifacts on this JVM's classpath: no Kafka
 * distribution, no ZooKeeper, no Docker.
 *
 * <p>{@link #start()} writes {@code server.properties} (loopback listeners on free ports, replication 1,
 * {@code group.initial.rebalance.delay.ms=0}), formats the data directory once with {@code
 * kafka.tools.StorageTool format} and a random cluster id, starts {@code kafka.Kafka} and waits until the
 * broker answers an admin request. {@link #stop()} is a clean SIGTERM shutdown, {@link #kill()} a {@code
 * kill -9}; both keep the data directory and ports, so {@link #start()} afterwards restarts the same broker
 * with its logs, offsets and transaction state. Not thread safe: drive it from one thread.
 */
public final class LocalKafkaBroker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalKafkaBroker.class);
    private static final String STORAGE_TOOL = "kafka.tools.StorageTool";
    private static final String KAFKA_MAIN = "kafka.Kafka";
    /** Start attempts on OS-chosen ports found taken (see {@link #start()}). */
    static final int PORT_ATTEMPTS = 3;

    private final Path dataDir;
    private final boolean ownsDataDir;
    private int brokerPort;
    private int controllerPort;
    /** Whether the OS chose the ports (then a first start that finds one taken tries two new ones). */
    private final boolean portsChosen;
    private final IntFunction<int[]> portChooser;
    private boolean everReady;
    private final JvmClasspath classpath;
    private final List<String> jvmOptions;
    private final Map<String, String> overrides;
    private final Duration startTimeout;
    private ChildJvm process;
    private int starts;

    private LocalKafkaBroker(Builder b) throws IOException {
        if (b.brokerPort > 0 && b.brokerPort == b.controllerPort) {
            throw new IllegalArgumentException("broker port and controller port are both " + b.brokerPort
                    + "; the two listeners need different ports");
        }
        this.portChooser = b.portChooser;
        this.portsChosen = b.brokerPort == 0 && b.controllerPort == 0;
        int[] free = portsChosen ? portChooser.apply(2) : FreePorts.distinct(2, b.brokerPort, b.controllerPort);
        this.brokerPort = b.brokerPort > 0 ? b.brokerPort : free[0];
        this.controllerPort = b.controllerPort > 0 ? b.controllerPort : free[1];
        this.ownsDataDir = b.dataDir == null;
        this.dataDir = ownsDataDir ? Files.createTempDirectory("nona-kafka-") : b.dataDir.toAbsolutePath();
        this.classpath = b.classpath != null ? b.classpath : JvmClasspath.current();
        this.jvmOptions = List.copyOf(b.jvmOptions);
        this.overrides = Map.copyOf(b.overrides);
        this.startTimeout = b.startTimeout;
        if (!classpath.containsJar("kafka_2.13-")) {
            throw new IllegalStateException("kafka_2.13 is not on the classpath; build with "
                    + "mvn -B -DskipTests package (it is copied to flink-jobs/target/lib)");
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** {@code 127.0.0.1:<port>}, stable across restarts. */
    public String bootstrapServers() {
        return "127.0.0.1:" + brokerPort;
    }

    public Path dataDir() {
        return dataDir;
    }

    public Path logFile() {
        return dataDir.resolve("broker.log");
    }

    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** The process id of the running broker. */
    public long pid() {
        if (!isRunning()) {
            throw new IllegalStateException("broker is not running");
        }
        return process.pid();
    }

    /**
     * Formats on first use, starts the broker and waits until it answers; a no-op when it is running.
     *
     * <p>Ports the OS chose were free when chosen, but another process may bind one before the broker starts (its JVM
     * takes a second or two). Until the broker has once been ready, a start that fails with "Address already in use"
     * on such ports tries two new ones, up to {@value #PORT_ATTEMPTS} attempts. Ports the builder was given, and every
     * restart after the first ready start (clients hold the address), are never changed.
     */
    public LocalKafkaBroker start() {
        for (int attempt = 1; ; attempt++) {
            try {
                LocalKafkaBroker started = startOnce();
                everReady = true;
                return started;
            } catch (IllegalStateException e) {
                if (everReady || !portsChosen || attempt >= PORT_ATTEMPTS
                        || !String.valueOf(e.getMessage()).contains("Address already in use")) {
                    throw e;
                }
                int[] free = portChooser.apply(2);
                LOG.warn("Kafka broker ports {} and {} were taken before it bound them (attempt {} of {}); trying {} and {}",
                        brokerPort, controllerPort, attempt, PORT_ATTEMPTS, free[0], free[1]);
                brokerPort = free[0];
                controllerPort = free[1];
            }
        }
    }

    private LocalKafkaBroker startOnce() {
        if (isRunning()) {
            return this;
        }
        Path config = writeServerProperties();
        Path log4j = writeLog4jConfig();
        List<String> opts = new ArrayList<>(jvmOptions);
        opts.add("-Dlog4j2.configurationFile=" + log4j.toUri());
        if (!Files.exists(dataDir.resolve("kraft-logs").resolve("meta.properties"))) {
            ChildJvm.run("kafka-storage-format", opts, classpath, STORAGE_TOOL,
                    List.of("format", "-t", Uuid.randomUuid().toString(), "-c", config.toString()),
                    dataDir.resolve("format.log"), Duration.ofSeconds(60));
        }
        long t0 = System.nanoTime();
        process = ChildJvm.start("kafka-broker", opts, classpath, KAFKA_MAIN, List.of(config.toString()), logFile());
        starts++;
        awaitReady();
        LOG.info("Kafka broker pid {} ready at {} in {} ms (start #{}, data {})", process.pid(), bootstrapServers(),
                (System.nanoTime() - t0) / 1_000_000, starts, dataDir);
        return this;
    }

    /** Clean shutdown (SIGTERM), keeping the data directory. */
    public void stop() {
        if (process != null) {
            process.stop(Duration.ofSeconds(30));
        }
    }

    /** {@code kill -9} of the broker process, keeping the data directory. */
    public void kill() {
        if (process != null) {
            process.kill();
        }
    }

    /** How many times the broker process was started. */
    public int starts() {
        return starts;
    }

    /** Stops the broker and, if this object created the data directory, deletes it. */
    @Override
    public void close() {
        stop();
        if (ownsDataDir) {
            deleteRecursively(dataDir);
        }
    }

    /** The broker's configuration: the defaults below, then the builder's overrides. */
    Map<String, String> serverProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
        p.put("log.dirs", dataDir.resolve("kraft-logs").toString());
        p.put("auto.create.topics.enable", "false");
        p.put("num.partitions", "1");
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "5");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "5");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("log.segment.bytes", String.valueOf(64 * 1024 * 1024));
        // a 1 MB receive buffer (with Kafka's 100 kB, a busy loopback connection drops segments, each resent after
        // at least 200 ms: ClientProperties.SOCKET_BUFFERS)
        p.put("socket.receive.buffer.bytes", String.valueOf(1 << 20));
        // A restart after kill -9 finds its own registration from before the kill in the metadata log: the
        // controller refuses the new one (DUPLICATE_BROKER_REGISTRATION) until the old session expires, 9 s by
        // default, a restart of about 14 s. One broker, heartbeats over loopback within its own JVM: 3 s is four
        // missed heartbeats, and a restart takes about 6 s.
        p.put("broker.session.timeout.ms", "3000");
        p.put("broker.heartbeat.interval.ms", "750");
        p.putAll(overrides);
        return p;
    }

    private Path writeServerProperties() {
        StringBuilder text = new StringBuilder("# written by dev.nona.local.LocalKafkaBroker\n");
        serverProperties().forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        return write(dataDir.resolve("server.properties"), text.toString());
    }

    private Path writeLog4jConfig() {
        String xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <Configuration status="WARN">
                  <Appenders>
                    <Console name="stderr" target="SYSTEM_ERR">
                      <PatternLayout pattern="[%d] %p %m (%c)%n"/>
                    </Console>
                  </Appenders>
                  <Loggers>
                    <Logger name="kafka" level="INFO"/>
                    <Logger name="org.apache.kafka" level="INFO"/>
                    <Logger name="state.change.logger" level="WARN"/>
                    <Logger name="kafka.request.logger" level="WARN"/>
                    <Root level="WARN"><AppenderRef ref="stderr"/></Root>
                  </Loggers>
                </Configuration>
                """;
        return write(dataDir.resolve("log4j2.xml"), xml);
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + startTimeout.toNanos();
        awaitPortOpen(deadline);
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "3000");
        props.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "200");
        try (Admin admin = Admin.create(props)) {
            while (true) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("Kafka broker exited during start-up: " + process.logTail(3000));
                }
                try {
                    if (!admin.describeCluster(new DescribeClusterOptions().timeoutMs(2000))
                            .nodes().get(3, TimeUnit.SECONDS).isEmpty()) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException notYet) {
                    // keep polling until the deadline
                }
                if (System.nanoTime() > deadline) {
                    process.kill();
                    throw new IllegalStateException("Kafka broker not ready within " + startTimeout + ": "
                            + process.logTail(3000));
                }
                Thread.sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the Kafka broker", e);
        }
    }

    private void awaitPortOpen(long deadline) {
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", brokerPort), 500);
                return;
            } catch (IOException notYet) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("Kafka broker exited during start-up: " + process.logTail(3000));
                }
                if (System.nanoTime() > deadline) {
                    process.kill();
                    throw new IllegalStateException("Kafka broker port " + brokerPort + " not open within "
                            + startTimeout + ": " + process.logTail(3000));
                }
                sleep(100);
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the Kafka broker", e);
        }
    }

    private static Path write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            return Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }

    /** Options; every one has a working default. */
    public static final class Builder {
        private Path dataDir;
        private int brokerPort;
        private int controllerPort;
        private JvmClasspath classpath;
        private final List<String> jvmOptions = new ArrayList<>(List.of("-Xms128m", "-Xmx512m",
                "-XX:+UseG1GC", "-XX:G1HeapRegionSize=4m", "-Djava.awt.headless=true"));
        private final Map<String, String> overrides = new LinkedHashMap<>();
        private Duration startTimeout = Duration.ofSeconds(90);
        private IntFunction<int[]> portChooser = FreePorts::distinct;

        private Builder() {}

        /** Where OS-chosen ports come from: {@code n} distinct ports (tests; default {@link FreePorts#distinct}). */
        Builder portChooser(IntFunction<int[]> chooser) {
            this.portChooser = Objects.requireNonNull(chooser, "port chooser");
            return this;
        }

        /** Data directory to keep (default: a temporary one, deleted by {@link #close()}). */
        public Builder dataDir(Path dir) {
            this.dataDir = Objects.requireNonNull(dir, "data dir");
            return this;
        }

        /** Broker (PLAINTEXT) port; default a free one. */
        public Builder brokerPort(int port) {
            this.brokerPort = checkPort(port, "broker port");
            return this;
        }

        public Builder controllerPort(int port) {
            this.controllerPort = checkPort(port, "controller port");
            return this;
        }

        /** Where {@code kafka_2.13} and its dependencies are; default this JVM's classpath. */
        public Builder classpath(JvmClasspath cp) {
            this.classpath = Objects.requireNonNull(cp, "classpath");
            return this;
        }

        /** A broker setting that replaces the default (e.g. {@code message.max.bytes}). */
        public Builder property(String key, String value) {
            overrides.put(Objects.requireNonNull(key, "property key"), Objects.requireNonNull(value, key));
            return this;
        }

        public Builder startTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("start timeout (" + timeout + ") must be > 0");
            }
            this.startTimeout = timeout;
            return this;
        }

        public LocalKafkaBroker build() {
            try {
                return new LocalKafkaBroker(this);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create the broker's data directory", e);
            }
        }

        private static int checkPort(int port, String role) {
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException(role + " (" + port + ") must be in 1..65535");
            }
            return port;
        }
    }
}
