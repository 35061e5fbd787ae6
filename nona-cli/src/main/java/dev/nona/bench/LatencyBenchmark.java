package dev.nona.bench;

import dev.nona.check.Checks;
import dev.nona.controller.ControllerConfig;
import dev.nona.controller.ControllerEnvironment;
import dev.nona.controller.ControllerJob;
import dev.nona.controller.DecisionDelivery;
import dev.nona.local.LocalJobs;
import dev.nona.local.LocalKafkaBroker;
import dev.nona.topics.Topics;
import dev.nona.topics.admin.TopicProvisioner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;

/**
 * The latency benchmark ({@code bin/nona bench latency}): the project's real Kafka broker ({@link LocalKafkaBroker},
 * a child process), the controller job with the given delivery mode and checkpoint interval on a local
 * MiniCluster, a producer of requests at a fixed rate on an open-loop schedule ({@link LatencyPublisher}) and a
 * {@code read_committed} consumer of decisions ({@link LatencyReader}). Latency is from each request's scheduled
 * send time to the receipt of its first decision, both on this JVM's {@link System#nanoTime()}.
 *
 * <p>Phases: the catalog and one report per server (then one per server every second, as live servers send);
 * warm-up requests until every model has a decision from a solved table (the controller is up, knows the catalog
 * and the servers, and has closed its first {@code rates.window}: with the default 30 s, about half a minute);
 * {@code warmupSeconds} at the target rate (JIT, connections; not measured); {@code seconds} measured; then until
 * every measured request is decided (or a drain timeout) and one more second, which would show a late duplicate.
 * With a bad-input rate, {@link BadInputPublisher} sends malformed records during the measured seconds, from a
 * process of its own ({@link BadInputProcess}), and the result counts the dead letters they became; the latency is
 * still that of the good requests alone.
 */
