package dev.nona.bench;

import dev.nona.check.Checks;
import dev.nona.local.LocalJobs;
import dev.nona.local.LocalKafkaBroker;
import dev.nona.topics.Topics;
import dev.nona.topics.admin.TopicProvisioner;
import dev.nona.twin.ExecutorTwin;
import dev.nona.twin.RunningTwin;
import dev.nona.twin.TwinExecutor;
import dev.nona.twin.TwinOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * The soak benchmark ({@code bin/nona bench soak}): the closed loop at a steady rate for many minutes, watched for
 * growth. A throwaway real broker ({@link LocalKafkaBroker}, its log in memory when {@code /dev/shm} has room);
 * {@code bin/nona run} as a child JVM ({@link ControllerChildJvm}) with a state directory (checkpoints on disk, as in
 * production, so their size is real) reading the outcomes; the executor twin ({@link ExecutorTwin}, on a thread of
 * this JVM: {@link RunningTwin}) executing every decision on a simulated cluster and reporting the servers' telemetry
 * and the outcomes; requests at a fixed rate on an open-loop schedule ({@link LatencyPublisher}) and a read_committed
 * reader of the decisions ({@link LatencyReader}).
 *
 * <p>At the end of each minute (each {@code intervalSeconds}): the controller JVM's heap after a full collection
 * this benchmark asks for ({@code jcmd PID GC.run}, the pause read from the child's GC log, {@link GcLog}): the live
 * set, which a young collection's "after" figure is not (old garbage waits there for a concurrent cycle); the size of
 * the newest completed checkpoint in the state directory (the files of its {@code chk-N} directory: with the
 * {@code hashmap} backend and full checkpoints every byte of the state is there); the machine's load. Per minute from
 * the requests scheduled in it: sent, decided, p50 and p99 (scheduled send to the first decision's receipt; the
 * percentiles leave out the requests scheduled during the full-collection probe, whose pause is the benchmark's, and
 * the p99 of all of them is given beside). At the end, the trend of heap, checkpoint and p99 over the minutes after
 * the warm-up ({@link SoakTrend}).
 */
public final class SoakBenchmark {
    /** The controller JVM: a 1 GiB heap, G1 (its log lines are what {@link GcLog} reads). */
    static final List<String> CONTROLLER_JVM = List.of("-Xmx1g", "-XX:+UseG1GC");
    /** From the controller process's start to a decision from a solved table for each model (a first rates window). */
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(300);
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(120);
    /** Bytes of broker log per request: the request, its decision (2-3 kB), its outcome, indexes, with room. */
    static final long BROKER_BYTES_PER_REQUEST = 2 * LatencyBenchmark.BYTES_PER_REQUEST;

    /**
     * One run's settings.
     *
     * @param rate            requests per second, {@code > 0}
     * @param minutes         sample intervals ("minutes"), {@code >= 1}
     * @param intervalSeconds seconds per sample interval, {@code >= 1} (60; shorter in tests)
     * @param warmupMinutes   first minutes left out of the trends, {@code 0 <= warmupMinutes < minutes}
     * @param servers         the executor twin's servers, {@code >= 1}
     * @param models          the models the requests name, round robin (zoo names)
     * @param controller      the controller's settings file entries ({@code docs/controller.md})
     * @param workDir         the controller's working directory: settings, state directory, logs, GC log
     * @param brokerDir       where the broker's log goes (a temporary directory inside it, deleted after the
     *                        run); empty: memory when it has room, else the system's temporary directory
     */
    public record Settings(double rate, int minutes, int intervalSeconds, int warmupMinutes, int servers,
            List<String> models, Map<String, String> controller, Path workDir, Optional<Path> brokerDir) {
        public Settings {
            Checks.positive(rate, "--rate");
            Checks.positive(minutes, "--minutes");
            Checks.positive(intervalSeconds, "--interval-seconds");
            if (warmupMinutes < 0 || warmupMinutes >= minutes) {
                throw new IllegalArgumentException("--warmup-minutes (" + warmupMinutes
                        + ") must be >= 0 and < --minutes (" + minutes + ")");
            }
            Checks.positive(servers, "--servers");
            if (models.isEmpty()) {
                throw new IllegalArgumentException("--models must name at least one model");
            }
            if (rate * minutes * intervalSeconds > Integer.MAX_VALUE - 1) {
                throw new IllegalArgumentException("--rate x --minutes (" + rate * minutes * intervalSeconds
                        + " requests) is too many requests");
            }
            models = List.copyOf(models);
            controller = Map.copyOf(controller);
            Objects.requireNonNull(workDir, "working directory");
            Objects.requireNonNull(brokerDir, "broker directory");
        }

        int requests() {
            return (int) Math.round(rate * minutes * intervalSeconds);
        }

        /**
         * Digits of every request's index in its id ({@code m-0000000} to {@code m-1799999} for 1.8 million requests):
         * one width for the whole run. The controller keys the outcome join by request id and keeps each id for
         * {@code outcomes.max-wait} after its outcome, writing it three times in a checkpoint; with ids that gained
         * a digit at the millionth request ({@code m-999999}, then {@code m-1000000}: 1,000 s in at 1,000/s) the
         * checkpoint stepped by 3 bytes per id held (177 kB at 1,000/s) over the next minute: a change in the input,
         * not growth (docs/benchmarks.md, Soak).
         */
        int idDigits() {
            return Long.toString(Math.max(0, requests() - 1)).length();
        }

        /** Index of the first request scheduled in minute {@code m}. */
        long firstOf(int m) {
            return Math.round(rate * intervalSeconds * (double) m);
        }
    }

    /**
     * One run's figures.
     *
     * @param deadLetters records on {@code dead-letters} (nothing malformed is sent: every one is a fault)
     * @param twin        the executor twin's counters at its end
     */
    public record Result(Settings settings, long sent, long decided, long duplicates, long deadLetters,
            LatencyRecorder.Percentiles latency, List<SoakMinute> minutes, SoakTrend heap, SoakTrend checkpoint,
            SoakTrend p99, TwinExecutor.Summary twin, Path brokerDir) {
        public Result {
            minutes = List.copyOf(minutes);
        }

        /** Whether no series grew more than {@link SoakTrend#GOAL} (a series without a trend counts as not met). */
        public boolean withinGoal() {
            return Boolean.TRUE.equals(heap.withinGoal()) && Boolean.TRUE.equals(checkpoint.withinGoal())
                    && Boolean.TRUE.equals(p99.withinGoal());
        }

        /** The figures as the benchmark's JSON prints them. */
        public Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("rate", settings.rate());
            m.put("minutes", settings.minutes());
            m.put("intervalSeconds", settings.intervalSeconds());
            m.put("warmupMinutes", settings.warmupMinutes());
            m.put("servers", settings.servers());
            m.put("models", settings.models());
            m.put("sent", sent);
            m.put("decided", decided);
            m.put("undecided", sent - decided);
            m.put("duplicates", duplicates);
            m.put("deadLetters", deadLetters);
            m.put("p50Millis", latency.p50());
            m.put("p99Millis", latency.p99());
            m.put("maxMillis", latency.max());
            Map<String, Object> trends = new LinkedHashMap<>();
            trends.put("heapAfterGcBytes", heap.toJson());
            trends.put("checkpointBytes", checkpoint.toJson());
            trends.put("p99Millis", p99.toJson());
            m.put("trend", trends);
            m.put("goalGrowth", SoakTrend.GOAL);
            m.put("withinGoal", withinGoal());
            m.put("perMinute", minutes.stream().map(SoakMinute::toJson).toList());
            m.put("twin", twin);
            m.put("controllerJvm", CONTROLLER_JVM);
            m.put("workDir", settings.workDir().toString());
            m.put("brokerDir", brokerDir.toString());
            m.put("brokerStorage", LatencyBenchmark.storage(brokerDir));
            m.put("settings", new TreeMap<>(settings.controller()));
            return m;
        }

        /** One line for people: the totals and each series' growth. */
        public String summary() {
            return String.format(Locale.ROOT, "nona bench soak: %d x %d s at %.0f requests/s: %d sent, %d decided, "
                    + "%d dead letters; growth over minutes %d-%d: heap after GC %s, checkpoint %s, p99 %s "
                    + "(goal <= %.0f%%: %s)", settings.minutes(), settings.intervalSeconds(), settings.rate(), sent,
                    decided, deadLetters, settings.warmupMinutes(), settings.minutes() - 1, percent(heap),
                    percent(checkpoint), percent(p99), 100 * SoakTrend.GOAL, withinGoal() ? "met" : "NOT met");
        }

        private static String percent(SoakTrend t) {
            if (Double.isNaN(t.growth())) {
                return "n/a";
            }
            String growth = String.format(Locale.ROOT, "%+.1f%%", 100 * t.growth());
            return Double.isNaN(t.growthMargin()) ? growth
                    : growth + String.format(Locale.ROOT, " (95%%: +/-%.1f%%)", 100 * t.growthMargin());
        }
    }

    private SoakBenchmark() {}

    /** Runs the soak on a throwaway broker; {@code progress} gets one line per minute. */
    public static Result run(Settings s, Consumer<String> progress) throws Exception {
        long bytes = (long) Math.ceil(s.rate() * (s.minutes() * (double) s.intervalSeconds() + 300)
                * BROKER_BYTES_PER_REQUEST) + (256L << 20);
        Path parent = LatencyBenchmark.brokerParent(s.brokerDir(), bytes);
        Files.createDirectories(parent);
        Path kafka = Files.createTempDirectory(parent, "nona-soak-kafka-");
        try (LocalKafkaBroker broker = LocalKafkaBroker.builder().dataDir(kafka).build().start()) {
            return run(s, broker.bootstrapServers(), parent, progress);
        } finally {
            LocalJobs.deleteQuietly(kafka);
        }
    }

    private static Result run(Settings s, String bootstrap, Path brokerParent, Consumer<String> progress)
            throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            new TopicProvisioner(admin, Duration.ofSeconds(30)).ensure(Topics.all(), Optional.empty(),
                    Optional.of((short) 1));
        }
        Path gcLog = s.workDir().resolve("controller-gc.log");
        int n = s.requests();
        LatencyRecorder latency = new LatencyRecorder(n);
        LatencyRecorder kafkaAlone = new LatencyRecorder(n);
        TwinOptions twinOptions = new TwinOptions(s.servers(), 1.0e12, 1.0e11, 5, 0.5, 10, Map.of(), Map.of());
        try (LatencyReader reader = new LatencyReader(bootstrap, latency, kafkaAlone).start();
                LatencyPublisher publisher = new LatencyPublisher(bootstrap, s.models(), s.servers());
                RunningTwin twin = RunningTwin.start(bootstrap, twinOptions, READY_TIMEOUT)) {
            publisher.publishCatalog();
            List<String> jvm = new ArrayList<>(CONTROLLER_JVM);
            jvm.add("-Xlog:gc,gc+heap=debug:file=" + gcLog);
            try (ControllerChildJvm controller = new ControllerChildJvm(bootstrap, s.controller(), s.workDir(), jvm)) {
                controller.start();
                awaitReady(publisher, reader, twin, s.models(), controller);
                SoakSampler sampler = new SoakSampler(s, controller, gcLog, latency, progress, twin);
                Thread sampling = new Thread(sampler::run, "nona-soak-sampler");
                sampling.setDaemon(true);
                sampler.start = System.nanoTime();
                sampling.start();
                publisher.publishAtRate(s.rate(), n, LatencyReader.MEASURED, s.idDigits(), null, latency, kafkaAlone);
                sampling.join(SoakSampler.JCMD_TIMEOUT.toMillis() + s.intervalSeconds() * 1000L);
                sampler.check();
                long deadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
                while (latency.decided() < n && System.nanoTime() < deadline && controller.isAlive()) {
                    reader.check();
                    twin.check();
                    Thread.sleep(200);
                }
                Thread.sleep(1_000); // a late duplicate would show
                reader.check();
                if (!controller.isAlive()) {
                    throw new IllegalStateException("the controller process exited during the soak: "
                            + controller.logTail(4000));
                }
                TwinExecutor.Summary twinSummary = twin.stop();
                long deadLetters;
                try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                    deadLetters = LatencyBenchmark.endOffsets(admin, Topics.DEAD_LETTERS.name());
                }
                List<SoakMinute> minutes = SoakMinute.of(s, latency, kafkaAlone, sampler.samples(), sampler.probes());
                double[] heap = minutes.stream().mapToDouble(SoakMinute::heapAfterGcBytes).toArray();
                double[] checkpoint = minutes.stream().mapToDouble(SoakMinute::checkpointBytes).toArray();
                double[] p99 = minutes.stream().mapToDouble(SoakMinute::p99Millis).toArray();
                return new Result(s, n, latency.decided(), latency.duplicates(), deadLetters, latency.percentiles(),
                        minutes, SoakTrend.of(heap, s.warmupMinutes()), SoakTrend.of(checkpoint, s.warmupMinutes()),
                        SoakTrend.of(p99, s.warmupMinutes()), twinSummary, brokerParent);
            }
        }
    }

    /** Ready checks every 500 ms until every model has a decision from a solved table. */
    private static void awaitReady(LatencyPublisher publisher, LatencyReader reader, RunningTwin twin,
            List<String> models, ControllerChildJvm controller) throws InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (!reader.tableDecisionModels().containsAll(models)) {
            if (System.nanoTime() > deadline || !controller.isAlive()) {
                throw new IllegalStateException("the controller placed no request from a solved table for every model "
                        + "within " + READY_TIMEOUT.toSeconds() + " s: " + controller.logTail(4000));
            }
            reader.check();
            twin.check();
            publisher.publishReadyChecks();
            Thread.sleep(500);
        }
    }
}
