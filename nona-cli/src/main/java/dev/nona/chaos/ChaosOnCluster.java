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
                v -> log.accept("VIOLATION " + v));
        int count = (int) Math.round(s.rate() * s.trafficSeconds());
        try (LocalZooKeeper zooKeeper = LocalZooKeeper.builder().dataDir(s.workDir().resolve("zookeeper"))
                .startTimeout(START_TIMEOUT).build().start();
                LocalKafkaBroker broker = LocalKafkaBroker.builder().dataDir(s.workDir().resolve("kafka"))
                        .startTimeout(ChaosRun.BROKER_START_TIMEOUT).build().start()) {
            String bootstrap = broker.bootstrapServers();
            ChaosRun.createTopics(bootstrap);
            try (ControllerOnCluster controller = new ControllerOnCluster(bootstrap, s.controller(), s.workDir(), jobJar)
                    .highAvailability(FlinkHighAvailability.zooKeeper(zooKeeper.connectString()));
                    TelemetryAgent telemetry = new TelemetryAgent(bootstrap, s.models(), s.servers(),
                            ChaosRun.REPORT_PERIOD, outages);
                    RequestStream requests = new RequestStream(bootstrap, s.models());
                    ChaosObserver observer = new ChaosObserver(bootstrap, checker).start()) {
                TrafficFaults traffic = new TrafficFaults(bootstrap, telemetry);
                List<FaultInjector> injectors = List.of(new ClusterFaults(broker, controller, log), traffic);
                if (!FaultRunner.kinds(injectors).equals(FaultKind.onCluster())) {
                    throw new IllegalStateException("BUG: the cluster's injectors do " + FaultRunner.kinds(injectors)
                            + ", not " + FaultKind.onCluster());
                }
                ChaosSchedule schedule = ChaosSchedule.draw(s.seed(), s.trafficSeconds() * 1000L,
                        FaultKind.onCluster(), s.servers());
                log.accept("seed " + s.seed() + " on a Flink cluster with HA: " + schedule.faults().size()
                        + " faults over " + s.trafficSeconds() + " s of traffic at " + s.rate() + " requests/s; work dir "
                        + s.workDir());
                schedule.faults().forEach(f -> log.accept("  planned " + f.toJson()));
                requests.publishCatalog();
                telemetry.start();
                controller.start();
                log.accept("controller job " + controller.job() + " runs; Flink logs in "
                        + controller.cluster().workDir().resolve("log"));
                awaitReady(requests, checker, observer, controller, s.models());
                controller.awaitCheckpoint(ChaosRun.READY_TIMEOUT);
                FaultRunner faults = new FaultRunner(schedule, injectors, log);
                long t0 = System.nanoTime();
                requests.start(s.rate(), count);
                faults.start(t0);
                watch(t0, requests, faults, checker, observer, log);
                drain(requests, checker, observer, log);
                checker.finish(requests.sent(), requests::sentAt);
                boolean failed = !controller.isAlive();
                if (failed) {
                    log.accept("the controller job failed: " + controller.logTail(3000));
                }
                return new ChaosResult(s, schedule, faults.injected(), checker.counts(), checker.violations(),
                        checker.violationCount(), requests.sent(), checker.decided(requests.sent()),
                        checker.duplicates(), checker.counts().get(Violation.Invariant.NO_VALID_REQUEST_DEAD_LETTERED
                                .key()).get("violations"), checker.deadLetters(), checker.decisions(),
                        checker.tables(), traffic.badSent(), traffic.badAcked(), traffic.badRefused(), 1,
                        failed ? 1 : 0, broker.starts(), Math.round((System.nanoTime() - started) / 1e8) / 10.0);
            }
        }
    }

    private static void awaitReady(RequestStream requests, InvariantChecker checker, ChaosObserver observer,
            ControllerOnCluster controller, List<String> models) throws InterruptedException {
        long deadline = System.nanoTime() + ChaosRun.READY_TIMEOUT.toNanos();
        while (!checker.readyModels().containsAll(models)) {
            observer.check();
            if (System.nanoTime() > deadline || !controller.isAlive()) {
                throw new IllegalStateException("the controller job placed no request from a solved table for every "
                        + "model within " + ChaosRun.READY_TIMEOUT.toSeconds() + " s: " + controller.logTail(4000));
            }
            requests.publishReadyChecks();
            Thread.sleep(1_000);
        }
    }

    /**
     * Until the requests are sent and the faults over: a progress line every {@link ChaosRun#PROGRESS_EVERY}. The
     * cluster is driven by the fault thread alone (it is not thread safe); a failed job shows as undecided requests.
     */
    private static void watch(long t0, RequestStream requests, FaultRunner faults, InvariantChecker checker,
            ChaosObserver observer, Consumer<String> log) throws InterruptedException {
        long next = t0 + ChaosRun.PROGRESS_EVERY.toNanos();
        while (requests.sent() < requests.count() || faults.running()) {
            requests.check();
            observer.check();
            faults.check();
            if (System.nanoTime() >= next) {
                ChaosRun.progress("traffic", (System.nanoTime() - t0) / 1_000_000_000, requests, checker, log);
                next += ChaosRun.PROGRESS_EVERY.toNanos();
            }
            Thread.sleep(200);
        }
        requests.await(Duration.ofSeconds(150));
        faults.await();
    }

    private static void drain(RequestStream requests, InvariantChecker checker, ChaosObserver observer,
            Consumer<String> log) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + ChaosRun.DRAIN_TIMEOUT.toNanos();
        long next = start + ChaosRun.PROGRESS_EVERY.toNanos();
        while (checker.decided(requests.sent()) < requests.sent() && System.nanoTime() < deadline) {
            observer.check();
            if (System.nanoTime() >= next) {
                ChaosRun.progress("drain", (System.nanoTime() - start) / 1_000_000_000, requests, checker, log);
                next += ChaosRun.PROGRESS_EVERY.toNanos();
            }
            Thread.sleep(200);
        }
        Thread.sleep(2_000); // a late duplicate or a late record of a violation would show
        observer.check();
    }
}
