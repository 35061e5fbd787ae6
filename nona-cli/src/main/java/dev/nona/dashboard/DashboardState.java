package dev.nona.dashboard;

import dev.nona.dashboard.DashboardSnapshot.EventView;
import dev.nona.dashboard.DashboardSnapshot.Mark;
import dev.nona.dashboard.DashboardSnapshot.ModelView;
import dev.nona.dashboard.DashboardSnapshot.TableModel;
import dev.nona.dashboard.DashboardSnapshot.TableView;
import dev.nona.topics.record.ControllerCommand;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.OutcomeStatus;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.record.StageAssignment;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the dashboard has read, folded into the figures the page shows: per model decisions, rates, and predicted
 * against observed JCT of the same requests ({@link JctPairs}); the two newest tables; per server its last report and the stages placed on it; the last events.
 * Bounded: rate series keep {@link #HORIZON_SECONDS} seconds, {@link #MAX_EVENTS} events and {@link #MAX_MARKS}
 * marks. Thread-safe: the feed's thread writes, the HTTP server's threads take {@link #snapshot}s.
 */
public final class DashboardState {
    static final int HORIZON_SECONDS = 180;
    static final int MAX_EVENTS = 30;
    static final int MAX_MARKS = 40;
    /** Rates and loads are averaged over this many full seconds of event time. */
    static final int RATE_SECONDS = 5;

    private final String bootstrap;
    private DashboardSnapshot.Broker broker = DashboardSnapshot.Broker.UNKNOWN;
    private final Duration livenessTimeout;
    private final RateSeries modelRates = new RateSeries(HORIZON_SECONDS);
    private final RateSeries serverStages = new RateSeries(RATE_SECONDS + 2);
    private final RateSeries serverRequests = new RateSeries(RATE_SECONDS + 2);
    private final Map<String, Long> decisions = new TreeMap<>();
    private final Map<String, Long> outcomes = new TreeMap<>();
    private final Map<String, Double> newestPrediction = new TreeMap<>();
    private final JctPairs jcts = new JctPairs();
    private final Map<String, Double> calibrationRatios = new TreeMap<>();
    private final TreeMap<Long, TableView> tables = new TreeMap<>();
    private final Map<String, ServerTelemetry> telemetry = new TreeMap<>();
    private final Map<String, Long> reportTimes = new TreeMap<>();
    private final CatalogBytes catalog = new CatalogBytes();
    private final Set<String> drained = new TreeSet<>();
    private final Deque<EventView> events = new ArrayDeque<>();
    private final Deque<Mark> marks = new ArrayDeque<>();
    private final Map<String, Long> totals = new TreeMap<>();
    private final Map<String, Long> positions = new TreeMap<>();

    /**
     * @param bootstrap       the cluster read (shown on the page)
     * @param livenessTimeout a server whose last report is older is shown {@code silent}
     *                        (the controller's {@code cluster.liveness-timeout})
     */
    public DashboardState(String bootstrap, Duration livenessTimeout) {
        this.bootstrap = bootstrap;
        if (livenessTimeout.isNegative() || livenessTimeout.isZero()) {
            throw new IllegalArgumentException("liveness timeout (" + livenessTimeout + ") must be > 0");
        }
        this.livenessTimeout = livenessTimeout;
    }

    synchronized void decision(PlacementDecision d) {
        count("decisions");
        decisions.merge(d.model(), 1L, Long::sum);
        modelRates.add(d.model(), d.eventTime(), 1);
        Set<String> servers = new HashSet<>();
        for (StageAssignment s : d.placedStages()) {
            serverStages.add(s.server(), d.eventTime(), 1);
            servers.add(s.server());
        }
        servers.forEach(server -> serverRequests.add(server, d.eventTime(), 1));
        jcts.predicted(d.requestId(), d.predictedJctSeconds());
        newestPrediction.put(d.model(), d.predictedJctSeconds());
    }

    synchronized void table(PlacementTableRecord record) {
        TableView view = TableViews.of(record);
        count("tables");
        tables.put(record.version(), view);
        while (tables.size() > 2) {
            tables.pollFirstEntry();
        }
    }

    synchronized void event(ControllerEvent e) {
        count("events");
        events.addFirst(new EventView(e.type().name(), e.time(), e.details()));
        while (events.size() > MAX_EVENTS) {
            events.removeLast();
        }
        if (e.type() == ControllerEventType.DRIFT_DETECTED) {
            Object end = e.details().get("windowEnd");
            mark(new Mark(e.type().name(), end instanceof Number n ? n.longValue() : e.time(),
                    "drift: " + e.details().getOrDefault("cause", "")));
        } else if (e.type() == ControllerEventType.TABLE_PUBLISHED) {
            mark(new Mark(e.type().name(), e.time(), "table " + e.details().getOrDefault("tableVersion", "?")));
        } else if (e.type() == ControllerEventType.CALIBRATION) {
            e.details().forEach((k, v) -> {
                if (k.startsWith("model.") && k.endsWith(".calibrationRatio") && v instanceof Number n) {
                    calibrationRatios.put(k.substring("model.".length(), k.length() - ".calibrationRatio".length()),
                            n.doubleValue());
                }
            });
        }
    }

    synchronized void telemetry(ServerTelemetry t, long recordTimestamp) {
        count("telemetry");
        telemetry.put(t.serverId(), t);
        reportTimes.put(t.serverId(), recordTimestamp);
    }

    /** A {@code model-catalog} record (a null value: the key's model removed): which models servers hold whole. */
    synchronized void catalog(byte[] key, byte[] value) {
        count("catalog");
        catalog.accept(key, value);
    }

    synchronized void outcome(PlacementOutcome o) {
        count("outcomes");
        outcomes.merge(o.model(), 1L, Long::sum);
        if (o.status() == OutcomeStatus.OK) {
            jcts.observed(o.requestId(), o.model(), o.completedAt(), o.observedJctSeconds());
        }
    }

    /** An operator command: a drain or an undrain changes a server's state; the other kinds are not shown. */
    synchronized void command(ControllerCommand c) {
        switch (c.kind()) {
            case DRAIN_SERVER -> drained.add(c.server());
            case UNDRAIN_SERVER -> drained.remove(c.server());
            default -> { }
        }
    }

    synchronized void deadLetter() {
        count("deadLetters");
    }

    synchronized void unreadable() {
        count("unreadable");
    }

    /**
     * The reader's connection as of {@code nowMillis}: {@code connected} or not, and whether this batch brought
     * records. The connection's {@code sinceMillis} moves only when it changes.
     */
    synchronized void connection(boolean connected, boolean gotRecords, long nowMillis) {
        long since = broker.sinceMillis() == 0 || broker.connected() != connected ? nowMillis : broker.sinceMillis();
        broker = new DashboardSnapshot.Broker(connected, since, gotRecords ? nowMillis : broker.lastRecordAt());
    }

    /** Runs {@code batch} (records and their positions) so that no snapshot sees half of it. */
    synchronized void atomically(Runnable batch) {
        batch.run();
    }

    /** Records up to {@code next} (the next offset to read) of {@code topicPartition} are folded in. */
    synchronized void position(String topicPartition, long next) {
        positions.put(topicPartition, next);
    }

    private void count(String what) {
        totals.merge(what, 1L, Long::sum);
    }

    private void mark(Mark m) {
        marks.addLast(m);
        while (marks.size() > MAX_MARKS) {
            marks.removeFirst();
        }
    }

    /** Everything read so far, as of {@code nowMillis} (which decides which servers are silent). */
    public synchronized DashboardSnapshot snapshot(long nowMillis) {
        List<TableView> newestFirst = new ArrayList<>(tables.descendingMap().values());
        return new DashboardSnapshot(bootstrap, nowMillis, new TreeMap<>(positions), new TreeMap<>(totals),
                models(newestFirst.isEmpty() ? null : newestFirst.get(0)),
                new DashboardSnapshot.Chart(modelRates.seconds(), modelRates.perKey()), new ArrayList<>(marks),
                newestFirst, ServerViews.of(telemetry, reportTimes, serverStages.meanPerSecond(RATE_SECONDS),
                        serverRequests.meanPerSecond(RATE_SECONDS), nowMillis, livenessTimeout, drained,
                        catalog),
                ServerViews.drainedLine(drained), new ArrayList<>(events), jcts.windowSeconds(), broker);
    }

    private List<ModelView> models(TableView current) {
        TreeSet<String> names = new TreeSet<>(decisions.keySet());
        names.addAll(outcomes.keySet());
        Map<String, Double> rates = modelRates.meanPerSecond(RATE_SECONDS);
        Map<String, JctPairs.Window> windows = jcts.window();
        List<ModelView> out = new ArrayList<>();
        for (String m : names) {
            Double tableRate = current == null ? null : current.models().stream().filter(t -> t.name().equals(m))
                    .map(TableModel::ratePerSecond).findFirst().orElse(null);
            JctPairs.Window w = windows.getOrDefault(m, JctPairs.Window.EMPTY);
            out.add(new ModelView(m, decisions.getOrDefault(m, 0L), rates.getOrDefault(m, 0.0), tableRate,
                    outcomes.getOrDefault(m, 0L), w.requests(), w.predictedMeanSeconds(), w.observedMeanSeconds(),
                    w.observedOverPredicted(), calibrationRatios.get(m), newestPrediction.get(m)));
        }
        return out;
    }
}