public final class LatencyBenchmark {
    /**
     * One run's settings.
     *
     * @param rate               requests per second, {@code > 0}
     * @param seconds            measured seconds, {@code >= 1}
     * @param servers            servers reporting telemetry, {@code >= 1}
     * @param models             the models the requests name, round robin (zoo names or {@code fig1})
     * @param delivery           {@code decisions.delivery}
     * @param checkpointInterval {@code checkpoint.interval}
     * @param warmupSeconds      seconds at the target rate before measuring, {@code >= 0}
     * @param extra              further controller settings ({@code docs/controller.md}), which win
     * @param brokerDir          where the benchmark's throwaway broker keeps its log (a temporary directory is
     *                           made inside it); empty: {@link #brokerParent(Settings)} chooses
     * @param badInputRate       malformed records per second sent during the measured seconds ({@link BadInput}),
     *                           {@code >= 0}; 0 sends none
     * @param badInputAtBrokerDefaults with bad input, leave {@code inference-requests} and {@code model-catalog} at the
     *                           broker's default record limit (1 MiB: the 5 MB values and the 30,000-task DAGs are
     *                           refused by the broker), instead of letting them through (the worst case)
     * @param readBackRequests   also read {@code inference-requests} back, for the Kafka-alone leg
     *                           ({@code requestRead*}); false leaves that second consumer of every request (and of
     *                           the malformed records) out, as no deployment has it
     * @param badInputCount      with bad input, send only this many malformed records, from the start of the
     *                           burst window ({@link #burstWindow}) on; 0 sends them through the measured seconds
     */
    public record Settings(double rate, int seconds, int servers, List<String> models, DecisionDelivery delivery,
            Duration checkpointInterval, int warmupSeconds, Map<String, String> extra, Optional<Path> brokerDir,
            double badInputRate, boolean badInputAtBrokerDefaults, boolean readBackRequests, long badInputCount) {
        public Settings(double rate, int seconds, int servers, List<String> models, DecisionDelivery delivery,
                Duration checkpointInterval, int warmupSeconds, Map<String, String> extra, Optional<Path> brokerDir,
                double badInputRate, boolean badInputAtBrokerDefaults) {
            this(rate, seconds, servers, models, delivery, checkpointInterval, warmupSeconds, extra, brokerDir,
                    badInputRate, badInputAtBrokerDefaults, true, 0);
        }

        public Settings(double rate, int seconds, int servers, List<String> models, DecisionDelivery delivery,
                Duration checkpointInterval, int warmupSeconds, Map<String, String> extra) {
            this(rate, seconds, servers, models, delivery, checkpointInterval, warmupSeconds, extra, Optional.empty());
        }

        public Settings(double rate, int seconds, int servers, List<String> models, DecisionDelivery delivery,
                Duration checkpointInterval, int warmupSeconds, Map<String, String> extra, Optional<Path> brokerDir) {
            this(rate, seconds, servers, models, delivery, checkpointInterval, warmupSeconds, extra, brokerDir, 0);
        }

        public Settings(double rate, int seconds, int servers, List<String> models, DecisionDelivery delivery,
                Duration checkpointInterval, int warmupSeconds, Map<String, String> extra, Optional<Path> brokerDir,
                double badInputRate) {
            this(rate, seconds, servers, models, delivery, checkpointInterval, warmupSeconds, extra, brokerDir,
                    badInputRate, false);
        }

        public Settings {
            Checks.positive(rate, "--rate");
            if (seconds < 1) {
                throw new IllegalArgumentException("--seconds (" + seconds + ") must be >= 1");
            }
            if (servers < 1) {
                throw new IllegalArgumentException("--servers (" + servers + ") must be >= 1");
            }
            if (models.isEmpty()) {
                throw new IllegalArgumentException("--models must name at least one model");
            }
            Objects.requireNonNull(delivery, "delivery");
            if (warmupSeconds < 0) {
                throw new IllegalArgumentException("--warmup-seconds (" + warmupSeconds + ") must be >= 0");
            }
            if (rate * seconds > Integer.MAX_VALUE - 1) {
                throw new IllegalArgumentException("--rate x --seconds (" + rate * seconds + ") is too many requests");
            }
            models = List.copyOf(models);
            extra = Map.copyOf(extra);
            Objects.requireNonNull(brokerDir, "brokerDir");
            brokerDir.filter(d -> Files.exists(d) && !Files.isDirectory(d)).ifPresent(d -> {
                throw new IllegalArgumentException("--broker-dir (" + d + ") is not a directory");
            });
            if (!(badInputRate >= 0) || Double.isInfinite(badInputRate)) {
                throw new IllegalArgumentException("--bad-input-rate (" + badInputRate + ") must be finite and >= 0");
            }
            if (badInputCount < 0) {
                throw new IllegalArgumentException("--bad-input-count (" + badInputCount + ") must be >= 0");
            }
            if (badInputCount > 0 && badInputRate == 0) {
                throw new IllegalArgumentException("--bad-input-count (" + badInputCount + ") needs --bad-input-rate");
            }
            if (badInputCount > 0 && burstWindow(seconds, badInputRate, badInputCount)[1] > seconds) {
                throw new IllegalArgumentException("--bad-input-count (" + badInputCount + ") at --bad-input-rate ("
                        + badInputRate + ") does not fit in the second half of --seconds (" + seconds + ")");
            }
        }

        /**
         * The burst window, {@code [from, to)} in measured seconds: from the middle of the measured seconds
         * ({@code seconds / 2}, rounded down) for as many whole seconds as a bounded burst lasts at its rate (one
         * second without one). Runs with and without bad input report the good requests' latency in it
         * ({@code window*}), so a one-second burst compares with the same second of a run without it.
         */
        public int[] burstWindow() {
            return burstWindow(seconds, badInputRate, badInputCount);
        }

        private static int[] burstWindow(int seconds, double badInputRate, long badInputCount) {
            int from = seconds / 2;
            long length = badInputCount > 0 ? (long) Math.ceil(badInputCount / badInputRate) : 1;
            return new int[] {from, (int) Math.min(Integer.MAX_VALUE, from + Math.max(1, length))};
        }

        int requests() {
            return (int) Math.round(rate * seconds);
        }
    }

