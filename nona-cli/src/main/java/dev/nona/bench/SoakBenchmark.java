package dev.nona.bench;

import dev.nona.calibration.NearestRank;
import dev.nona.check.Checks;
import dev.nona.local.LocalJobs;
import dev.nona.local.LocalKafkaBroker;
import dev.nona.local.StateDirectory;
import dev.nona.topics.Topics;
import dev.nona.topics.admin.TopicProvisioner;
import dev.nona.twin.ExecutorTwin;
import dev.nona.twin.RunningTwin;
import dev.nona.twin.TwinExecutor;
import dev.nona.twin.TwinOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Stream;
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
    private static final Duration JCMD_TIMEOUT = Duration.ofSeconds(60);
    /** Requests scheduled this long before a full-collection probe are left out of the percentiles with it. */
    static final Duration PROBE_MARGIN = Duration.ofSeconds(1);
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

        /** Index of the first request scheduled in minute {@code m}. */
        long firstOf(int m) {
            return Math.round(rate * intervalSeconds * (double) m);
        }
    }

    /**
     * One minute's figures.
     *
     * @param minute            0-based
     * @param sent              requests scheduled in it
     * @param decided           of them, decided by the end of the run
     * @param p50Millis         their median latency, outside the probe (NaN: none decided)
     * @param p99Millis         their p99, outside the probe: without the requests scheduled from 1 s before this
     *                          benchmark's {@code jcmd} call for the full collection to its return (the probe's
     *                          own pause, which a busy machine stretches to seconds, is not the controller's)
     * @param p99AllMillis      the p99 of every request of the minute, the probe's pause included
     * @param probeExcluded     requests of the minute left out of {@code p50Millis} and {@code p99Millis}
     * @param kafkaP99Millis    p99 of the same requests' own receipt from {@code inference-requests}: Kafka alone
     * @param heapAfterGcBytes  the controller's heap after the full collection at its end (NaN: not measured)
     * @param heapFrom          {@code full-gc} (the requested full collection), {@code lowest-gc} (jcmd failed: the
     *                          lowest "after" of the minute's pauses) or {@code none}
     * @param heapCommittedBytes the heap committed after that collection
     * @param fullGcMillis      that collection's pause (NaN: none): it delays the next minute's first requests
     * @param gcPauses          the controller's other pauses in the minute
     * @param gcPauseMillis     their sum
     * @param checkpointBytes   the newest completed checkpoint's files at its end (NaN: none yet)
     * @param checkpoint        that checkpoint's directory name ({@code chk-N})
     * @param loadAverage       the machine's 1-minute load average at its end (NaN: unknown)
     * @param twinBacklog       at its end, decisions read by this benchmark's reader but not yet by the executor
     *                          twin (about; the two read on their own threads): a twin that falls behind delays
     *                          the outcomes, and the controller holds each decision until its outcome arrives
     *                          ({@code outcomes.max-wait}), so its heap and checkpoint grow with that backlog
     */
    public record Minute(int minute, long sent, long decided, double p50Millis, double p99Millis,
            double p99AllMillis, long probeExcluded, double kafkaP99Millis, double heapAfterGcBytes, String heapFrom, double heapCommittedBytes, double fullGcMillis,
            int gcPauses,
            double gcPauseMillis, double checkpointBytes, String checkpoint, double loadAverage, long twinBacklog) {
        Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("minute", minute);
            m.put("sent", sent);
            m.put("decided", decided);
            m.put("p50Millis", finite(p50Millis));
            m.put("p99Millis", finite(p99Millis));
            m.put("p99AllMillis", finite(p99AllMillis));
            m.put("probeExcluded", probeExcluded);
            m.put("kafkaP99Millis", finite(kafkaP99Millis));
            m.put("heapAfterGcBytes", whole(heapAfterGcBytes));
            m.put("heapFrom", heapFrom);
            m.put("heapCommittedBytes", whole(heapCommittedBytes));
            m.put("fullGcMillis", finite(fullGcMillis));
            m.put("gcPauses", gcPauses);
            m.put("gcPauseMillis", finite(gcPauseMillis));
            m.put("checkpointBytes", whole(checkpointBytes));
            m.put("checkpoint", checkpoint);
            m.put("loadAverage", finite(loadAverage));
            m.put("twinBacklog", twinBacklog);
            return m;
        }
    }

    /** What the sampler saw at the end of a minute; the latencies come at the end of the run. */
    private record Sample(double heapAfter, String heapFrom, double heapCommitted, double fullGcMillis, int pauses,
            double pauseMillis, double checkpointBytes, String checkpoint, double load, long twinBacklog) {}

    /**
     * One run's figures.
     *
     * @param deadLetters records on {@code dead-letters} (nothing malformed is sent: every one is a fault)
     * @param twin        the executor twin's counters at its end
     */
    public record Result(Settings settings, long sent, long decided, long duplicates, long deadLetters,
            LatencyRecorder.Percentiles latency, List<Minute> minutes, SoakTrend heap, SoakTrend checkpoint,
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
            m.put("perMinute", minutes.stream().map(Minute::toJson).toList());
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
            return Double.isNaN(t.growth()) ? "n/a" : String.format(Locale.ROOT, "%+.1f%%", 100 * t.growth());
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
                Sampler sampler = new Sampler(s, controller, gcLog, latency, progress, twin);
                Thread sampling = new Thread(sampler::run, "nona-soak-sampler");
                sampling.setDaemon(true);
                sampler.start = System.nanoTime();
                sampling.start();
                publisher.publishAtRate(s.rate(), n, LatencyReader.MEASURED, null, latency, kafkaAlone);
                sampling.join(JCMD_TIMEOUT.toMillis() + s.intervalSeconds() * 1000L);
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
                List<Minute> minutes = minutes(s, latency, kafkaAlone, sampler.samples(), sampler.probes());
                double[] heap = minutes.stream().mapToDouble(Minute::heapAfterGcBytes).toArray();
                double[] checkpoint = minutes.stream().mapToDouble(Minute::checkpointBytes).toArray();
                double[] p99 = minutes.stream().mapToDouble(Minute::p99Millis).toArray();
                return new Result(s, n, latency.decided(), latency.duplicates(), deadLetters, latency.percentiles(),
                        minutes, SoakTrend.of(heap, s.warmupMinutes()), SoakTrend.of(checkpoint, s.warmupMinutes()),
                        SoakTrend.of(p99, s.warmupMinutes()), twinSummary, brokerParent);
            }
        }
    }

    /** Each minute's counts and latencies from the recorders, beside what the sampler saw at its end. */
    private static List<Minute> minutes(Settings s, LatencyRecorder latency, LatencyRecorder kafkaAlone,
            List<Sample> samples, List<long[]> probes) {
        List<Minute> out = new ArrayList<>();
        for (int m = 0; m < s.minutes(); m++) {
            long from = s.firstOf(m);
            long to = Math.min(s.requests(), s.firstOf(m + 1));
            double[] all = latency.latenciesScheduledBetween(from, to);
            Arrays.sort(all);
            List<double[]> parts = new ArrayList<>();
            long kept = 0;
            for (long[] range : outside(from, to, probes)) {
                parts.add(latency.latenciesScheduledBetween(range[0], range[1]));
                kept += range[1] - range[0];
            }
            double[] lat = parts.stream().flatMapToDouble(Arrays::stream).sorted().toArray();
            double[] kafka = kafkaAlone.latenciesScheduledBetween(from, to);
            Arrays.sort(kafka);
            Sample x = m < samples.size() ? samples.get(m)
                    : new Sample(Double.NaN, "none", Double.NaN, Double.NaN, 0, 0, Double.NaN, "", Double.NaN, 0);
            out.add(new Minute(m, to - from, all.length, rank(lat, 0.50), rank(lat, 0.99), rank(all, 0.99),
                    to - from - kept, rank(kafka, 0.99),
                    x.heapAfter(), x.heapFrom(), x.heapCommitted(), x.fullGcMillis(), x.pauses(), x.pauseMillis(),
                    x.checkpointBytes(), x.checkpoint(), x.load(), x.twinBacklog()));
        }
        return out;
    }

    /**
     * The parts of the index range {@code [from, to)} outside every range of {@code excluded} (each {@code [a, b)}),
     * in order.
     */
    static List<long[]> outside(long from, long to, List<long[]> excluded) {
        List<long[]> sorted = new ArrayList<>(excluded);
        sorted.sort((x, y) -> Long.compare(x[0], y[0]));
        List<long[]> out = new ArrayList<>();
        long at = from;
        for (long[] e : sorted) {
            if (e[1] <= at || e[0] >= to) {
                continue;
            }
            if (e[0] > at) {
                out.add(new long[] {at, e[0]});
            }
            at = Math.max(at, e[1]);
        }
        if (at < to) {
            out.add(new long[] {at, to});
        }
        return out;
    }

    private static double rank(double[] sorted, double q) {
        return sorted.length == 0 ? Double.NaN : NearestRank.of(sorted, q);
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

    /** The size of a checkpoint: the bytes of every file under its directory; NaN when it is gone. */
    static double checkpointBytes(Path chk) {
        try (Stream<Path> files = Files.walk(chk)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException e) {
                    return 0; // a file removed while walking: a newer checkpoint replaced it
                }
            }).sum();
        } catch (IOException | UncheckedIOException e) {
            return Double.NaN;
        }
    }

    /** The 1-minute load average ({@code /proc/loadavg}); NaN where there is none. */
    static double loadAverage() {
        try {
            String line = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.US_ASCII);
            return Double.parseDouble(line.strip().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    private static String formatBytes(double b) {
        return Double.isNaN(b) ? "n/a" : String.format(Locale.ROOT, "%.1f MiB", b / (1 << 20));
    }

    private static Double finite(double x) {
        return Double.isFinite(x) ? Math.round(x * 100) / 100.0 : null;
    }

    private static Long whole(double x) {
        return Double.isFinite(x) ? Math.round(x) : null;
    }

    /** Samples the controller at the end of each minute, on its own thread. */
    private static final class Sampler {
        private final Settings s;
        private final ControllerChildJvm controller;
        private final Path gcLog;
        private final LatencyRecorder latency;
        private final Consumer<String> progress;
        private final RunningTwin twin;
        private final List<Sample> samples = new ArrayList<>();
        /** Request index ranges {@code [a, b)} scheduled from 1 s before each full-collection probe to its end. */
        private final List<long[]> probes = new ArrayList<>();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        /** {@link System#nanoTime()} of the first measured request's schedule (about: just before it). */
        volatile long start;
        private int pausesSeen;

        Sampler(Settings s, ControllerChildJvm controller, Path gcLog, LatencyRecorder latency,
                Consumer<String> progress, RunningTwin twin) {
            this.s = s;
            this.controller = controller;
            this.gcLog = gcLog;
            this.latency = latency;
            this.progress = progress;
            this.twin = twin;
        }

        void run() {
            try {
                for (int m = 0; m < s.minutes(); m++) {
                    long due = start + TimeUnit.SECONDS.toNanos((long) s.intervalSeconds() * (m + 1));
                    long wait;
                    while ((wait = due - System.nanoTime()) > 0) {
                        Thread.sleep(Math.max(1, TimeUnit.NANOSECONDS.toMillis(wait)));
                    }
                    Sample x = sample();
                    synchronized (samples) {
                        samples.add(x);
                    }
                    TwinExecutor.Summary t = twin.summary();
                    progress.accept(String.format(Locale.ROOT, "soak: minute %d/%d: sent %d, decided %d, heap after "
                            + "GC %s (%s), checkpoint %s (%s), twin ok %d timeout %d backlog %d, load %.2f", m + 1,
                            s.minutes(), latency.scheduledCount(), latency.decided(), formatBytes(x.heapAfter()),
                            x.heapFrom(), formatBytes(x.checkpointBytes()), x.checkpoint(),
                            t == null ? 0 : t.okOutcomes(), t == null ? 0 : t.timeoutOutcomes(), x.twinBacklog(),
                            x.load()));
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        }

        private Sample sample() throws IOException, InterruptedException {
            long probeStart = System.nanoTime();
            boolean asked = controller.isAlive() && fullGc();
            long probeEnd = System.nanoTime();
            synchronized (samples) {
                probes.add(new long[] {index(probeStart - PROBE_MARGIN.toNanos()), index(probeEnd) + 1});
            }
            List<GcLog.Pause> all = Files.exists(gcLog)
                    ? GcLog.pauses(Files.readAllLines(gcLog, StandardCharsets.UTF_8)) : List.of();
            List<GcLog.Pause> fresh = all.subList(Math.min(pausesSeen, all.size()), all.size());
            pausesSeen = all.size();
            GcLog.Pause full = null;
            GcLog.Pause lowest = null;
            int pauses = 0;
            double pauseMillis = 0;
            for (GcLog.Pause p : fresh) {
                if (p.requestedFull()) {
                    full = p;
                    continue;
                }
                pauses++;
                pauseMillis += p.millis();
                if (lowest == null || p.afterBytes() < lowest.afterBytes()) {
                    lowest = p;
                }
            }
            GcLog.Pause heap = asked && full != null ? full : lowest;
            String from = heap == null ? "none" : heap == full ? "full-gc" : "lowest-gc";
            TwinExecutor.Summary t = twin.summary();
            long backlog = Math.max(0, latency.decided() - (t == null ? 0 : t.decisions()));
            StateDirectory.Latest latest = new StateDirectory(controller.stateDir()).latest();
            double cp = latest.checkpoint() == null ? Double.NaN : checkpointBytes(latest.checkpoint());
            return new Sample(heap == null ? Double.NaN : heap.afterBytes(), from,
                    heap == null ? Double.NaN : heap.heapBytes(), full == null ? Double.NaN : full.millis(), pauses,
                    pauseMillis, cp,
                    latest.checkpoint() == null ? "" : latest.checkpoint().getFileName().toString(), loadAverage(),
                    backlog);
        }

        /** {@code jcmd PID GC.run}: a full collection, done when it returns; false when it failed. */
        private boolean fullGc() throws InterruptedException {
            Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
            try {
                Process p = new ProcessBuilder(jcmd.toString(), String.valueOf(controller.pid()), "GC.run")
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(s.workDir().resolve("jcmd.log").toFile()))
                        .start();
                if (!p.waitFor(JCMD_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    p.destroyForcibly();
                    return false;
                }
                return p.exitValue() == 0;
            } catch (IOException e) {
                return false;
            }
        }

        /** The request scheduled at {@code nanos} (rounded down; may lie outside the run). */
        private long index(long nanos) {
            return (long) Math.floor((nanos - start) * s.rate() / 1e9);
        }

        List<long[]> probes() {
            synchronized (samples) {
                return List.copyOf(probes);
            }
        }

        List<Sample> samples() {
            synchronized (samples) {
                return List.copyOf(samples);
            }
        }

        void check() {
            Throwable t = failure.get();
            if (t != null) {
                throw new IllegalStateException("sampling the controller failed: " + t.getMessage(), t);
            }
        }
    }
}
