package dev.nona.chaos;

import dev.nona.bench.BadInputPublisher;
import dev.nona.bench.ControllerChildJvm;
import dev.nona.bench.ControllerUnderTest;
import dev.nona.check.Checks;
import dev.nona.local.LocalKafkaBroker;
import dev.nona.topics.TopicSpec;
import dev.nona.topics.Topics;
import dev.nona.topics.admin.TopicProvisioner;
import dev.nona.topics.client.ClientProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.flink.util.TimeUtils;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigResource;

/**
 * A chaos run against the embedded controller: the project's broker ({@link LocalKafkaBroker}, a child JVM) and
 * {@code bin/nona run} (a child JVM with a state directory); servers reporting every second
 * ({@link TelemetryAgent}); requests at a fixed rate ({@link RequestStream}); a seeded fault schedule
 * ({@link ChaosSchedule}) played over the traffic ({@link FaultRunner}, with {@link ProcessFaults} and
 * {@link TrafficFaults}); the controller's outputs checked as they arrive ({@link ChaosObserver},
 * {@link InvariantChecker}). Before the traffic the controller is warm (a decision from a solved table for every
 * model) and has a completed checkpoint; after it every fault is over (silent-for-good servers stay silent) and the
 * run waits (at most {@link #DRAIN_TIMEOUT}) for the undecided requests before judging "every request decided".
 */
public final class ChaosRun {
    static final Duration READY_TIMEOUT = Duration.ofSeconds(300);
    /** Generous: a broker restarted on a loaded machine (load 30 on 2 cores) took over 90 s to open its port. */
    static final Duration BROKER_START_TIMEOUT = Duration.ofSeconds(300);
    static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(300);
    static final Duration PROGRESS_EVERY = Duration.ofSeconds(10);
    static final Duration REPORT_PERIOD = Duration.ofSeconds(1);
    private static final long DEFAULT_LIVENESS_TIMEOUT_MILLIS = 3_000;
    static final long OUTAGE_MILLIS = 600_000;

    /**
     * @param seed           the schedule's seed
     * @param trafficSeconds seconds of requests, {@code >= 60}
     * @param rate           requests per second, {@code > 0}
     * @param servers        servers reporting, {@code >= 4}
     * @param models         zoo models the requests name, round robin
     * @param controller     the controller's settings ({@code docs/controller.md})
     * @param workDir        broker data, controller state directory and logs
     */
    public record Settings(long seed, int trafficSeconds, double rate, int servers, List<String> models,
            Map<String, String> controller, Path workDir) {
        public Settings {
            if (trafficSeconds < 60) {
                throw new IllegalArgumentException("traffic seconds (" + trafficSeconds + ") must be >= 60");
            }
            Checks.positive(rate, "--rate");
            if (servers < 4) {
                throw new IllegalArgumentException("--servers (" + servers + ") must be >= 4");
            }
            if (models.isEmpty()) {
                throw new IllegalArgumentException("models must not be empty");
            }
            models = List.copyOf(models);
            controller = Map.copyOf(controller);
            Objects.requireNonNull(workDir, "working directory");
        }

        /** {@code cluster.liveness-timeout} of the controller's settings (3 s by default). */
        long livenessTimeoutMillis() {
            String v = controller.get("cluster.liveness-timeout");
            return v == null ? DEFAULT_LIVENESS_TIMEOUT_MILLIS : TimeUtils.parseDuration(v).toMillis();
        }
    }

    private ChaosRun() {}