    /** What one run measured. */
    /**
     * What one run measured.
     *
     * @param latency          scheduled send to the first decision's receipt
     * @param requestsRead     scheduled send to the request's own receipt from {@code inference-requests} (Kafka
     *                         alone, no controller: the floor on this machine at this moment)
     * @param requestsAcked    scheduled send to the broker's acknowledgement of the request (the produce leg of
     *                         {@code requestsRead}; the rest is the consumer's fetch)
     * @param maxSendLagMillis the producer's largest lag behind its schedule (a busy machine shows here)
     * @param maxMillisBySecond the largest latency of the requests sent in each second of the measured run
     * @param requestReadMaxMillisBySecond the same for {@code requestsRead}
     * @param requestAckMaxMillisBySecond  the same for {@code requestsAcked}
     * @param measuredFromEpochMillis     the wall-clock time the first measured request was scheduled (epoch ms)
     * @param brokerDir                   the directory the broker's log was kept in (a temporary one inside it)
     * @param brokerStorage               {@code memory} when that directory is a tmpfs, else {@code disk}
     * @param badInput                    what the malformed records' publisher sent and the controller made of them
     * @param window                      the latency of the measured requests scheduled in the burst window
     *                                    ({@link Settings#burstWindow}), in runs with and without bad input
     * @param burstMillis                 a bounded burst's time from its first send to the broker's last answer
     *                                    (-1: none, or not finished)
     * @param p99MillisBySecond           the p99 of the measured requests scheduled in each second (by index at the
     *                                    rate), to compare a burst's seconds with the same seconds of another run
     */
    public record Result(Settings settings, long requests, long decided, long duplicates,
            LatencyRecorder.Percentiles latency, LatencyRecorder.Percentiles requestsRead,
            LatencyRecorder.Percentiles requestsAcked, double maxSendLagMillis, double[] maxMillisBySecond,
            double[] requestReadMaxMillisBySecond, double[] requestAckMaxMillisBySecond,
            long measuredFromEpochMillis, Path brokerDir, String brokerStorage, BadInputCount badInput,
            LatencyRecorder.Percentiles window, long burstMillis, double[] p99MillisBySecond) {}

    /**
     * The malformed records of a run with {@code --bad-input-rate}.
     *
     * @param sent         sent by the benchmark
     * @param refused      refused by the broker (they never reach the controller)
     * @param deadLettered records on {@code dead-letters} at the end of the run (only malformed input makes them)
     */
    public record BadInputCount(long sent, long refused, long deadLettered) {
        static final BadInputCount NONE = new BadInputCount(0, 0, 0);
    }

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    private LatencyBenchmark() {}

    /** Linux's shared-memory tmpfs, where {@link #brokerParent} puts the broker's log when it has room. */
    static final Path SHARED_MEMORY = Path.of("/dev/shm");

    /** Bytes per request the broker's log may take (a request, a 2-3 kB decision, indexes), with room to spare. */
    static final long BYTES_PER_REQUEST = 4096;

    public static Result run(Settings s) throws Exception {
        Path parent = brokerParent(s);
        Files.createDirectories(parent);
        Path work = Files.createTempDirectory(parent, "nona-latency-");
        try (LocalKafkaBroker broker = LocalKafkaBroker.builder().dataDir(work.resolve("kafka")).build().start()) {
            String bootstrap = broker.bootstrapServers();
            createTopics(bootstrap, s.badInputRate() > 0 && !s.badInputAtBrokerDefaults());
            JobClient job = startController(controllerSettings(s, bootstrap));
            LatencyRecorder recorder = new LatencyRecorder(s.requests());
            LatencyRecorder requestsRead = new LatencyRecorder(s.requests());
            LatencyRecorder requestsAcked = new LatencyRecorder(s.requests());
            try (LatencyReader reader = new LatencyReader(bootstrap, recorder,
                    s.readBackRequests() ? requestsRead : null).start();
                    LatencyPublisher publisher = new LatencyPublisher(bootstrap, s.models(), s.servers())) {
                publisher.publishCatalogAndServers();
                awaitFirstTable(publisher, reader, job, s.models());
                BadInputProcess bad = s.badInputRate() > 0
                        ? BadInputProcess.start(bootstrap, s.badInputRate(), s.badInputCount(), work) : null;
                publisher.publishAtRate(s.rate(), s.warmupSeconds() * (long) Math.round(s.rate()), "w-", null);
                double lag;
                int[] window = s.burstWindow();
                long windowFrom = Math.round(window[0] * s.rate());
                long windowTo = Math.min(s.requests(), Math.round(window[1] * s.rate()));
                Thread burst = null;
                long burstMillis = -1;
                try {
                    if (bad != null && s.badInputCount() == 0) {
                        bad.go();
                    } else if (bad != null) {
                        bad.awaitReady();
                        burst = startBurstAt(bad, recorder, windowFrom);
                    }
                    lag = publisher.publishAtRate(s.rate(), s.requests(), LatencyReader.MEASURED, requestsAcked,
                            recorder, requestsRead);
                    if (burst != null) {
                        burst.join();
                        burstMillis = bad.awaitDone(BURST_TIMEOUT);
                    }
                } finally {
                    if (burst != null) {
                        burst.interrupt();
                        burst.join();
                    }
                    if (bad != null) {
                        bad.close();
                    }
                }
                Duration drain = Duration.ofSeconds(30).plus(s.checkpointInterval().multipliedBy(3));
                LocalJobs.await(() -> recorder.decided() >= s.requests(), drain, 20, reader::check, job);
                Thread.sleep(1_000); // a late duplicate would show up here
                reader.check();
                BadInputCount badInput = bad == null ? BadInputCount.NONE : countDeadLetters(bootstrap, bad, job);
                return new Result(s, s.requests(), recorder.decided(), recorder.duplicates(), recorder.percentiles(),
                        requestsRead.percentiles(), requestsAcked.percentiles(), lag,
                        recorder.maxByBucket(1_000_000_000L), requestsRead.maxByBucket(1_000_000_000L),
                        requestsAcked.maxByBucket(1_000_000_000L), recorder.firstScheduledEpochMillis(), parent,
                        storage(parent), badInput, recorder.percentilesBetween(windowFrom, windowTo),
                        burstMillis, p99BySecond(recorder, s));
            } finally {
                LocalJobs.stop(job);
            }
        } finally {
            LocalJobs.deleteQuietly(work);
        }
    }

