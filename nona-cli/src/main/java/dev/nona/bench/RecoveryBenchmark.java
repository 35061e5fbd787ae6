package dev.nona.bench;

import dev.nona.check.Checks;
import dev.nona.local.ChildJvm;
import dev.nona.local.JvmClasspath;
import dev.nona.local.StateDirectory;
import dev.nona.topics.Topics;
import dev.nona.topics.admin.TopicProvisioner;
import dev.nona.topics.client.ClientProperties;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The controller-kill recovery measurement: {@code bin/nona run} as a child process (its own JVM, a MiniCluster, a
 * state directory) against a real broker; the catalog and a report per server every second; requests at a fixed
 * rate on an open-loop schedule ({@link LatencyPublisher}); the controller killed with SIGKILL (as {@code kill -9})
 * at {@code killAtSecond} and started again at once with the same state directory. Counts per request id the
 * decisions (the first wins), the dead letters of requests, the time from the restart to the first decision the new
 * process wrote, and the p99 latency of the requests scheduled in the 30 s after that first decision.
 *
 * <p>The controller should read its sources from their latest offsets on its first start
 * ({@code source.start-from-earliest=false}): a broker that holds an earlier run's requests (same ids) would have them
 * decided again. Before the measured requests: the controller is started and warm (a decision from a solved table for every
 * model) and has completed a checkpoint, so the restart has one to resume from ({@code fresh}: it is restarted with
 * {@code --fresh} instead, from the catalog and the newest table on Kafka).
 */
public final class RecoveryBenchmark {
    /** The window after the first decision of the restarted controller whose p99 is reported. */
    static final Duration AFTER_WINDOW = Duration.ofSeconds(30);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(180);
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(120);

    /**
     * @param rate         requests per second, {@code > 0}
     * @param seconds      seconds of measured requests, {@code >= 2}
     * @param killAtSecond when, from the first measured request, the controller is killed ({@code 1..seconds-1})
     * @param servers      servers reporting telemetry
     * @param models       the models the requests name, round robin (zoo names)
     * @param controller   the controller's settings file entries ({@code docs/controller.md})
     * @param workDir      the controller's working directory (its state directory and logs go there)
     * @param fresh        restart with {@code --fresh} rather than from the checkpoint
     */
    public record Settings(double rate, int seconds, int killAtSecond, int servers, List<String> models,
            Map<String, String> controller, Path workDir, boolean fresh) {
        public Settings {
            Checks.positive(rate, "--rate");
            if (seconds < 2 || killAtSecond < 1 || killAtSecond >= seconds) {
                throw new IllegalArgumentException("--kill-at (" + killAtSecond + " s) must be within --seconds ("
                        + seconds + ")");
            }
            models = List.copyOf(models);
            controller = Map.copyOf(controller);
            Objects.requireNonNull(workDir, "working directory");
        }
    }

    /**
     * One run's figures.
     *
     * @param sent                 measured requests sent
     * @param decided              of them, with at least one decision
     * @param undecided            of them, with none (by the end of the drain)
     * @param deadLettered         dead letters of requests (every request sent is valid)
     * @param duplicates           decisions beyond the first per request id
     * @param restartToFirstDecisionMillis from the restart (the new process started) to the first decision it wrote
     * @param p99AfterMillis       p99 latency of the requests scheduled in the 30 s after that first decision
     * @param p99BeforeMillis      p99 latency of the requests scheduled before the kill
     * @param resumedFrom          the checkpoint the restarted controller resumed from ({@code ""}: none)
     * @param startReason          why it started fresh ({@code ""} when it resumed)
     * @param startTableVersion    the table the restarted controller read from {@code placement-tables} to start
     *                             with (its {@code CONTROLLER_STARTED} event's {@code tableVersion}; 0: none)
     * @param firstDecisionTableVersion table version of the first decision after the restart
     * @param firstDecisionFallback whether that decision was made under the fallback
     */
    public record Result(long sent, long decided, long undecided, long deadLettered, long duplicates,
            double restartToFirstDecisionMillis, double p99AfterMillis, double p99BeforeMillis, String resumedFrom,
            String startReason, long startTableVersion, long firstDecisionTableVersion, boolean firstDecisionFallback,
            List<String> deadLetterReasons) {
        public Result {
            deadLetterReasons = List.copyOf(deadLetterReasons);
        }

        /** The figures as the benchmark's JSON prints them. */
        public Map<String, Object> toJson() {
            Map<String, Object> m = new TreeMap<>();
            m.put("sent", sent);
            m.put("decided", decided);
            m.put("undecided", undecided);
            m.put("deadLettered", deadLettered);
            m.put("duplicates", duplicates);
            m.put("restartToFirstDecisionMillis", restartToFirstDecisionMillis);
            m.put("p99AfterMillis", p99AfterMillis);
            m.put("p99BeforeMillis", p99BeforeMillis);
            m.put("resumedFrom", resumedFrom);
            m.put("startReason", startReason);
            m.put("startTableVersion", startTableVersion);
            m.put("firstDecisionTableVersion", firstDecisionTableVersion);
            m.put("firstDecisionFallback", firstDecisionFallback);
            m.put("deadLetterReasons", deadLetterReasons);
            return m;
        }
    }