    /** The controller's settings of a chaos run: its own {@code controller.id}, sources from their latest offsets
     *  on the first start (a reused broker's earlier requests are not this run's), then {@code overrides}. */
    public static Map<String, String> controllerSettings(Map<String, String> overrides) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("controller.id", "nona-chaos");
        m.put("source.start-from-earliest", "false");
        m.putAll(overrides);
        return m;
    }

    /** Runs the schedule of {@code s.seed()}; {@code log} hears the seed, each fault and progress as it goes. */
    public static ChaosResult run(Settings s, Consumer<String> log) throws Exception {
        long started = System.nanoTime();
        Files.createDirectories(s.workDir());
        ServerOutages outages = new ServerOutages();
        InvariantChecker checker = new InvariantChecker(s.seed(), s.livenessTimeoutMillis(), outages,
                v -> log.accept("VIOLATION " + v), System.currentTimeMillis());
        try (LocalKafkaBroker broker = LocalKafkaBroker.builder().dataDir(s.workDir().resolve("kafka"))
                .startTimeout(BROKER_START_TIMEOUT).build()
                .start()) {
            String bootstrap = broker.bootstrapServers();
            createTopics(bootstrap);
            try (BrokerFaults brokerFaults = new BrokerFaults(broker);
                    ControllerChildJvm controller = new ControllerChildJvm(bootstrap, s.controller(), s.workDir());
                    TelemetryAgent telemetry = new TelemetryAgent(bootstrap, s.models(), s.servers(), REPORT_PERIOD,
                            outages);
                    RequestStream requests = new RequestStream(bootstrap, s.models());
                    ChaosObserver observer = new ChaosObserver(bootstrap, checker).start()) {
                TrafficFaults traffic = new TrafficFaults(bootstrap, telemetry);
                Rig rig = new Rig(broker, controller, telemetry, requests, observer, traffic,
                        List.of(brokerFaults, new ProcessFaults(controller), traffic));
                return drive(s, "", rig, checker, started, log);
            }
        }
    }

    /** What a run drives once they exist: the broker, the controller, the clients and the fault injectors. */
    record Rig(LocalKafkaBroker broker, ControllerUnderTest controller, TelemetryAgent telemetry,
            RequestStream requests, ChaosObserver observer, TrafficFaults traffic, List<FaultInjector> injectors) {}

    /**
     * The run itself, the same for every controller: the schedule of {@code s.seed()} over the injectors' kinds, the
     * catalog, telemetry and the controller started, warm (a decision from a solved table for every model) and with
     * a completed checkpoint before the traffic; then the traffic with the faults, the drain, and the verdict.
     *
     * @param where   said after the seed in the log ({@code ""}, or e.g. " on a Flink cluster with HA")
     * @param started when the run started ({@link System#nanoTime()}), for its duration
     */
    static ChaosResult drive(Settings s, String where, Rig rig, InvariantChecker checker, long started,
            Consumer<String> log) throws Exception {
        ControllerUnderTest controller = rig.controller();
        RequestStream requests = rig.requests();
        ChaosSchedule schedule = ChaosSchedule.draw(s.seed(), s.trafficSeconds() * 1000L,
                FaultRunner.kinds(rig.injectors()), s.servers());
        log.accept("seed " + s.seed() + where + ": " + schedule.faults().size() + " faults over "
                + s.trafficSeconds() + " s of traffic at " + s.rate() + " requests/s; work dir " + s.workDir());
        schedule.faults().forEach(f -> log.accept("  planned " + f.toJson()));
        requests.publishCatalog();
        rig.telemetry().start();
        controller.start();
        if (!controller.describe().isEmpty()) {
            log.accept(controller.describe());
        }
        awaitReady(requests, checker, rig.observer(), controller, s.models());
        controller.awaitCheckpoint(READY_TIMEOUT);
        FaultRunner faults = new FaultRunner(schedule, rig.injectors(), log);
        long t0 = System.nanoTime();
        long t0Epoch = System.currentTimeMillis();
        requests.start(s.rate(), (int) Math.round(s.rate() * s.trafficSeconds()));
        faults.start(t0);
        watch(t0, requests, faults, checker, rig.observer(), controller, log);
        drain(requests, checker, rig.observer(), controller, log);
        checker.finish(requests.sent(), requests::sentAt);
        if (!controller.isAlive()) {
            log.accept("the controller ended failed: " + controller.logTail(3000));
        }
        TrafficFaults traffic = rig.traffic();
        List<FaultRunner.Injected> injected = faults.injected();
        int sent = requests.sent();
        List<Resumption> resumptions = checker.resumptions(injected, t0Epoch,
                sent == 0 ? t0Epoch : requests.sentAt(sent - 1));
        for (int i = 0; i < injected.size(); i++) {
            Resumption r = resumptions.get(i);
            log.accept("fault " + injected.get(i).fault().kind().key() + " ending at " + r.endMillis() / 1000.0
                    + " s: " + (r.resumeMillis() == null ? "no decision after it"
                            : "decisions resumed " + r.resumeMillis() + " ms after, longest gap "
                                    + r.longestGapMillis() + " ms")
                    + (r.decidingWhenBegan() ? "" : "; decisions had stopped before it began")
                    + (r.afterTraffic() ? "; after the traffic" : ""));
        }
        return new ChaosResult(s, schedule, injected, resumptions, checker.counts(), checker.violations(),
                checker.violationCount(), requests.sent(), checker.decided(requests.sent()),
                checker.duplicates(), checker.counts().get(Violation.Invariant.NO_VALID_REQUEST_DEAD_LETTERED
                        .key()).get("violations"), checker.deadLetters(), checker.decisions(),
                checker.tables(), traffic.badSent(), traffic.badAcked(), traffic.badRefused(),
                controller.starts(), controller.exits(), rig.broker().starts(),
                Math.round((System.nanoTime() - started) / 1e8) / 10.0);
    }

    /**
     * Producer settings that wait out a broker outage rather than fail: records made during it are kept and sent
     * when the broker is back ({@link ClientProperties#bufferThroughOutages}), with their own times, as a client that
     * goes on making requests and reports would send them; a send blocks only on a full buffer, and a record is
     * retried for up to {@link #OUTAGE_MILLIS}; a broker restarted on a loaded machine took up to 212 s.
     */
    static void rideOutOutages(Properties p) {
        ClientProperties.bufferThroughOutages(p);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(OUTAGE_MILLIS));
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, String.valueOf(OUTAGE_MILLIS));
    }

    /** The topics; {@code inference-requests} and {@code model-catalog} take the malformed 5 MB values (the worst
     *  case: they reach the controller). */
    static void createTopics(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            new TopicProvisioner(admin, Duration.ofSeconds(30)).ensure(Topics.all(), Optional.empty(),
                    Optional.of((short) 1));
            AlterConfigOp large = new AlterConfigOp(new ConfigEntry("max.message.bytes",
                    String.valueOf(BadInputPublisher.MAX_REQUEST_BYTES)), AlterConfigOp.OpType.SET);
            Map<ConfigResource, Collection<AlterConfigOp>> ops = new HashMap<>();
            for (TopicSpec<?> t : List.of(Topics.INFERENCE_REQUESTS, Topics.MODEL_CATALOG)) {
                ops.put(new ConfigResource(ConfigResource.Type.TOPIC, t.name()), List.of(large));
            }
            admin.incrementalAlterConfigs(ops).all().get(30, TimeUnit.SECONDS);
        }
    }

    private static void awaitReady(RequestStream requests, InvariantChecker checker, ChaosObserver observer,
            ControllerUnderTest controller, List<String> models) throws InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (!checker.readyModels().containsAll(models)) {
            observer.check();
            if (System.nanoTime() > deadline || !controller.isAlive()) {
                throw new IllegalStateException("the controller placed no request from a solved table for every "
                        + "model within " + READY_TIMEOUT.toSeconds() + " s: " + controller.logTail(4000));
            }
            requests.publishReadyChecks();
            Thread.sleep(1_000);
        }
    }

    /** Until the requests are sent and the faults over: a progress line every {@link #PROGRESS_EVERY}. */
    private static void watch(long t0, RequestStream requests, FaultRunner faults, InvariantChecker checker,
            ChaosObserver observer, ControllerUnderTest controller, Consumer<String> log)
            throws InterruptedException {
        long next = t0 + PROGRESS_EVERY.toNanos();
        while (requests.sent() < requests.count() || faults.running()) {
            requests.check();
            observer.check();
            faults.check();
            noteExit(controller, log);
            if (System.nanoTime() >= next) {
                progress("traffic", (System.nanoTime() - t0) / 1_000_000_000, requests, checker, log);
                next += PROGRESS_EVERY.toNanos();
            }
            Thread.sleep(200);
        }
        requests.await(Duration.ofSeconds(150));
        faults.await();
    }

    private static void drain(RequestStream requests, InvariantChecker checker, ChaosObserver observer,
            ControllerUnderTest controller, Consumer<String> log) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + DRAIN_TIMEOUT.toNanos();
        long next = start + PROGRESS_EVERY.toNanos();
        while (checker.decided(requests.sent()) < requests.sent() && System.nanoTime() < deadline) {
            observer.check();
            noteExit(controller, log);
            if (System.nanoTime() >= next) {
                progress("drain", (System.nanoTime() - start) / 1_000_000_000, requests, checker, log);
                next += PROGRESS_EVERY.toNanos();
            }
            Thread.sleep(200);
        }
        Thread.sleep(2_000); // a late duplicate or a late record of a violation would show
        observer.check();
        noteExit(controller, log);
    }

    /** Notes (once per start) a controller that ended by itself (a process that exited without being killed). */
    private static void noteExit(ControllerUnderTest controller, Consumer<String> log) {
        controller.endedByItself().ifPresent(log);
    }

    static void progress(String phase, long seconds, RequestStream requests, InvariantChecker checker,
            Consumer<String> log) {
        int sent = requests.sent();
        log.accept(phase + " " + seconds + " s: sent " + sent + ", decided " + checker.decided(sent) + ", duplicates "
                + checker.duplicates() + ", dead letters " + checker.deadLetters() + ", violations "
                + checker.violationCount());
    }
}