    /**
     * Where the broker's log goes: {@link Settings#brokerDir()} when given; else memory ({@code /dev/shm}) when it
     * has room for the run ({@link #bytesNeeded}); else the system's temporary directory. The log is thrown away
     * after the run. On a disk, Kafka's flush of each rolled segment (every {@code log.segment.bytes}, 64 MiB, per
     * partition: every 8-9 s per decisions partition at 20,000 requests/s) stalls the broker's appends on a busy
     * disk for 50-200 ms on this machine's virtual disk, the benchmark's tail then measures that disk, not the
     * controller (docs/benchmarks.md, "The broker's disk"). {@code --broker-dir} measures any disk.
     */
    static Path brokerParent(Settings s) {
        return brokerParent(s.brokerDir(), bytesNeeded(s));
    }

    /** As {@link #brokerParent(Settings)}, for a run whose broker log may take up to {@code bytesNeeded}. */
    static Path brokerParent(Optional<Path> given, long bytesNeeded) {
        if (given.isPresent()) {
            return given.get();
        }
        long usable = usableSpace(SHARED_MEMORY);
        return usable >= bytesNeeded ? SHARED_MEMORY : Path.of(System.getProperty("java.io.tmpdir"));
    }

    /**
     * Bytes per malformed record the broker's log may take: {@link BadInput}'s cycle averages about 80 kB, and its
     * dead letters (up to 256 KiB of the raw value, in base64) about 25 kB more.
     */
    static final long BYTES_PER_BAD_RECORD = 128 << 10;

    /**
     * An upper estimate of the broker's log for the run: warm-up, measured and drain seconds, plus the malformed
     * records of the measured seconds, plus 256 MiB.
     */
    static long bytesNeeded(Settings s) {
        double seconds = s.warmupSeconds() + s.seconds() + 30;
        return (long) Math.ceil(s.rate() * seconds * BYTES_PER_REQUEST)
                + (long) Math.ceil(s.badInputRate() * s.seconds() * BYTES_PER_BAD_RECORD) + (256L << 20);
    }