    private RecoveryBenchmark() {}

    /** Runs one kill -9 and restart against the broker at {@code bootstrap}; its topics are created if missing. */
    public static Result run(Settings s, String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            new TopicProvisioner(admin, Duration.ofSeconds(30)).ensure(Topics.all(), Optional.empty(),
                    Optional.of((short) 1));
        }
        Files.createDirectories(s.workDir());
        Path config = s.workDir().resolve("controller.properties");
        StringBuilder props = new StringBuilder();
        new TreeMap<>(s.controller()).forEach((k, v) -> props.append(k).append('=').append(v).append('\n'));
        Files.writeString(config, props);
        Path stateDir = s.workDir().resolve("state");
        int n = (int) Math.round(s.rate() * s.seconds());
        LatencyRecorder latency = new LatencyRecorder(n);
        try (LatencyPublisher publisher = new LatencyPublisher(bootstrap, s.models(), s.servers());
                Reader reader = new Reader(bootstrap, latency).start()) {
            publisher.publishCatalogAndServers();
            ChildJvm first = controller(s, bootstrap, config, stateDir, false, 1);
            ChildJvm second = null;
            try {
                awaitReady(publisher, reader, s.models(), first);
                awaitCheckpoint(stateDir, first);
                long killAt = Math.round(s.rate() * s.killAtSecond());
                AtomicLong restartNanos = new AtomicLong();
                AtomicReference<ChildJvm> restarted = new AtomicReference<>();
                Thread killer = new Thread(() -> {
                    long start = System.nanoTime();
                    while (latency.scheduledCount() < killAt) {
                        LockSupport.parkNanos(1_000_000);
                        if (System.nanoTime() - start > Duration.ofSeconds(s.seconds() * 4L).toNanos()) {
                            return;
                        }
                    }
                    first.kill();
                    reader.restarted(System.currentTimeMillis());
                    restartNanos.set(System.nanoTime());
                    restarted.set(controller(s, bootstrap, config, stateDir, s.fresh(), 2));
                }, "nona-recovery-killer");
                killer.start();
                publisher.publishAtRate(s.rate(), n, LatencyReader.MEASURED, null, latency);
                killer.join();
                second = restarted.get();
                long deadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
                while (latency.decided() < n && System.nanoTime() < deadline) {
                    reader.check();
                    Thread.sleep(200);
                }
                Thread.sleep(1_000); // a late duplicate would show
                return reader.result(latency, restartNanos.get(), n, killAt);
            } finally {
                first.kill();
                if (second != null) {
                    second.kill();
                }
            }
        }
    }

    /** {@code bin/nona run} in a child JVM, its output in {@code controller-<k>.log} of the working directory. */
    private static ChildJvm controller(Settings s, String bootstrap, Path config, Path stateDir, boolean fresh, int k) {
        List<String> args = new ArrayList<>(List.of("run", "--bootstrap", bootstrap, "--config", config.toString(),
                "--state-dir", stateDir.toString(), "--metrics-port", "0"));
        if (fresh) {
            args.add("--fresh");
        }
        return ChildJvm.start("controller-" + k, List.of("-Xmx1g"), JvmClasspath.current(), "dev.nona.cli.NonaCli",
                args, s.workDir().resolve("controller-" + k + ".log"), s.workDir());
    }

    private static void awaitReady(LatencyPublisher publisher, Reader reader, List<String> models, ChildJvm c)
            throws InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (!reader.tableModels.containsAll(models)) {
            if (System.nanoTime() > deadline || !c.isAlive()) {
                throw new IllegalStateException("the controller placed no request from a solved table for every "
                        + "model within " + READY_TIMEOUT.toSeconds() + " s: " + c.logTail(4000));
            }
            publisher.publishReadyChecks();
            reader.check();
            Thread.sleep(500);
        }
    }

    private static void awaitCheckpoint(Path stateDir, ChildJvm c) throws InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (new StateDirectory(stateDir).latest().checkpoint() == null) {
            if (System.nanoTime() > deadline || !c.isAlive()) {
                throw new IllegalStateException("no completed checkpoint in " + stateDir + ": " + c.logTail(4000));
            }
            Thread.sleep(200);
        }
    }

    /** Reads decisions, dead letters and controller events written from its start on, on its own thread. */
    private static final class Reader implements AutoCloseable {
        private final KafkaConsumer<byte[], byte[]> consumer;
        private final LatencyRecorder latency;
        private final JsonSerde<PlacementDecision> decisions = JsonSerde.forTopic(Topics.PLACEMENT_DECISIONS);
        private final JsonSerde<DeadLetter> deadLetters = JsonSerde.forTopic(Topics.DEAD_LETTERS);
        private final JsonSerde<ControllerEvent> events = JsonSerde.forTopic(Topics.CONTROLLER_EVENTS);
        final Set<String> tableModels = ConcurrentHashMap.newKeySet();
        private final List<ControllerEvent> started = new CopyOnWriteArrayList<>();
        private final List<String> deadLetterReasons = new CopyOnWriteArrayList<>();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final Thread thread;
        /** Epoch ms of the kill: decisions written later (record time) are the restarted controller's. */
        private volatile long restartedAt;
        private volatile long firstAfterRestart;
        private volatile PlacementDecision firstDecisionAfterRestart;
        private volatile boolean running = true;

        Reader(String bootstrap, LatencyRecorder latency) {
            this.latency = latency;
            var p = ClientProperties.readCommittedConsumer(bootstrap, null);
            p.put(ConsumerConfig.CLIENT_ID_CONFIG, "nona-recovery-reader");
            consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            thread = new Thread(this::loop, "nona-recovery-reader");
            thread.setDaemon(true);
        }

        Reader start() {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String t : List.of(Topics.PLACEMENT_DECISIONS.name(), Topics.DEAD_LETTERS.name(),
                    Topics.CONTROLLER_EVENTS.name())) {
                consumer.partitionsFor(t).forEach(i -> partitions.add(new TopicPartition(t, i.partition())));
            }
            consumer.assign(partitions);
            consumer.seekToEnd(partitions); // only this run's records: the broker may hold earlier runs'
            partitions.forEach(consumer::position);
            thread.start();
            return this;
        }

        void restarted(long epochMillis) {
            restartedAt = epochMillis;
        }

        void check() {
            if (failure.get() != null) {
                throw new IllegalStateException("reading failed: " + failure.get(), failure.get());
            }
        }

        private void loop() {
            try {
                while (running) {
                    var records = consumer.poll(Duration.ofMillis(50));
                    long now = System.nanoTime();
                    for (ConsumerRecord<byte[], byte[]> r : records) {
                        note(r, now);
                    }
                }
            } catch (WakeupException closing) {
                // closed
            } catch (Throwable t) {
                failure.set(t);
            } finally {
                consumer.close(Duration.ofSeconds(5));
            }
        }

        private void note(ConsumerRecord<byte[], byte[]> r, long now) {
            if (r.topic().equals(Topics.PLACEMENT_DECISIONS.name())) {
                Parsed<PlacementDecision> d = decisions.parse(r.value());
                if (!d.ok()) {
                    throw new IllegalStateException("unreadable decision: " + d.reason());
                }
                boolean afterRestart = restartedAt != 0 && r.timestamp() > restartedAt;
                if (afterRestart && firstDecisionAfterRestart == null) {
                    firstDecisionAfterRestart = d.value();
                    firstAfterRestart = now;
                }
                if (!d.value().fallback() && d.value().tableVersion() > 0) {
                    tableModels.add(d.value().model());
                }
                int i = LatencyReader.measuredIndex(r.key() == null ? new byte[0] : r.key());
                if (i >= 0 && i < latency.size()) {
                    latency.received(i, now);
                }
            } else if (r.topic().equals(Topics.DEAD_LETTERS.name())) {
                Parsed<DeadLetter> dl = deadLetters.parse(r.value());
                if (dl.ok() && dl.value().sourceTopic().equals(Topics.INFERENCE_REQUESTS.name())) {
                    deadLetterReasons.add(dl.value().reason());
                }
            } else {
                Parsed<ControllerEvent> e = events.parse(r.value());
                if (e.ok() && e.value().type() == ControllerEventType.CONTROLLER_STARTED) {
                    started.add(e.value());
                }
            }
        }

        Result result(LatencyRecorder latency, long restartNanos, int n, long killAt) {
            check();
            ControllerEvent second = started.size() >= 2 ? started.get(1) : null;
            PlacementDecision first = firstDecisionAfterRestart;
            long firstAt = firstAfterRestart;
            double[] before = latency.latenciesScheduledBetween(0, killAt);
            double p99Before = percentile(before, 0.99);
            double p99After = firstAt == 0 ? Double.NaN
                    : percentile(latency.latenciesScheduledIn(firstAt, firstAt + AFTER_WINDOW.toNanos()), 0.99);
            Object resumed = second == null ? "" : second.details().getOrDefault("checkpoint", "");
            Object reason = second == null ? "no CONTROLLER_STARTED event of the restart"
                    : second.details().getOrDefault("reason", "");
            return new Result(n, latency.decided(), n - latency.decided(), deadLetterReasons.size(),
                    latency.duplicates(), firstAt == 0 ? Double.NaN : (firstAt - restartNanos) / 1e6, p99After,
                    p99Before, String.valueOf(resumed), String.valueOf(reason),
                    second == null ? 0 : ((Number) second.details().getOrDefault("tableVersion", 0)).longValue(),
                    first == null ? 0 : first.tableVersion(), first != null && first.fallback(),
                    deadLetterReasons.stream().distinct().limit(5).toList());
        }

        private static double percentile(double[] values, double q) {
            if (values.length == 0) {
                return Double.NaN;
            }
            Arrays.sort(values);
            return values[(int) Math.min(values.length - 1, Math.max(0, Math.ceil(q * values.length) - 1))];
        }

        @Override
        public void close() {
            running = false;
            consumer.wakeup();
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
