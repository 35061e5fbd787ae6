package dev.nona.controller.loop;

import dev.nona.calibration.JctTally;
import dev.nona.calibration.RollbackRule;
import dev.nona.controller.cluster.ClusterSnapshot;
import dev.nona.controller.cluster.ClusterTracker;
import dev.nona.controller.drift.DriftDetector;
import dev.nona.controller.drift.DriftState;
import dev.nona.controller.drift.DriftTrigger;
import dev.nona.controller.metrics.ControllerMetric;
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
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.TimeDomain;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's control loop (DESIGN.md §5): collects per-window rate estimates, the latest status of every
 * server and the model catalog; at the end of each event-time window asks the {@link DriftDetector} whether to
 * re-optimise; solves on its own {@link SolverThread} so that solving never stalls placement; and passes each
 * result through the safe hot-swap ({@link TableGate}). Published tables go to the main output (broadcast to the
 * placement operator and written to {@code placement-tables}); events go to {@link #EVENTS}.
 *
 * <p>It cannot stall: a trigger waits in the {@link SolveBacklog} until a solve for it finishes with a verdict
 * (published or rejected); a solve that fails or runs past {@code solve.timeout} is cancelled, reported
 * ({@code SOLVE_FAILED}, {@code SOLVE_TIMED_OUT}) and retried with exponential backoff; a trigger that cannot be
 * solved yet (no usable server, empty catalog) waits for the next window. Results re-enter through processing-time
 * timers on the task thread; the solver thread touches no operator state and ends with {@link #close()}.
 *
 * <p>Runs with parallelism 1, keyed by one constant key so that it has keyed state and timers. Its state: latest
 * telemetry per server, DAG per model, rates per model per open window, the drift state (a few numbers per model),
 * the current table, the backlog and the running solve's input; each grows with the servers or the models, and the
 * table with both. A solve running during a checkpoint is kept as its input and restarted after a restore.
 *
 * <p>The cluster view is a {@link ClusterTracker} updated per report in $O(\log N)$ (rebuilt from the telemetry
 * state once after a restore); a server not heard from within {@code cluster.liveness-timeout} (processing time,
 * checked by a timer at the next deadline, so it goes down even if no telemetry arrives at all) is down, with a
 * {@code CLUSTER_CHANGED} event naming it and why.
 */
public final class ControlLoopFunction extends KeyedProcessFunction<String, ControlInput, ControllerTable> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(ControlLoopFunction.class);

    /** The constant key the control loop runs under. */
    public static final String KEY = "controller";
    /** Events about drift, re-optimisation and tables. */
    public static final OutputTag<ControllerEvent> EVENTS =
            new OutputTag<>("controller-events", JsonRecordTypeInfo.of(ControllerEvent.class));

    /** Operator commands that cannot be applied (a rollback to a table version not kept). */
    public static final OutputTag<dev.nona.topics.record.DeadLetter> COMMAND_DEAD_LETTERS =
            new OutputTag<>("control-command-dead-letters", JsonRecordTypeInfo.of(dev.nona.topics.record.DeadLetter.class));

    private final ControlLoopSettings settings;
    private final DriftDetector detector;
    private final TableSolver solver;

    private transient MapState<String, ServerTelemetry> servers;
    private transient MapState<String, Double> learnedSpeeds;
    private transient ValueState<ControllerTable> previous;
    private transient MapState<Long, JctTally> versionJct;
    private transient ValueState<RolledBack> rolledBack;
    private transient Counter rollbacks;
    private transient MapState<String, CatalogDag> catalog;
    private transient MapState<Long, RateVector> windows;
    private transient ValueState<DriftState> drift;
    private transient volatile ClusterTracker tracker; // volatile: the metric reporter reads its counts
    private transient long livenessTimer;
    private transient ValueState<ControllerTable> current;
    private transient ValueState<SolveBacklog> backlog;
    private transient ValueState<RunningSolve> running;
    private transient SolverThread solverThread;
    private transient Counter driftEvents;
    private transient Counter solves;
    private transient Counter failedSolves;
    private transient volatile double lastSolveMillis;
    private transient volatile long tableVersion;
    private transient volatile double linkLoad;
    private transient OperatorControl operator;

    public ControlLoopFunction(ControlLoopSettings settings, TableSolver solver) {
        this.settings = Objects.requireNonNull(settings, "control loop settings");
        this.detector = new DriftDetector(settings.drift(), settings.rateWindow());
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
        backlog = rc.getState(new ValueStateDescriptor<>("solve-backlog", JsonRecordTypeInfo.of(SolveBacklog.class)));
        running = rc.getState(new ValueStateDescriptor<>("running-solve-v2", JsonRecordTypeInfo.of(RunningSolve.class)));
        learnedSpeeds = rc.getMapState(new MapStateDescriptor<>("learned-speeds", Types.STRING, Types.DOUBLE));
        previous = rc.getState(new ValueStateDescriptor<>("previous-table", JsonRecordTypeInfo.of(ControllerTable.class)));
        versionJct = rc.getMapState(new MapStateDescriptor<>("table-outcomes", Types.LONG, JsonRecordTypeInfo.of(JctTally.class)));
        rolledBack = rc.getState(new ValueStateDescriptor<>("rolled-back", JsonRecordTypeInfo.of(RolledBack.class)));
        operator = new OperatorControl(rc);
        solverThread = new SolverThread(solver);
        var metrics = rc.getMetricGroup();
        driftEvents = metrics.counter(ControllerMetric.DRIFT_EVENTS.metricName());
        solves = metrics.counter(ControllerMetric.SOLVES.metricName());
        failedSolves = metrics.counter(ControllerMetric.FAILED_SOLVES.metricName());
        rollbacks = metrics.counter(ControllerMetric.ROLLBACKS.metricName());
        metrics.gauge(ControllerMetric.SOLVE_MILLIS.metricName(), () -> lastSolveMillis);
        metrics.gauge(ControllerMetric.TABLE_VERSION.metricName(), () -> tableVersion);
        metrics.gauge(ControllerMetric.LINK_LOAD.metricName(), () -> linkLoad);
        metrics.gauge(ControllerMetric.SERVERS_UP.metricName(), () -> tracker == null ? 0 : tracker.liveCount());
        metrics.gauge(ControllerMetric.SERVERS_SILENT.metricName(), () -> tracker == null ? 0 : tracker.silentCount());
        metrics.gauge(ControllerMetric.SERVERS_DRAINED.metricName(), () -> tracker == null ? 0 : tracker.drainedCount());
    }

    @Override
    public void close() throws Exception {
        if (solverThread != null) {
            solverThread.close();
        }
    }

    /** The solver thread's name, for tests that check it ends with the operator. */
    String solverThreadName() {
        return solverThread.name();
    }

    @Override
    public void processElement(ControlInput in, Context ctx, Collector<ControllerTable> out) throws Exception {
        if (in.rate() != null) {
            onRate(in.rate(), ctx);
        } else if (in.server() != null) {
            onServer(in.server(), ctx);
        } else if (in.catalog() != null) {
            onCatalog(in.catalog(), ctx);
        } else if (in.learned() != null) {
            onLearned(in.learned(), ctx, out);
        } else if (in.commands() != null) {
            onCommands(in.commands(), ctx);
        } else if (in.rollback() != null) {
            onRollback(in.rollback(), ctx, out);
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
            ctx.timerService().registerProcessingTimeTimer(ctx.timerService().currentProcessingTime() + pollMillis());
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
        ClusterTracker.Change change = tracker(ctx).report(calibrated(status), ctx.timerService().currentProcessingTime());
        if (change != null) {
            onClusterChange(change, ctx);
        }
        scheduleLiveness(ctx);
    }

    /** The cluster view, built from the telemetry state on first use (after a start or a restore: all heard now). */
    private ClusterTracker tracker(Context ctx) throws Exception {
        if (tracker == null) {
            tracker = new ClusterTracker(settings.defaultLinkBitsPerSecond(), settings.drift().threshold(),
                    settings.livenessTimeout().toMillis());
            long now = ctx.timerService().currentProcessingTime();
            tracker.setDrained(operator.commands().drained()); // applied before the restore: no change to report
            for (ServerTelemetry s : servers.values()) {
                tracker.report(calibrated(s), now);
            }
            livenessTimer = 0;
            scheduleLiveness(ctx);
        }
        return tracker;
    }

    /**
     * The operator's commands in force: drained servers leave the cluster view (a {@code CLUSTER_CHANGED} each,
     * so the next window end re-optimises without them); an unfreeze starts a solve for what was recorded while
     * frozen.
     */
    private void onCommands(dev.nona.controller.command.ActiveCommands next, Context ctx) throws Exception {
        boolean wasFrozen = operator.frozen();
        if (!operator.update(next)) {
            return;
        }
        for (ClusterTracker.Change change : tracker(ctx).setDrained(next.drained())) {
            onClusterChange(change, ctx);
        }
        if (wasFrozen && !next.frozen()) {
            LOG.info("Re-optimisation unfrozen");
            startIfDue(ctx);
        }
    }

    /** An operator's rollback: the kept table of the asked version, published again as a new version. */
    private void onRollback(dev.nona.controller.command.CommandRecord record, Context ctx, Collector<ControllerTable> out)
            throws Exception {
        long now = ctx.timerService().currentProcessingTime();
        ControllerTable cur = current.value();
        OperatorControl.Rollback r = operator.rollback(record, cur, now);
        if (r.rejected() != null) {
            LOG.warn("Rollback rejected: {}", r.rejected().reason());
            ctx.output(COMMAND_DEAD_LETTERS, r.rejected());
            return;
        }
        if (r.publish() == null) {
            return;
        }
        previous.clear(); // the automatic rule judges the next table against this one, not against older ones
        versionJct.clear();
        current.update(r.publish());
        operator.keep(r.publish());
        tableVersion = r.publish().version();
        linkLoad = r.publish().linkLoad();
        out.collect(r.publish());
        LOG.warn("Operator rollback: {} (now v{})", r.publish().cause(), r.publish().version());
        r.events().forEach(e -> ctx.output(EVENTS, e));
    }

    /** The status with the speed the server's outcomes showed in place of the reported one (a 0 stays 0). */
    private ServerTelemetry calibrated(ServerTelemetry status) throws Exception {
        Double learned = learnedSpeeds.get(status.serverId());
        return learned == null || status.opsPerSecond() == 0 ? status : status.withOpsPerSecond(learned);
    }

    /**
     * What a calibration window learned: each table's outcomes (for the rollback rule) and the servers' effective
     * speeds, which replace the reported ones in the cluster view the next solve sees. A speed that moved by more
     * than {@code drift.threshold} from the one in use is a cluster change: a re-optimisation at the next window end.
     */
    private void onLearned(Learned learned, Context ctx, Collector<ControllerTable> out) throws Exception {
        ControllerTable cur = current.value();
        ControllerTable prev = previous.value();
        for (Map.Entry<Long, JctTally> e : learned.versions().entrySet()) {
            long v = e.getKey();
            if ((cur != null && v == cur.version()) || (prev != null && v == prev.version())) {
                JctTally before = versionJct.get(v);
                versionJct.put(v, before == null ? e.getValue() : before.plus(e.getValue()));
            }
        }
        if (cur != null && prev != null) {
            judge(cur, prev, ctx, out);
        }
        List<String> moved = new ArrayList<>();
        for (Map.Entry<String, Double> e : learned.opsPerSecond().entrySet()) {
            String id = e.getKey();
            double ops = e.getValue();
            ServerTelemetry reported = servers.get(id);
            if (reported == null || reported.opsPerSecond() == 0 || !(ops > 0) || Double.isInfinite(ops)) {
                continue;
            }
            Double before = learnedSpeeds.get(id);
            double inUse = before != null ? before : reported.opsPerSecond();
            learnedSpeeds.put(id, ops);
            if (Math.abs(ops / inUse - 1) > settings.drift().threshold()) {
                moved.add(String.format(Locale.ROOT, "server %s runs at %.4g ops/s (reports %.4g)", id, ops,
                        reported.opsPerSecond()));
            }
            ClusterTracker.Change change = tracker(ctx).recalibrate(id, ops);
            if (change != null) {
                onClusterChange(change, ctx);
            }
        }
        if (!moved.isEmpty()) {
            String cause = "calibration: " + String.join(", ", moved.subList(0, Math.min(3, moved.size())))
                    + (moved.size() > 3 ? " and " + (moved.size() - 3) + " more" : "");
            LOG.info("Learned from outcomes: {}", cause);
            markPending(cause);
            rolledBack.clear(); // the cost model's inputs changed: a table rolled back before may be judged anew
        }
    }

    /**
     * The gate on measurement ({@link RollbackRule}): the current table against the one it replaced, once both have
     * enough outcomes. A table observed worse is replaced by the previous table again, published as a new version
     * ({@code TABLE_ROLLED_BACK} with both figures), and is not published again until the inputs change.
     */
    private void judge(ControllerTable cur, ControllerTable prev, Context ctx, Collector<ControllerTable> out)
            throws Exception {
        JctTally now = versionJct.get(cur.version());
        JctTally before = versionJct.get(prev.version());
        if (now == null || before == null) {
            return;
        }
        var verdict = settings.rollback().judge(now, before, cur.replacedPredictedMeanJctSeconds());
        if (verdict.isEmpty()) {
            return;
        }
        RollbackRule.Rollback r = verdict.get();
        long at = ctx.timerService().currentProcessingTime();
        long version = cur.version() + 1;
        String cause = String.format(Locale.ROOT, "rollback: table v%d observed %.4g s mean JCT, v%d would give %.4g s",
                cur.version(), r.observedMeanJctSeconds(), prev.version(), r.previousExpectedMeanJctSeconds());
        ControllerTable restored = prev.republished(version, at, cause);
        RolledBack list = rolledBack.value();
        rolledBack.update((list == null ? RolledBack.NONE : list).with(cur.tableJson()));
        current.update(restored);
        previous.clear();
        versionJct.clear();
        tableVersion = version;
        linkLoad = restored.linkLoad();
        rollbacks.inc();
        out.collect(restored);
        operator.keep(restored);
        LOG.warn("Rolled back table v{} to the table of v{} (now v{}): {}", cur.version(), prev.version(), version, cause);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("cause", cause);
        details.put("fromVersion", cur.version());
        details.put("restoredVersion", prev.version());
        details.put("tableVersion", version);
        details.put("observedMeanJctSeconds", r.observedMeanJctSeconds());
        details.put("previousExpectedMeanJctSeconds", r.previousExpectedMeanJctSeconds());
        details.put("previousObservedMeanJctSeconds", r.previousObservedMeanJctSeconds());
        if (Double.isFinite(r.previousCalibrationRatio())) {
            details.put("previousCalibrationRatio", r.previousCalibrationRatio());
        }
        details.put("samples", now.samples());
        details.put("previousSamples", before.samples());
        details.put("margin", settings.rollback().margin());
        emit(ctx, ControllerEventType.TABLE_ROLLED_BACK, details);
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
        LOG.info("Cluster changed: {} ({} servers live)", change.description(), tracker.liveCount());
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
        LOG.info("Catalog changed: {} ({} tasks)", change, entry.dag().tasks().size());
        emit(ctx, ControllerEventType.CATALOG_UPDATED, Map.of("change", change, "model", entry.model(),
                "tasks", entry.dag().tasks().size()));
    }

    private void onRemoved(String model, Context ctx) throws Exception {
        if (!catalog.contains(model)) {
            return;
        }
        catalog.remove(model);
        String change = "catalog: model removed " + model;
        markPending(change);
        LOG.info("Catalog changed: {}", change);
        emit(ctx, ControllerEventType.CATALOG_UPDATED, Map.of("change", change, "model", model));
    }

    /** Records a cluster or catalog change; the detector turns it into a trigger at the next window end. */
    private void markPending(String cause) throws Exception {
        DriftState state = driftState();
        drift.update(state.withPendingCause(Causes.append(state.pendingCause(), cause)));
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<ControllerTable> out) throws Exception {
        if (ctx.timeDomain() == TimeDomain.PROCESSING_TIME) {
            checkLiveness(ctx);
            closeLateWindows(ctx);
            pollSolver(ctx, out);
            startIfDue(ctx);
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

    private void closeWindow(long windowEnd, Context ctx) throws Exception {
        RateVector vector = windows.get(windowEnd);
        if (vector == null) {
            return; // already closed (a late window closed in processing time, then its event-time timer fired)
        }
        windows.remove(windowEnd);
        Set<String> models = catalogModels();
        Map<String, Double> rates = new TreeMap<>(vector.rates());
        rates.keySet().retainAll(models); // only catalogued models count (others are dead-lettered anyway)
        DriftDetector.Evaluation eval = detector.evaluate(driftState(), windowEnd, rates, models);
        drift.update(eval.next());
        if (eval.trigger().isPresent()) {
            DriftTrigger trigger = eval.trigger().get();
            driftEvents.inc();
            LOG.info("Re-optimisation triggered at window end {}: {} (relative change {})", windowEnd, trigger.cause(),
                    trigger.relativeChange());
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("cause", trigger.cause());
            details.put("windowEnd", windowEnd);
            trigger.relativeChange().forEach((m, c) -> details.put("relativeChange." + m, c));
            emit(ctx, ControllerEventType.DRIFT_DETECTED, details);
            addToBacklog(trigger.cause(), trigger.rates());
            if (operator.frozen()) {
                emit(ctx, ControllerEventType.DRIFT_FROZEN, Map.of("cause", trigger.cause(), "windowEnd", windowEnd,
                        "detail", "re-optimisation is frozen by an operator: recorded, solved after UNFREEZE"));
            }
        } else if (current.value() == null && backlog.value() == null && running.value() == null && !models.isEmpty()) {
            drift.update(detector.rebased(rates, windowEnd)); // drift is measured from the rates the table is for
            addToBacklog("initial", rates);
            if (operator.frozen()) {
                emit(ctx, ControllerEventType.DRIFT_FROZEN, Map.of("cause", "initial", "windowEnd", windowEnd,
                        "detail", "re-optimisation is frozen by an operator: the first table is solved after UNFREEZE"));
            }
        }
        startIfDue(ctx);
    }

    private void addToBacklog(String cause, Map<String, Double> rates) throws Exception {
        SolveBacklog before = backlog.value();
        backlog.update(before == null ? SolveBacklog.of(cause, rates) : before.merge(cause, rates));
    }

    /** Starts a solve for the backlog unless one is running, its retry is not due, or there is nothing to solve. */
    private void startIfDue(Context ctx) throws Exception {
        SolveBacklog pending = backlog.value();
        if (pending == null || running.value() != null || operator.frozen()) {
            return; // frozen: the backlog keeps the trigger until UNFREEZE
        }
        long now = ctx.timerService().currentProcessingTime();
        if (pending.retryAt() > now) {
            ctx.timerService().registerProcessingTimeTimer(pending.retryAt());
            return;
        }
        SolveInput input = solveInput(pending, ctx);
        if (input == null) {
            LOG.debug("Trigger '{}' waits: no usable cluster or an empty catalog", pending.cause());
            return; // the backlog stays; the next window end tries again
        }
        running.update(new RunningSolve(input, pending.generation(), now));
        solverThread.submit(input, current.value(), settings.solveTimeout().toMillis());
        solves.inc();
        LOG.info("Solve started (attempt {}): {} for {} models on {} servers", pending.attempts() + 1, input.cause(),
                input.dags().size(), input.cluster().upServers().size());
        emit(ctx, ControllerEventType.REOPTIMIZATION_STARTED, Map.of("cause", input.cause(),
                "models", input.dags().size(), "servers", input.cluster().upServers().size()));
        ctx.timerService().registerProcessingTimeTimer(now + pollMillis());
    }

    /** What to solve for the backlog: the catalog, the cluster and the backlog's rates; null if not solvable yet. */
    private SolveInput solveInput(SolveBacklog pending, Context ctx) throws Exception {
        ClusterSnapshot snapshot = tracker(ctx).usable() ? tracker.snapshot() : null;
        Map<String, CatalogDag> dags = new TreeMap<>();
        for (Map.Entry<String, CatalogDag> e : catalog.entries()) {
            dags.put(e.getKey(), e.getValue());
        }
        if (snapshot == null || !snapshot.usable() || dags.isEmpty()) {
            return null;
        }
        Map<String, Double> rates = new TreeMap<>();
        dags.keySet().forEach(m -> rates.put(m, pending.rates().getOrDefault(m, 0.0)));
        return new SolveInput(dags, rates, snapshot, pending.cause());
    }

    private void pollSolver(OnTimerContext ctx, Collector<ControllerTable> out) throws Exception {
        RunningSolve solve = running.value();
        if (solve == null) {
            return;
        }
        long now = ctx.timerService().currentProcessingTime();
        long timeout = settings.solveTimeout().toMillis();
        if (!solverThread.busy()) {
            // Restored from a checkpoint taken while solving: the result was lost with the old task; solve again.
            running.update(new RunningSolve(solve.input(), solve.generation(), now));
            solverThread.submit(solve.input(), current.value(), timeout);
            ctx.timerService().registerProcessingTimeTimer(now + pollMillis());
            return;
        }
        SolverThread.Finished finished = solverThread.poll();
        if (finished == null && now - solve.startedAt() >= timeout) {
            solverThread.cancel();
            finished = new SolverThread.Finished(SolveResult.failed("solve timed out after " + timeout + " ms",
                    now - solve.startedAt()), true);
        }
        if (finished == null) {
            ctx.timerService().registerProcessingTimeTimer(Math.min(now + pollMillis(), solve.startedAt() + timeout));
            return;
        }
        running.clear();
        lastSolveMillis = finished.result().solveMillis();
        if (finished.result().error() != null) {
            retryLater(solve, finished, ctx);
        } else {
            decide(solve, finished.result(), ctx, out);
        }
    }

    /** A solve with a verdict: publish or reject, and consume the trigger it answered. */
    private void decide(RunningSolve solve, SolveResult result, OnTimerContext ctx, Collector<ControllerTable> out)
            throws Exception {
        long now = ctx.timerService().currentProcessingTime();
        TableGate.Verdict verdict = TableGate.decide(current.value(), solve.input(), result, now,
                settings.drift().threshold());
        RolledBack bad = rolledBack.value();
        if (verdict.publish() != null && bad != null && bad.contains(verdict.publish().tableJson())) {
            verdict = TableGate.refuse(verdict, now, "this table was rolled back after it was observed to do worse "
                    + "than the one it replaced; it is not published again until what the controller learned changes");
        }
        verdict.events().forEach(e -> ctx.output(EVENTS, e));
        LoopLog.verdict(solve.input(), result, verdict);
        if (verdict.publish() != null) {
            ControllerTable replaced = current.value();
            if (replaced != null && !replaced.fallback() && !verdict.publish().fallback()) {
                previous.update(replaced);
                JctTally kept = versionJct.get(replaced.version());
                versionJct.clear();
                if (kept != null) {
                    versionJct.put(replaced.version(), kept);
                }
            } else {
                previous.clear();
                versionJct.clear();
            }
            current.update(verdict.publish());
            tableVersion = verdict.publish().version();
            linkLoad = verdict.publish().linkLoad();
            out.collect(verdict.publish());
            operator.keep(verdict.publish());
        }
        SolveBacklog pending = backlog.value();
        if (pending != null && pending.generation() == solve.generation()) {
            backlog.clear();
        } else if (pending != null) {
            backlog.update(pending.answered(solve.input().cause())); // a newer trigger arrived while solving: next
        }
    }

    /** A failed or timed-out solve: the trigger stays, reported, and is retried after a backoff. */
    private void retryLater(RunningSolve solve, SolverThread.Finished finished, OnTimerContext ctx) throws Exception {
        long now = ctx.timerService().currentProcessingTime();
        failedSolves.inc();
        TableGate.decide(current.value(), solve.input(), finished.result(), now).events()
                .forEach(e -> ctx.output(EVENTS, e)); // REOPTIMIZATION_FINISHED with the error, as before
        SolveBacklog pending = backlog.value();
        if (pending == null) {
            throw new IllegalStateException("BUG: a solve finished with no trigger in the backlog");
        }
        long delay = settings.retry().delayMillis(pending.attempts() + 1);
        SolveBacklog next = pending.failed(now, delay);
        backlog.update(next);
        ControllerEventType type = finished.timedOut() ? ControllerEventType.SOLVE_TIMED_OUT : ControllerEventType.SOLVE_FAILED;
        LOG.warn("Solve {} (attempt {}): {}; cause: {}; retrying in {} ms", finished.timedOut() ? "timed out" : "failed",
                next.attempts(), finished.result().error(), solve.input().cause(), delay);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("cause", solve.input().cause());
        details.put("error", finished.result().error());
        details.put("attempt", next.attempts());
        details.put("retryInMillis", delay);
        details.put("solveMillis", finished.result().solveMillis());
        emit(ctx, type, details);
        ctx.timerService().registerProcessingTimeTimer(next.retryAt());
    }

    private Set<String> catalogModels() throws Exception {
        Set<String> models = new TreeSet<>();
        catalog.keys().forEach(models::add);
        return models;
    }

    private DriftState driftState() throws Exception {
        DriftState state = drift.value();
        return state == null ? DriftState.initial() : state;
    }

    private long pollMillis() {
        return settings.solvePoll().toMillis();
    }

    private static void emit(Context ctx, ControllerEventType type, Map<String, ?> details) {
        ctx.output(EVENTS, ControllerEvent.of(type, ctx.timerService().currentProcessingTime(), details));
    }
}