    private static long usableSpace(Path dir) {
        try {
            return Files.isDirectory(dir) && Files.isWritable(dir) ? Files.getFileStore(dir).getUsableSpace() : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** {@code memory} for a tmpfs, else {@code disk}. */
    static String storage(Path dir) {
        try {
            return "tmpfs".equals(Files.getFileStore(dir).type()) ? "memory" : "disk";
        } catch (IOException e) {
            return "disk";
        }
    }

    /**
     * The controller's settings: the defaults, the delivery mode and checkpoint interval asked for, then extras.
     * Checkpoints go where the controller's default puts them (no {@code checkpoint.dir}: the JobManager's memory)
     * unless {@code --set checkpoint.dir=URI}. A file URI measures that storage too: Flink writes and fsyncs each
     * checkpoint's metadata file, and on this machine's disk, busy, that took 0.3-1 s at times
     * (docs/benchmarks.md, "Exactly-once and the checkpoint storage").
     */
    static Map<String, String> controllerSettings(Settings s, String bootstrap) {
        Map<String, String> m = new TreeMap<>();
        m.put("bootstrap.servers", bootstrap);
        m.put("controller.id", "nona-latency");
        m.put("decisions.delivery", s.delivery().key());
        m.put("checkpoint.interval", s.checkpointInterval().toMillis() + "ms");
        m.put("source.start-from-earliest", "true");
        m.putAll(s.extra());
        return m;
    }

    /**
     * The topics; with bad input (unless at the broker's defaults), {@code inference-requests} and
     * {@code model-catalog} take records up to
     * {@link BadInputPublisher#MAX_REQUEST_BYTES} (a broker at its defaults refuses the 5 MB values; this one lets
     * them through to the controller, the worst case).
     */
    private static void createTopics(String bootstrap, boolean badInput) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            new TopicProvisioner(admin, Duration.ofSeconds(30)).ensure(Topics.all(), Optional.empty(),
                    Optional.of((short) 1));
            if (badInput) {
                AlterConfigOp large = new AlterConfigOp(new ConfigEntry("max.message.bytes",
                        String.valueOf(BadInputPublisher.MAX_REQUEST_BYTES)), AlterConfigOp.OpType.SET);
                Map<ConfigResource, Collection<AlterConfigOp>> ops = new HashMap<>();
                for (String topic : List.of(Topics.INFERENCE_REQUESTS.name(), Topics.MODEL_CATALOG.name())) {
                    ops.put(new ConfigResource(ConfigResource.Type.TOPIC, topic), List.of(large));
                }
                admin.incrementalAlterConfigs(ops).all().get(30, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * Waits (up to 30 s) until {@code dead-letters} holds a record for every malformed record the broker took, then
     * counts them (the topic's end offset: only malformed input makes dead letters in this benchmark).
     */
    private static BadInputCount countDeadLetters(String bootstrap, BadInputProcess bad, JobClient job)
            throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            long[] count = {0};
            LocalJobs.await(() -> {
                count[0] = endOffsets(admin, Topics.DEAD_LETTERS.name());
                return count[0] >= bad.acked();
            }, Duration.ofSeconds(30), 10, () -> { }, job);
            return new BadInputCount(bad.sent(), bad.refused(), count[0]);
        }
    }

    /** The sum of {@code topic}'s end offsets over its partitions: the records it has taken. */
    static long endOffsets(Admin admin, String topic) {
        try {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions()
                    .forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
            return admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).values().stream()
                    .mapToLong(ListOffsetsResult.ListOffsetsResultInfo::offset).sum();
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the end offsets of " + topic + ": " + e.getMessage(), e);
        }
    }

    private static JobClient startController(Map<String, String> settings) throws Exception {
        ControllerConfig config = ControllerConfig.fromMap(settings);
        StreamExecutionEnvironment env = ControllerEnvironment.create(config);
        ControllerJob.build(env, config);
        return env.executeAsync("nona-latency-controller");
    }

    /** One warm-up request per model every 500 ms until each model has a decision. */
    /** How long a bounded burst may take to be sent and answered after the measured seconds end. */
    private static final Duration BURST_TIMEOUT = Duration.ofSeconds(60);

    /**
     * Lets the bounded burst go once the publisher has scheduled request {@code index} (the burst window's first):
     * the malformed records then share their seconds with the window's good requests.
     */
    private static Thread startBurstAt(BadInputProcess bad, LatencyRecorder recorder, long index) {
        Thread t = new Thread(() -> {
            while (recorder.scheduledCount() <= index) {
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
                LockSupport.parkNanos(200_000);
            }
            try {
                bad.go();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, "nona-latency-burst");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** The p99 of the measured requests scheduled in each second, by index at the rate. */
    private static double[] p99BySecond(LatencyRecorder recorder, Settings s) {
        double[] out = new double[s.seconds()];
        for (int k = 0; k < out.length; k++) {
            out[k] = recorder.percentilesBetween(Math.round(k * s.rate()),
                    Math.min(s.requests(), Math.round((k + 1) * s.rate()))).p99();
        }
        return out;
    }

    private static void awaitFirstTable(LatencyPublisher publisher, LatencyReader reader, JobClient job,
            List<String> models) throws Exception {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (!reader.tableDecisionModels().containsAll(models)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the controller placed no request from a solved table for "
                        + models.stream().filter(m -> !reader.tableDecisionModels().contains(m)).toList()
                        + " within " + READY_TIMEOUT.toSeconds() + " s");
            }
            publisher.publishReadyChecks();
            LocalJobs.await(() -> reader.tableDecisionModels().containsAll(models), Duration.ofMillis(500), 20,
                    reader::check, job);
        }
    }
}
