package dev.nona.controller.loop;

import dev.nona.controller.ControllerConfig.DriftSettings;
import dev.nona.controller.cluster.ClusterSnapshot;
import dev.nona.controller.cluster.ClusterTracker;
import dev.nona.controller.drift.DriftDetector;
import dev.nona.controller.drift.DriftState;
import dev.nona.controller.drift.DriftTrigger;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.optimize.SolveInput;
import dev.nona.controller.optimize.SolveResult;
import dev.nona.controller.optimize.TableGate;
import dev.nona.controller.optimize.TableSolver;
import dev.nona.controller.rates.RateEstimate;
import dev.nona.controller.serde.JsonRecordTypeInfo;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.ServerTelemetry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The controller's control loop (DESIGN.md §5): collects per-window rate estimates, the latest status of every
 * server and the model catalog; at the end of each event-time window asks the {@link DriftDetector} whether to
 * re-optimise; solves on its own {@link SolverThread} so that solving never stalls placement; and passes each
 * result through the safe hot-swap ({@link TableGate}). Published tables go to the main output (broadcast to the
 * placement operator and written to {@code placement-tables}); events go to {@link #EVENTS}.
 *
 * <p>Runs with parallelism 1, keyed by one constant key so that it has keyed state and timers. Its state:
 * latest telemetry per server, DAG per model, rates per model per open window, the drift state, the current table
 * and at most two solve inputs (running and queued); each grows with the servers or the models, and the table with
 * both. A solve running during a checkpoint is kept as its input and restarted after a restore.
 *
 * <p>The cluster view is a {@link ClusterTracker} updated per report in $O(\log N)$ (rebuilt from the telemetry
 * state once after a restore); a server not heard from within {@code cluster.liveness-timeout} (processing time,
 * checked by a timer at the next deadline, so it goes down even if no telemetry arrives at all) is down, with a
 * {@code CLUSTER_CHANGED} event naming it and why.
 */
public final class ControlLoopFunction extends KeyedProcessFunction<String, ControlInput, ControllerTable> {
    private static final long serialVersionUID = 1L;

    /** The constant key the control loop runs under. */
    public static final String KEY = "controller";
    /** Events about drift, re-optimisation and tables. */
    public static final OutputTag<ControllerEvent> EVENTS =
            new OutputTag<>("controller-events", JsonRecordTypeInfo.of(ControllerEvent.class));

    private final DriftDetector detector;
    private final DriftSettings driftSettings;
    private final double defaultLinkBitsPerSecond;
    private final long solveTimeoutMillis;
    private final long pollMillis;
    private final TableSolver solver;
    private final long livenessTimeoutMillis;

    private transient MapState<String, ServerTelemetry> servers;
    private transient MapState<String, CatalogDag> catalog;
    private transient MapState<Long, RateVector> windows;
    private transient ValueState<DriftState> drift;
    private transient ClusterTracker tracker;
    private transient long livenessTimer;
    private transient ValueState<ControllerTable> current;
    private transient ValueState<SolveInput> running;
    private transient ValueState<SolveInput> queued;
    private transient SolverThread solverThread;
    private transient Counter driftEvents;
    private transient Counter solves;
    private transient volatile double lastSolveMillis;
    private transient volatile long tableVersion;
    private transient volatile double linkLoad;

    public ControlLoopFunction(DriftSettings drift, double defaultLinkBitsPerSecond, long solveTimeoutMillis,
            long pollMillis, TableSolver solver) {
        this(drift, defaultLinkBitsPerSecond, solveTimeoutMillis, pollMillis, solver, 3_000);
    }

    /** @param livenessTimeoutMillis a server not heard from for longer is down ({@code cluster.liveness-timeout}) */
    public ControlLoopFunction(DriftSettings drift, double defaultLinkBitsPerSecond, long solveTimeoutMillis,
            long pollMillis, TableSolver solver, long livenessTimeoutMillis) {
        this.livenessTimeoutMillis = livenessTimeoutMillis;
        this.driftSettings = Objects.requireNonNull(drift, "drift settings");
        this.detector = new DriftDetector(drift);
        this.defaultLinkBitsPerSecond = defaultLinkBitsPerSecond;
        this.solveTimeoutMillis = solveTimeoutMillis;
        this.pollMillis = pollMillis;
        this.solver = Objects.requireNonNull(solver, "table solver");
    }

    @Override
    public void open(OpenContext openContext) {
        var rc = getRuntimeContext();
        servers = rc.getMapState(new MapStateDescriptor<>("servers", Types.STRING, JsonRecordTypeInfo.of(ServerTelemetry.class)));
        catalog = rc.getMapState(new MapStateDescriptor<>("catalog", Types.STRING, JsonRecordTypeInfo.of(CatalogDag.class)));
        windows = rc.getMapState(new MapStateDescriptor<>("window-rates", Types.LONG, JsonRecordTypeInfo.of(RateVector.class)));
        drift = rc.getState(new ValueStateDescriptor<>("drift", JsonRecordTypeInfo.of(DriftState.class)));
        current = rc.getState(new ValueStateDescriptor<>("current-table", JsonRecordTypeInfo.of(ControllerTable.class)));
        running = rc.getState(new ValueStateDescriptor<>("running-solve", JsonRecordTypeInfo.of(SolveInput.class)));
        queued = rc.getState(new ValueStateDescriptor<>("queued-solve", JsonRecordTypeInfo.of(SolveInput.class)));
        solverThread = new SolverThread(solver);
        var metrics = rc.getMetricGroup();
        driftEvents = metrics.counter("driftEvents");
        solves = metrics.counter("solves");
        metrics.gauge("solveMillis", () -> lastSolveMillis);
        metrics.gauge("tableVersion", () -> tableVersion);
        metrics.gauge("linkLoad", () -> linkLoad);
    }

    @Override
    public void close() throws Exception {
        if (solverThread != null) {
            solverThread.close();
        }
    }

    @Override
    public void processElement(ControlInput in, Context ctx, Collector<ControllerTable> out) throws Exception {
        if (in.rate() != null) {
            onRate(in.rate(), ctx);
        } else if (in.server() != null) {
            onServer(in.server(), ctx);
        } else if (in.catalog() != null) {
            onCatalog(in.catalog(), ctx);
        } else {
            onRemoved(in.removedModel(), ctx);
        }
    }

    private void onRate(RateEstimate rate, Context ctx) throws Exception {
        RateVector vector = windows.get(rate.windowEnd());
        windows.put(rate.windowEnd(), (vector == null ? new RateVector(Map.of()) : vector)
                .with(rate.model(), rate.ratePerSecond()));
        long last = rate.windowEnd() - 1;
        if (last <= ctx.timerService().currentWatermark()) {
            // Late: the watermark passed this window while the request path was idle (another input led it).
            // An event-time timer would wait for the next advance; close it shortly in processing time instead.
            ctx.timerService().registerProcessingTimeTimer(ctx.timerService().currentProcessingTime() + pollMillis);
        } else {
            ctx.timerService().registerEventTimeTimer(last);
        }
    }

    private void onServer(ServerTelemetry status, Context ctx) throws Exception {
        ServerTelemetry before = servers.get(status.serverId());
        if (before != null && before.eventTime() > status.eventTime()) {
            return; // an older status than the one we hold: keep the newest (deterministic whatever the order)
        }
        servers.put(status.serverId(), status);
        ClusterTracker.Change change = tracker(ctx).report(status, ctx.timerService().currentProcessingTime());
        if (change != null) {
            onClusterChange(change, ctx);
        }
        scheduleLiveness(ctx);
    }

    /** The cluster view, built from the telemetry state on first use (after a start or a restore: all heard now). */
    private ClusterTracker tracker(Context ctx) throws Exception {
        if (tracker == null) {
            tracker = new ClusterTracker(defaultLinkBitsPerSecond, driftSettings.threshold(), livenessTimeoutMillis);
            long now = ctx.timerService().currentProcessingTime();
            for (ServerTelemetry s : servers.values()) {
                tracker.report(s, now);
            }
            livenessTimer = 0;
            scheduleLiveness(ctx);
        }
        return tracker;
    }

    /** A processing-time timer at the next liveness deadline, unless one is set for it or earlier. */
    private void scheduleLiveness(Context ctx) {
        long deadline = tracker.nextDeadline();
        if (deadline != Long.MAX_VALUE && (livenessTimer == 0 || deadline < livenessTimer
                || livenessTimer <= ctx.timerService().currentProcessingTime())) {
            livenessTimer = deadline;
            ctx.timerService().registerProcessingTimeTimer(deadline);
        }
    }

    private void checkLiveness(OnTimerContext ctx) throws Exception {
        for (ClusterTracker.Change change : tracker(ctx).expire(ctx.timerService().currentProcessingTime())) {
            onClusterChange(change, ctx);
        }
        if (livenessTimer <= ctx.timerService().currentProcessingTime()) {
            livenessTimer = 0;
        }
        scheduleLiveness(ctx);
    }

    private void onClusterChange(ClusterTracker.Change change, Context ctx) throws Exception {
        markPending(change.description());
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("change", change.description());
        details.put("servers", tracker.liveCount());
        details.put("linkBitsPerSecond", tracker.linkBitsPerSecond());
        if (change.server() != null) {
            details.put("server", change.server());
            details.put("reason", change.reason());
        }
        emit(ctx, ControllerEventType.CLUSTER_CHANGED, details);
    }

    private void onCatalog(ModelCatalogEntry entry, Context ctx) throws Exception {
        CatalogDag before = catalog.get(entry.model());
        if (entry.dag().equals(before)) {
            return;
        }
        catalog.put(entry.model(), entry.dag());
        String change = (before == null ? "catalog: model added " : "catalog: model replaced ") + entry.model();
        markPending(change);
        emit(ctx, ControllerEventType.CATALOG_UPDATED, Map.of("change", change, "model", entry.model(),
                "tasks", entry.dag().tasks().size()));
    }

    private void onRemoved(String model, Context ctx) throws Exception {
        if (!catalog.contains(model)) {
            return;
        }
        catalog.remove(model);
        markPending("catalog: model removed " + model);
        emit(ctx, ControllerEventType.CATALOG_UPDATED, Map.of("change", "catalog: model removed " + model, "model", model));
    }

    private void markPending(String cause) throws Exception {
        DriftState state = driftState();
        drift.update(state.withPendingCause(Causes.append(state.pendingCause(), cause)));
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<ControllerTable> out) throws Exception {
        if (ctx.timeDomain() == org.apache.flink.streaming.api.TimeDomain.PROCESSING_TIME) {
            checkLiveness(ctx);
            closeLateWindows(ctx);
            pollSolver(ctx, out);
        } else {
            closeWindow(timestamp + 1, ctx);
        }
    }

    /** Closes, oldest first, the windows the watermark has already passed (see {@link #onRate}). */
    private void closeLateWindows(OnTimerContext ctx) throws Exception {
        long watermark = ctx.timerService().currentWatermark();
        List<Long> due = new ArrayList<>();
        for (Long end : windows.keys()) {
            if (end - 1 <= watermark) {
                due.add(end);
            }
        }
        due.sort(null);
        for (long end : due) {
            closeWindow(end, ctx);
        }
    }

    private void closeWindow(long windowEnd, OnTimerContext ctx) throws Exception {
        RateVector vector = windows.get(windowEnd);
        if (vector == null) {
            return; // already closed (a late window closed in processing time, then its event-time timer fired)
        }
        windows.remove(windowEnd);
        Map<String, Double> rates = vector.rates();
        DriftDetector.Evaluation eval = detector.evaluate(driftState(), windowEnd, rates);
        drift.update(eval.next());
        if (eval.trigger().isPresent()) {
            DriftTrigger trigger = eval.trigger().get();
            driftEvents.inc();
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("cause", trigger.cause());
            details.put("windowEnd", windowEnd);
            trigger.relativeChange().forEach((m, c) -> details.put("relativeChange." + m, c));
            emit(ctx, ControllerEventType.DRIFT_DETECTED, details);
            requestSolve(trigger.cause(), rates, ctx);
        } else if (current.value() == null && running.value() == null) {
            requestSolve("initial", rates, ctx);
        }
    }

    private void requestSolve(String cause, Map<String, Double> rates, Context ctx) throws Exception {
        ClusterSnapshot snapshot = tracker(ctx).usable() ? tracker.snapshot() : null;
        Map<String, CatalogDag> dags = new TreeMap<>();
        for (Map.Entry<String, CatalogDag> e : catalog.entries()) {
            dags.put(e.getKey(), e.getValue());
        }
        if (snapshot == null || !snapshot.usable() || dags.isEmpty()) {
            return; // nothing to solve for yet; the pending cause stays with the next trigger
        }
        Map<String, Double> solveRates = new TreeMap<>();
        dags.keySet().forEach(m -> solveRates.put(m, rates.getOrDefault(m, 0.0)));
        SolveInput input = new SolveInput(dags, solveRates, snapshot, cause);
        if (running.value() != null) {
            queued.update(input); // the newest trigger wins; it starts when the running solve finishes
            return;
        }
        start(input, ctx);
    }

    private void start(SolveInput input, Context ctx) throws Exception {
        running.update(input);
        long now = ctx.timerService().currentProcessingTime();
        solverThread.submit(input, current.value(), now);
        solves.inc();
        emit(ctx, ControllerEventType.REOPTIMIZATION_STARTED, Map.of("cause", input.cause(),
                "models", input.dags().size(), "servers", input.cluster().upServers().size()));
        ctx.timerService().registerProcessingTimeTimer(now + pollMillis);
    }

    private void pollSolver(OnTimerContext ctx, Collector<ControllerTable> out) throws Exception {
        SolveInput input = running.value();
        if (input == null) {
            return;
        }
        long now = ctx.timerService().currentProcessingTime();
        if (!solverThread.busy()) {
            // Restored from a checkpoint taken while solving: the result was lost with the old task; solve again.
            solverThread.submit(input, current.value(), now);
            ctx.timerService().registerProcessingTimeTimer(now + pollMillis);
            return;
        }
        SolveResult result = solverThread.poll();
        if (result == null && solverThread.abandonIfOlderThan(now, solveTimeoutMillis)) {
            result = SolveResult.failed("solve timed out after " + solveTimeoutMillis + " ms", solveTimeoutMillis);
        }
        if (result == null) {
            ctx.timerService().registerProcessingTimeTimer(now + pollMillis);
            return;
        }
        finish(input, result, ctx, out);
    }

    private void finish(SolveInput input, SolveResult result, OnTimerContext ctx, Collector<ControllerTable> out)
            throws Exception {
        running.clear();
        lastSolveMillis = result.solveMillis();
        long now = ctx.timerService().currentProcessingTime();
        TableGate.Verdict verdict = TableGate.decide(current.value(), input, result, now);
        verdict.events().forEach(e -> ctx.output(EVENTS, e));
        if (verdict.publish() != null) {
            current.update(verdict.publish());
            tableVersion = verdict.publish().version();
            linkLoad = verdict.publish().linkLoad();
            out.collect(verdict.publish());
        }
        SolveInput next = queued.value();
        if (next != null) {
            queued.clear();
            start(next, ctx);
        }
    }

    private DriftState driftState() throws Exception {
        DriftState state = drift.value();
        return state == null ? DriftState.initial() : state;
    }

    private static void emit(Context ctx, ControllerEventType type, Map<String, ?> details) {
        ctx.output(EVENTS, ControllerEvent.of(type, ctx.timerService().currentProcessingTime(), details));
    }
}
