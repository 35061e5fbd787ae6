package dev.nona.chaos;

import dev.nona.bench.ControllerOnCluster;
import dev.nona.local.FlinkHighAvailability;
import dev.nona.local.LocalKafkaBroker;
import dev.nona.local.LocalZooKeeper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A chaos run against the controller job on a multi-process Flink session cluster with ZooKeeper high availability
 * ({@link ControllerOnCluster}: two JobManagers, a leader and a standby, and two TaskManagers, each its own JVM; a
 * real ZooKeeper server, {@link LocalZooKeeper}), with the project's broker: the same traffic, schedule and
 * invariants as {@link ChaosRun}, whose controller process kill becomes the cluster's kills ({@link ClusterFaults}:
 * the TaskManager running the job, the leading JobManager, and the broker). The job reads its sources from the
 * latest offsets on its first start and from its checkpoints after a restart or a failover (decisions at least
 * once: the first per request wins). In the result, {@code controllerStarts} counts the job's submissions (1) and
 * {@code controllerExits} whether it ended failed (0 or 1).
 */
public final class ChaosOnCluster {
    /** How long the ZooKeeper server and the cluster may take to start on a loaded machine. */
    static final Duration START_TIMEOUT = Duration.ofMinutes(5);

    private ChaosOnCluster() {}

    /**
     * Runs the schedule of {@code s.seed()} with the controller's job jar {@code jobJar}; {@code log} hears the seed,
     * each fault and progress as it goes.
     */
    public static ChaosResult run(ChaosRun.Settings s, Path jobJar, Consumer<String> log) throws Exception {
        Objects.requireNonNull(jobJar, "job jar");
        long started = System.nanoTime();
        Files.createDirectories(s.workDir());
        ServerOutages outages = new ServerOutages();
        InvariantChecker checker = new InvariantChecker(s.seed(), s.livenessTimeoutMillis(), outages,
                v -> log.accept("VIOLATION " + v), System.currentTimeMillis());
        try (LocalZooKeeper zooKeeper = LocalZooKeeper.builder().dataDir(s.workDir().resolve("zookeeper"))
                .startTimeout(START_TIMEOUT).build().start();
                LocalKafkaBroker broker = LocalKafkaBroker.builder().dataDir(s.workDir().resolve("kafka"))
                        .startTimeout(ChaosRun.BROKER_START_TIMEOUT).build().start()) {
            String bootstrap = broker.bootstrapServers();
            ChaosRun.createTopics(bootstrap);
            try (BrokerFaults brokerFaults = new BrokerFaults(broker);
                    ControllerOnCluster controller = new ControllerOnCluster(bootstrap, s.controller(), s.workDir(), jobJar)
                    .highAvailability(FlinkHighAvailability.zooKeeper(zooKeeper.connectString()));
                    TelemetryAgent telemetry = new TelemetryAgent(bootstrap, s.models(), s.servers(),
                            ChaosRun.REPORT_PERIOD, outages);
                    RequestStream requests = new RequestStream(bootstrap, s.models());
                    ChaosObserver observer = new ChaosObserver(bootstrap, checker).start()) {
                TrafficFaults traffic = new TrafficFaults(bootstrap, telemetry);
                List<FaultInjector> injectors = List.of(brokerFaults, new ClusterFaults(controller, log),
                        traffic);
                if (!FaultRunner.kinds(injectors).equals(FaultKind.onCluster())) {
                    throw new IllegalStateException("BUG: the cluster's injectors do " + FaultRunner.kinds(injectors)
                            + ", not " + FaultKind.onCluster());
                }
                return ChaosRun.drive(s, " on a Flink cluster with HA", new ChaosRun.Rig(broker, controller,
                        telemetry, requests, observer, traffic, injectors), checker, started, log);
            }
        }
    }
}
