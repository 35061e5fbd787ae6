package dev.nona.demo;

import dev.nona.controller.ControllerConfig;
import dev.nona.controller.ControllerEnvironment;
import dev.nona.controller.ControllerJob;
import dev.nona.controller.ControllerOptions;
import dev.nona.controller.catalog.CatalogDags;
import dev.nona.dashboard.Dashboard;
import dev.nona.local.LocalJobs;
import dev.nona.local.LocalKafkaBroker;
import dev.nona.local.PrometheusReporterSettings;
import dev.nona.topics.Topics;
import dev.nona.topics.admin.TopicProvisioner;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.OutcomeStatus;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.twin.BaselineReplay;
import dev.nona.twin.RunningTwin;
import dev.nona.twin.TwinOptions;
import dev.nona.workload.ColdStartCost;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.flink.core.execution.JobClient;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * The one-command demo, a closed loop: a real Kafka broker (KRaft, child process), the controller's topics, the
 * controller job on a local Flink MiniCluster (reading {@code placement-outcomes}), the executor twin (which
 * executes the decisions on a simulated cluster and publishes the servers' telemetry and the outcomes), a
 * publisher of requests (with a rate shift and malformed records), and a read_committed reader of the
 * controller's and the twin's output with a live view. Returns the summary; everything it started is stopped
 * before it returns. The standard scenario runs the five zoo models on four servers; a {@link DemoWorkload} runs a
 * workload file's cluster and models instead.
 */
public final class Demo {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(60);

    /** Outcomes still missing this long after the last decision are reported missing (the twin times out at 10 s). */
    private static final Duration OUTCOME_DRAIN_TIMEOUT = Duration.ofSeconds(15);

    private final DemoScenario scenario;
    private final TwinOptions twinOptions;
    private final String baselinePolicy;
    private final PrintStream view;
    private final int metricsPort;
    /** Per model, what is published to {@code model-catalog}; settings added to the controller's. */
    private final Map<String, ModelCatalogEntry> catalog;
    private final Map<String, String> extraSettings;
    private Integer dashboardPort;
    /** The baseline replay's decisions with a part larger than its server's memory (its {@code failed} outcomes). */
    private long baselineMemoryViolations;

    public Demo(DemoScenario scenario, PrintStream view) {
        this(scenario, twinOptions(scenario, Map.of(), Map.of()), "spark-fair", view, 0);
    }

    /**
     * A demo whose executor twin runs with {@code twinOptions} (e.g. with a slowed or silenced server), compared at
     * the end with {@code baselinePolicy} (one of {@link BaselineReplay#POLICIES}) on the same arrivals.
     *
     * @param metricsPort port of Flink's Prometheus reporter ({@code /metrics}), or 0 for none
     */
    public Demo(DemoScenario scenario, TwinOptions twinOptions, String baselinePolicy, PrintStream view,
            int metricsPort) {
        this(scenario, zooCatalog(scenario), Map.of(), twinOptions, baselinePolicy, view, metricsPort);
    }

    /**
     * A demo of a workload file's cluster and models ({@code bin/nona demo --workload F}), compared at the end with
     * {@code baselinePolicy}.
     */
    public Demo(DemoWorkload workload, String baselinePolicy, PrintStream view, int metricsPort) {
        this(workload.scenario(), workload.catalog(), workload.controllerSettings(), workload.twin(), baselinePolicy,
                view, metricsPort);
    }

    private Demo(DemoScenario scenario, Map<String, ModelCatalogEntry> catalog, Map<String, String> extraSettings,
            TwinOptions twinOptions, String baselinePolicy, PrintStream view, int metricsPort) {
        this.catalog = Map.copyOf(catalog);
        this.extraSettings = Map.copyOf(extraSettings);
        if (!BaselineReplay.POLICIES.contains(baselinePolicy)) {
            throw new IllegalArgumentException("--baseline ('" + baselinePolicy + "') must be one of "
                    + new TreeSet<>(BaselineReplay.POLICIES));
        }
        this.baselinePolicy = baselinePolicy;
        if (twinOptions.servers() != scenario.servers()) {
            throw new IllegalArgumentException("the twin's servers (" + twinOptions.servers()
                    + ") must be the scenario's (" + scenario.servers() + ")");
        }
        this.scenario = scenario;
        this.twinOptions = twinOptions;
        this.view = view;
        this.metricsPort = metricsPort;
    }

    private static Map<String, ModelCatalogEntry> zooCatalog(DemoScenario scenario) {
        Map<String, ModelCatalogEntry> out = new LinkedHashMap<>();
        scenario.models().forEach(m -> out.put(m, ZooCatalog.entry(m)));
        return out;
    }

    /**
     * The executor twin of the demo's cluster: the scenario's servers, speed and link; five model slots per
     * server (room for the five zoo models: cold starts only on first use) and a 0.5 s cold start; requests
     * time out after 10 s; the given faults.
     */
    public static TwinOptions twinOptions(DemoScenario scenario, Map<String, Double> slow, Map<String, Double> silence) {
        return new TwinOptions(scenario.servers(), scenario.opsPerSecond(), scenario.linkBitsPerSecond(), 5, 0.5, 10,
                slow, silence);
    }

    /** Also serves the live page ({@link Dashboard}) on {@code port} (0: any free one) when not null. */
    public Demo withDashboard(Integer port) {
        this.dashboardPort = port;
        return this;
    }

    public DemoSummary run() throws Exception {
        quietFrameworkLogs();
        Path work = Files.createTempDirectory("nona-demo-");
        view.println("nona demo: starting a Kafka broker (KRaft) ...");
        try (LocalKafkaBroker broker = LocalKafkaBroker.builder().dataDir(work.resolve("kafka")).build().start()) {
            view.println("nona demo: broker at " + broker.bootstrapServers() + " (log " + broker.logFile() + ")");
            createTopics(broker.bootstrapServers());
            try (RunningTwin twin = RunningTwin.start(broker.bootstrapServers(), twinOptions)) {
                view.println("nona demo: executor twin running: " + twinServers() + faults());
                JobClient controller = startController(broker.bootstrapServers(), work);
                view.println("nona demo: controller job " + controller.getJobID() + " running on a local MiniCluster");
                try (Dashboard dashboard = startDashboard(broker.bootstrapServers());
                        DemoWatcher watcher = new DemoWatcher(broker.bootstrapServers()).start();
                        DemoPublisher publisher = new DemoPublisher(broker.bootstrapServers(), scenario, catalog,
                                new DemoCounters())) {
                    return drive(publisher, watcher, controller, twin);
                } finally {
                    LocalJobs.stop(controller);
                }
            }
        } finally {
            LocalJobs.deleteQuietly(work);
        }
    }

    /**
     * Warm-up requests until one per model is decided (see {@link DemoPublisher#publishWarmups}), then a round a
     * second until the controller has published its first table, so that the measured run starts with a table in
     * force (solved at the warm-up's rates; the rates of the run are a drift from them) rather than racing the first
     * solve: otherwise what the outcomes of the first measured seconds teach (a slowed server's speed) may reach the
     * first solve or miss it, and whether learning changes a table would depend on that race.
     */
    private void warmUp(DemoPublisher publisher, DemoWatcher watcher, JobClient controller) throws Exception {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (!watcher.warmupDecidedModels.containsAll(scenario.models())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the controller placed no warm-up request for "
                        + scenario.models().stream().filter(m -> !watcher.warmupDecidedModels.contains(m)).toList()
                        + " within " + READY_TIMEOUT.toSeconds() + " s");
            }
            publisher.publishWarmups(scenario.models().stream()
                    .filter(m -> !watcher.warmupDecidedModels.contains(m)).toList());
            LocalJobs.await(() -> watcher.warmupDecidedModels.containsAll(scenario.models()), Duration.ofSeconds(2), 100,
                    watcher::check, controller);
        }
        while (watcher.tableRecords.get() == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the controller published no table within "
                        + READY_TIMEOUT.toSeconds() + " s");
            }
            publisher.publishWarmups(scenario.models());
            LocalJobs.await(() -> watcher.tableRecords.get() > 0, Duration.ofSeconds(1), 100, watcher::check,
                    controller);
        }
        view.println("nona demo: the controller places requests and has a table in force (" + publisher.warmups()
                + " warm-up requests, not counted)");
    }

    /** The twin's servers: their ids, or with part caches their classes (there may be many servers). */
    private String twinServers() {
        if (!twinOptions.partCaches()) {
            return "servers " + twinOptions.serverIds();
        }
        StringBuilder out = new StringBuilder("servers s-0 .. s-" + (twinOptions.servers() - 1) + " in classes");
        twinOptions.classes().forEach(c -> out.append(String.format(Locale.ROOT, " %s (%d x %.3g ops/s, %s)", c.name(),
                c.count(), c.opsPerSecond(), c.memoryBounded() ? String.format(Locale.ROOT, "%.3g bytes", c.memoryBytes())
                        : "memory not modelled")));
        if (twinOptions.coldStart() != null) {
            out.append(String.format(Locale.ROOT, ", cold start %s s + bytes / %.3g B/s",
                    twinOptions.coldStart().fixedSeconds(), twinOptions.coldStart().loadBytesPerSecond()));
            if (twinOptions.coldStart().weight() != ColdStartCost.DEFAULT_WEIGHT) {
                out.append(String.format(Locale.ROOT, " (priced %sx by the placement rule)", twinOptions.coldStart().weight()));
            }
            if (twinOptions.coldStart().rentHalfLifeSeconds() != ColdStartCost.DEFAULT_RENT_HALF_LIFE_SECONDS) {
                out.append(String.format(Locale.ROOT, " (the rule's rent halving every %s s)",
                        twinOptions.coldStart().rentHalfLifeSeconds()));
            }
        }
        return out.toString();
    }

    private String faults() {
        String slow = twinOptions.slowFactors().isEmpty() ? "" : ", slowed " + twinOptions.slowFactors();
        String silent = twinOptions.silenceAfterSeconds().isEmpty() ? ""
                : ", silenced (seconds after the start) " + twinOptions.silenceAfterSeconds();
        return slow + silent;
    }

    private DemoSummary drive(DemoPublisher publisher, DemoWatcher watcher, JobClient controller, RunningTwin twin)
            throws Exception {
        DemoCounters counters = publisher.counters();
        LiveView live = new LiveView(view, scenario, counters, watcher);
        publisher.publishCatalog();
        view.println("nona demo: published the catalog (" + scenario.models() + "); the twin reports "
                + scenario.servers() + " servers; waiting for the controller to take them in ...");
        boolean ready = LocalJobs.await(() -> watcher.events(ControllerEventType.CATALOG_UPDATED) >= scenario.models().size()
                && watcher.events(ControllerEventType.CLUSTER_CHANGED) >= 1, READY_TIMEOUT, 100, watcher::check, controller);
        if (!ready) {
            throw new IllegalStateException("the controller did not report the catalog and the cluster within "
                    + READY_TIMEOUT.toSeconds() + " s");
        }
        warmUp(publisher, watcher, controller);
        view.printf("nona demo: publishing requests for %d s (rates change at %d s) ...%n",
                scenario.duration().toSeconds(), scenario.duration().toSeconds() / 2);
        long t0 = System.nanoTime();
        long startMillis = System.currentTimeMillis();
        long halfMillis = System.currentTimeMillis() + scenario.duration().toMillis() / 2;
        Thread ticker = new Thread(() -> tick(live, t0), "nona-demo-view");
        ticker.setDaemon(true);
        ticker.start();
        try {
            publisher.publishRequests();
            view.println("nona demo: all requests published; waiting for the last decisions ...");
            LocalJobs.await(() -> watcher.decidedIds.size() >= counters.requests.get()
                    && watcher.deadLetterPositions.size() >= counters.malformed.get(), DRAIN_TIMEOUT, 100, watcher::check,
                    controller);
            Thread.sleep(1_500); // a late duplicate would show up here
            view.println("nona demo: waiting for the twin's last outcomes ...");
            LocalJobs.await(() -> watcher.outcomeIds.containsAll(watcher.decidedIds), OUTCOME_DRAIN_TIMEOUT, 100,
                    () -> {
                        watcher.check();
                        twin.check();
                    }, controller);
            LocalJobs.checkRunning(controller, "controller");
        } finally {
            ticker.interrupt();
            ticker.join(2_000);
        }
        live.print((System.nanoTime() - t0) / 1e9, "final");
        double seconds = (System.nanoTime() - t0) / 1e9;
        DemoSummary.Baseline baseline = baseline(watcher, halfMillis);
        view.printf(Locale.ROOT, "nona demo: baseline %s on the same %d arrivals: observed mean JCT %.2f ms "
                + "(second half)%n", baseline.policy(), watcher.observed.arrivals().size(),
                1000 * baseline.observedMeanJctSeconds());
        return DemoSummaries.of(scenario, counters, watcher, twin, seconds, publisher.warmups(), startMillis,
                halfMillis, baseline, baselineMemoryViolations);
    }

    /** Replays the arrivals the twin saw through a fresh twin under the baseline policy, in virtual time. */
    private DemoSummary.Baseline baseline(DemoWatcher watcher, long halfMillis) {
        Map<String, CatalogDag> dags = new TreeMap<>();
        scenario.models().forEach(m -> dags.put(m, CatalogDags.sized(catalog.get(m))));
        List<PlacementOutcome> outcomes = BaselineReplay.run(baselinePolicy, twinOptions, dags,
                watcher.observed.arrivals(), scenario.seed());
        baselineMemoryViolations = outcomes.stream().filter(o -> o.status() == OutcomeStatus.FAILED).count();
        double sum = 0;
        int n = 0;
        long cold = 0;
        for (PlacementOutcome o : outcomes) {
            if (o.status() == OutcomeStatus.OK && o.completedAt() >= halfMillis) {
                sum += o.observedJctSeconds();
                n++;
                cold += o.parts().stream().filter(p -> p.cold()).count();
            }
        }
        return new DemoSummary.Baseline(baselinePolicy, n == 0 ? Double.NaN : sum / n, cold);
    }

    private void tick(LiveView live, long t0) {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(1_000);
                double elapsed = (System.nanoTime() - t0) / 1e9;
                live.print(elapsed, elapsed < scenario.duration().toSeconds() / 2.0 ? "phase 1" : "phase 2");
            }
        } catch (InterruptedException done) {
            Thread.currentThread().interrupt();
        }
    }

    private Dashboard startDashboard(String bootstrap) throws Exception {
        if (dashboardPort == null) {
            return null;
        }
        Dashboard dashboard = Dashboard.start(bootstrap, "localhost", dashboardPort,
                ControllerOptions.CLUSTER_LIVENESS_TIMEOUT.defaultValue());
        view.println("nona demo: dashboard on " + dashboard.url());
        return dashboard;
    }

    private void createTopics(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            new TopicProvisioner(admin, Duration.ofSeconds(30)).ensure(Topics.all(), Optional.empty(),
                    Optional.of((short) 1));
        }
        view.println("nona demo: created " + Topics.all().size() + " topics");
    }

    private JobClient startController(String bootstrap, Path work) throws Exception {
        Map<String, String> settings = controllerSettings(bootstrap, work);
        settings.putAll(extraSettings);
        if (metricsPort != 0) {
            settings.putAll(PrometheusReporterSettings.controllerSettings(metricsPort));
            view.println("nona demo: metrics (Prometheus) on http://localhost:" + metricsPort + "/metrics");
        }
        ControllerConfig config = ControllerConfig.fromMap(settings);
        StreamExecutionEnvironment env = ControllerEnvironment.create(config);
        ControllerJob.build(env, config);
        return env.executeAsync("nona-demo-controller");
    }

    /**
     * The controller's settings for a short demo: small windows, quick drift detection, 1 s checkpoints, and the
     * outcome path on (it reads the twin's {@code placement-outcomes}).
     */
    static Map<String, String> controllerSettings(String bootstrap, Path work) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("bootstrap.servers", bootstrap);
        s.put("controller.id", "nona-demo");
        s.put("rates.window", "2s");
        s.put("watermark.out-of-orderness", "500ms");
        s.put("watermark.idleness", "2s");
        s.put("drift.threshold", "0.3");
        s.put("drift.windows", "2");
        s.put("drift.debounce", "4s");
        s.put("checkpoint.interval", "1s");
        s.put("checkpoint.dir", work.resolve("checkpoints").toUri().toString());
        s.put("source.start-from-earliest", "true");
        s.put("parallelism", "1");
        s.put("topics.outcomes", Topics.PLACEMENT_OUTCOMES.name());
        return s;
    }

    /**
     * Flink's and Kafka's own warnings (metric name collisions of the Kafka sink, reconnects while the
     * demo shuts down) would drown the live view; errors still show.
     */
    private static void quietFrameworkLogs() {
        Configurator.setLevel("org.apache.flink.metrics", Level.ERROR);
        Configurator.setLevel("org.apache.flink.runtime.metrics", Level.ERROR);
        Configurator.setLevel("org.apache.flink.runtime.webmonitor", Level.ERROR);
        Configurator.setLevel("org.apache.flink.runtime.security", Level.ERROR);
        Configurator.setLevel("org.apache.kafka", Level.ERROR);
    }
}
