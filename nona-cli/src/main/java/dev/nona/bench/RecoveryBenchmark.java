package dev.nona.bench;

import dev.nona.check.Checks;
import dev.nona.local.LocalKafkaBroker;
import dev.nona.topics.Topics;
import dev.nona.topics.admin.TopicProvisioner;
import dev.nona.topics.client.ClientProperties;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.util.TimeUtils;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The recovery measurement: a controller ({@link ControllerUnderTest}: {@code bin/nona run} as a child process, or
 * the controller job on a multi-process Flink cluster) against a real broker; the catalog and a report per server
 * every second; requests at a fixed rate on an open-loop schedule ({@link LatencyPublisher}); one {@link Fault}
 * injected when the {@code killAtSecond}-th second's requests are due (the controller killed with SIGKILL and
 * restarted, the broker killed and restarted after a down time, or the TaskManager running the job killed). One
 * server ({@link #silentServer}) falls silent {@link #SILENT_BEFORE} before the fault and stays silent: no request
 * made once its liveness timeout (plus {@link #SILENT_GRACE}) has passed since its last report may get a stage on it.
 *
 * <p>Counts per request id the decisions (the first wins), the dead letters of requests, the requests whose send
 * failed (the broker never accepted them: not sent), the time from the fault's end to the first decision the
 * recovered controller wrote, how the backlog drained ({@link RecoveryFigures}), and p50/p99 per 5 s window of
 * scheduled send time before, during and after the fault (latency from the scheduled send to the receipt of the first
 * decision, as {@code bench latency} measures it).
 *
 * <p>The controller should read its sources from their latest offsets on its first start
 * ({@code source.start-from-earliest=false}): a broker that holds an earlier run's requests (same ids) would have them
 * decided again. Before the measured requests: the controller is started and warm (a decision from a solved table
 * for every model) and has completed a checkpoint, so a restart has one to resume from. The bench's own clients
 * reconnect within {@link #BENCH_RECONNECT_MS} ms, so that their backoff is not what is measured.
 */
public final class RecoveryBenchmark {
    /** The window after the first decision of the recovered controller whose p99 is reported. */
    static final Duration AFTER_WINDOW = Duration.ofSeconds(30);
    /** How long before the fault the silent server makes its last report. */
    static final Duration SILENT_BEFORE = Duration.ofSeconds(1);
    /** Allowance past the silent server's liveness timeout before a stage on it counts (as the chaos invariant). */
    static final Duration SILENT_GRACE = Duration.ofSeconds(1);
    /** The controller's default {@code cluster.liveness-timeout}. */
    static final Duration DEFAULT_LIVENESS_TIMEOUT = Duration.ofSeconds(3);
    /** The bench's own producer's and reader's longest reconnect backoff, milliseconds. */
    static final int BENCH_RECONNECT_MS = 50;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(180);
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(120);
    private static final Map<String, String> BENCH_CLIENT_SETTINGS = Map.of(
            CommonClientConfigs.RECONNECT_BACKOFF_MS_CONFIG, String.valueOf(BENCH_RECONNECT_MS),
            CommonClientConfigs.RECONNECT_BACKOFF_MAX_MS_CONFIG, String.valueOf(BENCH_RECONNECT_MS),
            CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG, String.valueOf(BENCH_RECONNECT_MS),
            CommonClientConfigs.RETRY_BACKOFF_MAX_MS_CONFIG, String.valueOf(BENCH_RECONNECT_MS));
    /**
     * The bench's producer: {@link #BENCH_CLIENT_SETTINGS}, and the requests and reports made during a broker outage
     * kept and sent when the broker is back ({@link ClientProperties#bufferThroughOutages}), as a client that goes on
     * making them would: without it the producer's sends blocked for the whole outage, and the requests due in it
     * were made only after it.
     */
    private static final Map<String, String> BENCH_PUBLISHER_SETTINGS = publisherSettings();

    /**
     * @param rate         requests per second, {@code > 0}
     * @param seconds      seconds of measured requests, {@code >= 2}
     * @param killAtSecond when, from the first measured request, the fault is injected ({@code 1..seconds-1})
     * @param servers      servers reporting telemetry
     * @param models       the models the requests name, round robin (zoo names)
     * @param controller   the controller's settings file entries ({@code docs/controller.md})
     * @param workDir      the controller's working directory (its state directory and logs go there)
     * @param fresh        controller-kill: restart with {@code --fresh} rather than from the checkpoint
     */
    public record Settings(double rate, int seconds, int killAtSecond, int servers, List<String> models,
            Map<String, String> controller, Path workDir, boolean fresh) {
        public Settings {
            Checks.positive(rate, "--rate");
            if (seconds < 2 || killAtSecond < 1 || killAtSecond >= seconds) {
                throw new IllegalArgumentException("--kill-at (" + killAtSecond + " s) must be within --seconds ("
                        + seconds + ")");
            }
            Checks.positive(servers, "--servers");
            models = List.copyOf(models);
            controller = Map.copyOf(controller);
            Objects.requireNonNull(workDir, "working directory");
        }

        /** The controller's {@code cluster.liveness-timeout}: its setting, else the default. */
        Duration livenessTimeout() {
            String v = controller.get("cluster.liveness-timeout");
            return v == null ? DEFAULT_LIVENESS_TIMEOUT : TimeUtils.parseDuration(v);
        }
    }

    /**
     * One run's figures.
     *
     * @param fault                 the fault's name
     * @param sent                  measured requests the broker accepted (scheduled less {@code sendFailures})
     * @param sendFailures          requests whose send failed: the broker never accepted them
     * @param decided               of those sent, with at least one decision
     * @param undecided             of those sent, with none (by the end of the drain)
     * @param deadLettered          dead letters of requests (every request sent is valid)
     * @param duplicates            decisions beyond the first per request id
     * @param faultMillis           from the fault's start to its end
     * @param firstDecisionMillis   from the fault's end to the first decision the recovered controller wrote
     * @param caughtUpMillis        from the fault's end until decisions caught up ({@link RecoveryFigures})
     * @param drainRateMultiple     the drain rate over the arrival rate
     * @param backlogAtFirstDecision requests waiting for a decision when the first decision after the fault arrived
     * @param inFlightMillis        the latency whose requests count as normally in flight
     * @param p99AfterMillis        p99 latency of the requests scheduled in the 30 s after that first decision
     * @param p99BeforeMillis       p99 latency of the requests decided before the fault
     * @param windows               p50/p99 per 5 s window of scheduled send time
     * @param silentServer          the server silent since before the fault ({@code ""}: none)
     * @param stagesOnSilentServer  stages placed on it for requests made more than its liveness timeout plus
     *                              {@link #SILENT_GRACE} after its last report (by report time: a request made before
     *                              then but decided later, by a controller behind on its input or during a broker
     *                              outage, is not counted here but in {@code stagesOnSilentServerWrittenLate})
     * @param stagesOnSilentServerWhileLive stages placed on it before its last report (it was used while live)
     * @param resumedFrom           controller-kill: the checkpoint the restarted controller resumed from ({@code ""}:
     *                              none)
     * @param startReason           controller-kill: why it started fresh ({@code ""} when it resumed)
     * @param startTableVersion     controller-kill: the table the restarted controller read from
     *                              {@code placement-tables} to start with (0: none)
     * @param firstDecisionTableVersion table version of the first decision after the fault
     * @param firstDecisionFallback whether that decision was made under the fallback
     * @param details               what the fault adds (e.g. the broker's down time, the TaskManager killed)
     */
    public record Result(String fault, long sent, long sendFailures, long decided, long undecided, long deadLettered,
            long duplicates, double faultMillis, double firstDecisionMillis, double caughtUpMillis,
            double drainRateMultiple, long backlogAtFirstDecision, double inFlightMillis, double p99AfterMillis,
            double p99BeforeMillis, List<RecoveryFigures.Window> windows, String silentServer,
            long stagesOnSilentServer, long stagesOnSilentServerWhileLive, String resumedFrom, String startReason, long startTableVersion,
            long firstDecisionTableVersion, boolean firstDecisionFallback, List<String> deadLetterReasons,
            Map<String, Object> details) {
        public Result {
            windows = List.copyOf(windows);
            deadLetterReasons = List.copyOf(deadLetterReasons);
            details = Map.copyOf(details);
        }

        /** The figures as the benchmark's JSON prints them. */
        public Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("sent", sent);
            m.put("sendFailures", sendFailures);
            m.put("decided", decided);
            m.put("undecided", undecided);
            m.put("deadLettered", deadLettered);
            m.put("duplicates", duplicates);
            m.put("faultMillis", faultMillis);
            m.put("firstDecisionAfterFaultMillis", firstDecisionMillis);
            m.put("caughtUpAfterFaultMillis", caughtUpMillis);
            m.put("drainRateMultiple", drainRateMultiple);
            m.put("backlogAtFirstDecision", backlogAtFirstDecision);
            m.put("inFlightMillis", inFlightMillis);
            m.put("p99BeforeMillis", p99BeforeMillis);
            m.put("p99AfterMillis", p99AfterMillis);
            m.put("silentServer", silentServer);
            m.put("stagesOnSilentServer", stagesOnSilentServer);
            m.put("stagesOnSilentServerWhileLive", stagesOnSilentServerWhileLive);
            if (fault.equals("controller-kill")) {
                m.put("resumedFrom", resumedFrom);
                m.put("startReason", startReason);
                m.put("startTableVersion", startTableVersion);
            }
            m.put("firstDecisionTableVersion", firstDecisionTableVersion);
            m.put("firstDecisionFallback", firstDecisionFallback);
            m.put("deadLetterReasons", deadLetterReasons);
            m.putAll(new TreeMap<>(details));
            m.put("windows", windows.stream().map(RecoveryFigures.Window::toJson).toList());
            return m;
        }
    }

    private RecoveryBenchmark() {}

    /** Kills the controller process and starts it again, against the broker at {@code bootstrap}. */
    public static Result runControllerKill(Settings s, String bootstrap) throws Exception {
        ensureTopics(bootstrap);
        ControllerChildJvm controller = new ControllerChildJvm(bootstrap, s.controller(), s.workDir());
        return run(s, bootstrap, controller, new ControllerKill(controller, s.fresh()), Map.of());
    }

    /** Kills the broker (the bench's own) for {@code down} and starts it again. */
    public static Result runBrokerKill(Settings s, LocalKafkaBroker broker, Duration down) throws Exception {
        ensureTopics(broker.bootstrapServers());
        ControllerChildJvm controller = new ControllerChildJvm(broker.bootstrapServers(), s.controller(), s.workDir());
        try (BrokerOutage outage = new BrokerOutage(broker, down)) {
            return run(s, broker.bootstrapServers(), controller, outage, Map.of("downSeconds", down.toSeconds()));
        }
    }

    /** Runs the controller job on a multi-process Flink cluster and kills the TaskManager that runs it. */
    public static Result runTaskManagerKill(Settings s, String bootstrap, Path jobJar) throws Exception {
        ensureTopics(bootstrap);
        ControllerOnCluster controller = new ControllerOnCluster(bootstrap, s.controller(), s.workDir(), jobJar);
        return run(s, bootstrap, controller, new TaskManagerKill(controller), Map.of());
    }

    private static void ensureTopics(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            new TopicProvisioner(admin, Duration.ofSeconds(30)).ensure(Topics.all(), Optional.empty(),
                    Optional.of((short) 1));
        }
    }

    /** The server that falls silent: the last one ({@code ""} when there is only one). */
    static String silentServer(int servers) {
        return servers < 2 ? "" : LatencyPublisher.serverId(servers - 1);
    }

    private static Map<String, String> publisherSettings() {
        Map<String, String> m = new LinkedHashMap<>(BENCH_CLIENT_SETTINGS);
        ClientProperties.bufferThroughOutages(new Properties()).forEach((k, v) -> m.put((String) k, (String) v));
        return Map.copyOf(m);
    }

    /**
     * Runs one fault against {@code controller} (started here, closed at the end), the broker at {@code bootstrap}
     * holding the topics; {@code details} are added to the result.
     */
    static Result run(Settings s, String bootstrap, ControllerUnderTest controller, Fault fault,
            Map<String, Object> details) throws Exception {
        int n = (int) Math.round(s.rate() * s.seconds());
        LatencyRecorder latency = new LatencyRecorder(n);
        LatencyRecorder acked = new LatencyRecorder(n);
        String silent = silentServer(s.servers());
        try (controller;
                LatencyPublisher publisher = new LatencyPublisher(bootstrap, s.models(), s.servers(),
                        BENCH_PUBLISHER_SETTINGS);
                Reader reader = new Reader(bootstrap, latency, silent).start()) {
            publisher.countSendFailures();
            publisher.publishCatalogAndServers();
            controller.start();
            awaitReady(publisher, reader, s.models(), controller);
            controller.awaitCheckpoint(READY_TIMEOUT);
            long killAt = Math.round(s.rate() * s.killAtSecond());
            long silenceAt = Math.max(0, killAt - Math.round(s.rate() * SILENT_BEFORE.toMillis() / 1000.0));
            long silentAfter = s.livenessTimeout().plus(SILENT_GRACE).toMillis();
            AtomicReference<Fault.Window> window = new AtomicReference<>();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread injector = new Thread(() -> {
                try {
                    if (!awaitScheduled(latency, silenceAt, s)) {
                        return;
                    }
                    if (!silent.isEmpty()) {
                        long last = publisher.silence(silent);
                        reader.silentFrom(last, last + silentAfter);
                    }
                    if (!awaitScheduled(latency, killAt, s)) {
                        return;
                    }
                    reader.faultStarting();
                    window.set(fault.inject());
                } catch (Throwable t) {
                    failed.set(t);
                }
            }, "nona-recovery-fault");
            injector.start();
            publisher.publishAtRate(s.rate(), n, LatencyReader.MEASURED, acked, latency);
            injector.join();
            if (failed.get() != null) {
                throw new IllegalStateException(fault.name() + " failed: " + failed.get(), failed.get());
            }
            Fault.Window w = window.get();
            if (w == null) {
                throw new IllegalStateException("the fault was not injected (the publisher fell behind)");
            }
            Set<Integer> sendFailures = publisher.failedSends();
            long deadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
            while (latency.decided() < n - sendFailures.size() && System.nanoTime() < deadline) {
                reader.check();
                Thread.sleep(200);
            }
            Thread.sleep(1_000); // a late duplicate would show
            sendFailures = publisher.failedSends();
            Map<String, Object> all = new LinkedHashMap<>(details);
            all.putAll(acks(acked, latency, w, sendFailures, s.rate()));
            if (fault instanceof TaskManagerKill tm) {
                all.put("taskManagerKilled", tm.killed());
            }
            return reader.result(fault, w, fault.recoveredFromEpochMillis(w), s.rate(), n, sendFailures, all);
        }
    }

    /**
     * When the broker acknowledged the bench's own requests after the fault, beside when their decisions arrived:
     * the requests cannot be decided before the broker holds them, so a drain paced by the bench's producer shows
     * here. {@code acks*}: {@link RecoveryFigures#drain} of the acknowledgements (from the first one after the fault's
     * end); {@code drainTimeline}: per {@link #TIMELINE_STEP_MILLIS} ms from the fault's end, the requests scheduled,
     * acknowledged and decided so far (of those scheduled from the fault's start on).
     */
    static Map<String, Object> acks(LatencyRecorder acked, LatencyRecorder decided, Fault.Window w, Set<Integer> failed,
            double rate) {
        long[] scheduled = acked.scheduledNanos();
        long[] ack = acked.receivedNanos();
        long[] got = decided.receivedNanos();
        long firstAck = 0;
        for (long a : ack) {
            if (a != 0 && a - w.endNanos() >= 0 && (firstAck == 0 || a - firstAck < 0)) {
                firstAck = a;
            }
        }
        RecoveryFigures.Drain d = RecoveryFigures.drain(scheduled, ack, failed, w.startNanos(), w.endNanos(), firstAck,
                rate);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("acksFirstAfterFaultMillis", d.firstDecisionMillis());
        m.put("acksBacklogAtFirst", d.backlogAtFirstDecision());
        m.put("acksCaughtUpAfterFaultMillis", d.caughtUpMillis());
        m.put("acksDrainRateMultiple", d.drainRateMultiple());
        List<String> timeline = new ArrayList<>();
        for (long t = 0; t <= TIMELINE_MILLIS; t += TIMELINE_STEP_MILLIS) {
            long at = w.endNanos() + t * 1_000_000;
            long sched = 0;
            long a = 0;
            long dec = 0;
            for (int i = 0; i < scheduled.length; i++) {
                if (scheduled[i] == 0 || scheduled[i] - w.startNanos() < 0 || failed.contains(i)) {
                    continue;
                }
                sched += scheduled[i] - at <= 0 ? 1 : 0;
                a += ack[i] != 0 && ack[i] - at <= 0 ? 1 : 0;
                dec += got[i] != 0 && got[i] - at <= 0 ? 1 : 0;
            }
            timeline.add("+" + t + " ms: scheduled " + sched + ", acked " + a + ", decided " + dec);
        }
        m.put("drainTimeline", timeline);
        return m;
    }

    /** How far after the fault's end, and in which steps, {@link #acks} follows the requests. */
    static final long TIMELINE_MILLIS = 8_000;
    static final long TIMELINE_STEP_MILLIS = 250;

    /** Waits until request {@code index} is due; false when the publisher did not get there in time. */
    private static boolean awaitScheduled(LatencyRecorder latency, long index, Settings s) {
        long start = System.nanoTime();
        while (latency.scheduledCount() < index) {
            LockSupport.parkNanos(1_000_000);
            if (System.nanoTime() - start > Duration.ofSeconds(s.seconds() * 4L).toNanos()) {
                return false;
            }
        }
        return true;
    }

    private static void awaitReady(LatencyPublisher publisher, Reader reader, List<String> models,
            ControllerUnderTest c) throws InterruptedException {
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

    /**
     * Reads decisions, dead letters and controller events written from its start on, on its own thread: each measured
     * request's first decision (into the {@link LatencyRecorder}), from the fault's start on every decision's record
     * time and receipt time, and the stages placed on the silent server.
     */
    private static final class Reader implements AutoCloseable {
        /** A decision read after the fault started: its record time (epoch ms), receipt time (nanoTime), table. */
        private record Seen(long timestamp, long receivedNanos, long tableVersion, boolean fallback) {}

        private final TopicReader<byte[]> reader;
        private final LatencyRecorder latency;
        private final String silentServer;
        private final JsonSerde<PlacementDecision> decisions = JsonSerde.forTopic(Topics.PLACEMENT_DECISIONS);
        private final JsonSerde<DeadLetter> deadLetters = JsonSerde.forTopic(Topics.DEAD_LETTERS);
        private final JsonSerde<ControllerEvent> events = JsonSerde.forTopic(Topics.CONTROLLER_EVENTS);
        final Set<String> tableModels = ConcurrentHashMap.newKeySet();
        private final List<ControllerEvent> started = new CopyOnWriteArrayList<>();
        private final List<String> deadLetterReasons = new CopyOnWriteArrayList<>();
        private final List<Seen> afterFault = Collections.synchronizedList(new ArrayList<>());
        private final AtomicLong silentStages = new AtomicLong();
        private volatile boolean faultStarted;
        /**
         * Epoch ms after which a request (by its own time, {@code eventTime}) must not get a stage on the silent server:
         * by then the server has been silent for longer than its liveness timeout, by report time.
         */
        private volatile long silentFrom = Long.MAX_VALUE;
        /** Epoch ms of the silent server's last report. */
        private volatile long silentSince = Long.MAX_VALUE;
        private final AtomicLong liveStages = new AtomicLong();
        /** Stages on the silent server of requests made before it was silent too long, written after. */
        private final AtomicLong silentStagesWrittenLate = new AtomicLong();
        private final List<String> silentExamples = new CopyOnWriteArrayList<>();

        Reader(String bootstrap, LatencyRecorder latency, String silentServer) {
            this.latency = latency;
            this.silentServer = silentServer;
            // only this run's records: the broker may hold earlier runs'
            reader = TopicReader.ofBytes(bootstrap, "nona-recovery-reader", List.of(Topics.PLACEMENT_DECISIONS.name(),
                            Topics.DEAD_LETTERS.name(), Topics.CONTROLLER_EVENTS.name()), this::note)
                    .fromEnd().with(BENCH_CLIENT_SETTINGS).pollingEvery(Duration.ofMillis(50));
        }

        Reader start() {
            reader.start();
            return this;
        }

        /** From now on, every decision's times are kept (for the first decision after the fault). */
        void faultStarting() {
            faultStarted = true;
        }

        /** The silent server's last report was at {@code lastReport}; from {@code from} no stage may go to it. */
        void silentFrom(long lastReport, long from) {
            silentSince = lastReport;
            silentFrom = from;
        }

        void check() {
            reader.check();
        }

        private void note(ConsumerRecord<byte[], byte[]> r, long now) {
            if (r.topic().equals(Topics.PLACEMENT_DECISIONS.name())) {
                Parsed<PlacementDecision> d = decisions.parse(r.value());
                if (!d.ok()) {
                    throw new IllegalStateException("unreadable decision: " + d.reason());
                }
                PlacementDecision decision = d.value();
                if (faultStarted) {
                    afterFault.add(new Seen(r.timestamp(), now, decision.tableVersion(), decision.fallback()));
                }
                if (!decision.fallback() && decision.tableVersion() > 0) {
                    tableModels.add(decision.model());
                }
                int onSilent = 0;
                for (StageAssignment stage : decision.placedStages()) {
                    if (stage.server().equals(silentServer)) {
                        onSilent++;
                    }
                }
                if (onSilent > 0) {
                    if (decision.eventTime() > silentFrom) {
                        silentStages.addAndGet(onSilent);
                        if (silentExamples.size() < 5) {
                            silentExamples.add(decision.requestId() + ": made " + (decision.eventTime() - silentSince)
                                    + " ms, written " + (r.timestamp() - silentSince) + " ms after the last report");
                        }
                    } else if (r.timestamp() > silentFrom) {
                        silentStagesWrittenLate.addAndGet(onSilent);
                    } else if (r.timestamp() <= silentSince) {
                        liveStages.addAndGet(onSilent);
                    }
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

        Result result(Fault fault, Fault.Window w, long recoveredFrom, double rate, int n, Set<Integer> failed,
                Map<String, Object> details) {
            check();
            List<Seen> seen;
            synchronized (afterFault) {
                seen = List.copyOf(afterFault);
            }
            Seen first = seen.stream().filter(x -> x.timestamp() >= recoveredFrom)
                    .min(Comparator.comparingLong(Seen::receivedNanos)).orElse(null);
            long[] scheduled = latency.scheduledNanos();
            long[] received = latency.receivedNanos();
            RecoveryFigures.Drain drain = RecoveryFigures.drain(scheduled, received, failed, w.startNanos(),
                    w.endNanos(), first == null ? 0 : first.receivedNanos(), rate);
            double p99After = first == null ? Double.NaN : percentile(latency.latenciesScheduledIn(
                    first.receivedNanos(), first.receivedNanos() + AFTER_WINDOW.toNanos()), 0.99);
            long decidedOfSent = 0;
            for (int i = 0; i < n; i++) {
                if (received[i] != 0 && !failed.contains(i)) {
                    decidedOfSent++;
                }
            }
            long sent = n - failed.size();
            boolean controllerKill = fault instanceof ControllerKill;
            ControllerEvent second = started.size() >= 2 ? started.get(1) : null;
            Object resumed = second == null ? "" : second.details().getOrDefault("checkpoint", "");
            Object reason = !controllerKill ? "" : second == null ? "no CONTROLLER_STARTED event of the restart"
                    : second.details().getOrDefault("reason", "");
            Map<String, Object> all = new LinkedHashMap<>(details);
            all.put("stagesOnSilentServerWrittenLate", silentStagesWrittenLate.get());
            all.put("stagesOnSilentServerExamples", List.copyOf(silentExamples));
            all.put("faultStartEpochMillis", w.startEpochMillis());
            all.put("faultEndEpochMillis", w.endEpochMillis());
            return new Result(fault.name(), sent, failed.size(), decidedOfSent, sent - decidedOfSent,
                    deadLetterReasons.size(), latency.duplicates(), w.millis(), drain.firstDecisionMillis(),
                    drain.caughtUpMillis(), drain.drainRateMultiple(), drain.backlogAtFirstDecision(),
                    drain.inFlightMillis(), p99After, drain.p99BeforeMillis(),
                    RecoveryFigures.windows(scheduled, received, failed, w.startNanos(), w.endNanos()),
                    silentServer, silentStages.get(), liveStages.get(), String.valueOf(resumed), String.valueOf(reason),
                    second == null ? 0 : ((Number) second.details().getOrDefault("tableVersion", 0)).longValue(),
                    first == null ? 0 : first.tableVersion(), first != null && first.fallback(),
                    deadLetterReasons.stream().distinct().limit(5).toList(), all);
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
            reader.close();
        }
    }
}
