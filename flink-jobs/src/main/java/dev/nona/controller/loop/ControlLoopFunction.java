package dev.nona.controller.loop;

import dev.nona.calibration.JctTally;
import dev.nona.controller.command.ActiveCommands;
import dev.nona.controller.drift.DriftDetector;
import dev.nona.controller.drift.DriftState;
import dev.nona.controller.metrics.ControllerMetric;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.optimize.TableGate;
import dev.nona.controller.optimize.TableSolver;
import dev.nona.controller.serde.ControlJson;
import dev.nona.controller.serde.JsonRecordTypeInfo;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.ServerTelemetry;
import java.util.Objects;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.TimeDomain;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's control loop (docs/design.md, "The control loop"): collects per-window rate estimates, the latest
 * status of every server and the model catalog; at the end of each event-time window asks the {@link DriftDetector}
 * whether to re-optimise; solves on its own {@link SolverThread} so that solving never stalls placement; and passes
 * each result through the safe hot-swap ({@link TableGate}). Published tables go to the main output (broadcast to
 * the placement operator and written to {@code placement-tables}); events go to {@link #EVENTS}.
 *
 * <p>This class binds the keyed state, the metrics and Flink's context, and dispatches each input and timer to the
 * part that decides:
 * <ul>
 *   <li>{@link RateWindows}: the open windows' rates and the drift state; a closed window's trigger;</li>
 *   <li>{@link ModelCatalog}: the DAG per model;</li>
 *   <li>{@link ClusterWatch}: telemetry, learned speeds and liveness timers (a server not heard from within
 *       {@code cluster.liveness-timeout} is down, even if no telemetry arrives at all);</li>
 *   <li>{@link CalibrationIntake}: what a calibration window learned from outcomes;</li>
 *   <li>{@link TableHistory}: the current and previous tables, the rollback rule, every publication;</li>
 *   <li>{@link SolveScheduler}: the backlog of triggers, the running solve, timeouts and retries with backoff;</li>
 *   <li>{@link OperatorControl}: the operator's commands in force, the kept tables and operator rollbacks.</li>
 * </ul>
 * It cannot stall: a trigger waits until a solve for it finishes with a verdict; a solve that fails or times out is
 * retried with backoff. Results re-enter through processing-time timers on the task thread; the solver thread
 * touches no operator state and ends with {@link #close()}.
 *
 * <p>Runs with parallelism 1, keyed by one constant key so that it has keyed state and timers. Its state grows with
 * the servers or the models, and the table with both. A solve running during a checkpoint is kept as its input and
 * restarted after a restore.
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
    public static final OutputTag<DeadLetter> COMMAND_DEAD_LETTERS =
            new OutputTag<>("control-command-dead-letters", JsonRecordTypeInfo.of(DeadLetter.class));

    private final ControlLoopSettings settings;
    private final DriftDetector detector;
    private final TableSolver solver;
    /** The commands in force at start, as JSON: Flink's closure cleaner does not reach into a string. */
    private final String startCommandsJson;
    private final long lastTableVersion;
    private final PublishedTableVersions published;

    private transient RateWindows windows;
    private transient ModelCatalog catalog;
    private transient ClusterWatch cluster;
    private transient TableHistory tables;
    private transient CalibrationIntake calibration;
    private transient SolveScheduler scheduler;
    private transient OperatorControl operator;
    private transient SolverThread solverThread;
    private transient ContextLoopIo io;

    public ControlLoopFunction(ControlLoopSettings settings, TableSolver solver) {
        this(settings, solver, ActiveCommands.NONE);
    }

    /**
     * @param startCommands the operator's commands in force at a fresh start (read before the job was submitted):
     *                      drained servers stay out of the first cluster view and a freeze holds the first solve,
     *                      until the state holds commands of its own (ignored after a restore that has some)
     */
    public ControlLoopFunction(ControlLoopSettings settings, TableSolver solver, ActiveCommands startCommands) {
        this(settings, solver, startCommands, 0);
    }

    /**
     * @param lastTableVersion the newest version of this controller's tables a fresh start found on
     *                         {@code placement-tables}: its first table is the next (0: version 1)
     */
    public ControlLoopFunction(ControlLoopSettings settings, TableSolver solver, ActiveCommands startCommands,
            long lastTableVersion) {
        this(settings, solver, startCommands, lastTableVersion, PublishedTableVersions.NONE);
    }

    /**
     * @param lastTableVersion the newest version of this controller's tables a fresh start found on
     *                         {@code placement-tables} when the job was built
     * @param published        the newest version on {@code placement-tables}, read again at each open (a restart
     *                         inside the job restores an older table than the last published): the next table
     *                         follows the newer of the two
     */
    public ControlLoopFunction(ControlLoopSettings settings, TableSolver solver, ActiveCommands startCommands,
            long lastTableVersion, PublishedTableVersions published) {
        this.lastTableVersion = lastTableVersion;
        this.published = Objects.requireNonNull(published, "published table versions");
        this.startCommandsJson = ControlJson.write(Objects.requireNonNull(startCommands, "commands in force at start"));
        this.settings = Objects.requireNonNull(settings, "control loop settings");
        this.detector = new DriftDetector(settings.drift(), settings.rateWindow());
        this.solver = Objects.requireNonNull(solver, "table solver");
    }

    /** Binds the keyed state (names, types and serializers are what checkpoints and savepoints hold). */
    @Override
    public void open(OpenContext openContext) {
        RuntimeContext rc = getRuntimeContext();
        MetricGroup metrics = rc.getMetricGroup();
        operator = new OperatorControl(
                rc.getState(new ValueStateDescriptor<>("operator-commands", JsonRecordTypeInfo.of(ActiveCommands.class))),
                rc.getMapState(new MapStateDescriptor<>("kept-tables", Types.LONG, JsonRecordTypeInfo.of(ControllerTable.class))),
                rc.getState(new ValueStateDescriptor<>("last-rollback", Types.STRING)),
                ControlJson.read(startCommandsJson, ActiveCommands.class));
        windows = new RateWindows(detector,
                rc.getMapState(new MapStateDescriptor<>("window-rates", Types.LONG, JsonRecordTypeInfo.of(RateVector.class))),
                rc.getState(new ValueStateDescriptor<>("drift", JsonRecordTypeInfo.of(DriftState.class))),
                settings.solvePoll().toMillis(), metrics.counter(ControllerMetric.DRIFT_EVENTS.metricName())::inc);
        catalog = new ModelCatalog(
                rc.getMapState(new MapStateDescriptor<>("catalog", Types.STRING, JsonRecordTypeInfo.of(CatalogDag.class))),
                windows);
        cluster = new ClusterWatch(settings,
                rc.getMapState(new MapStateDescriptor<>("servers", Types.STRING, JsonRecordTypeInfo.of(ServerTelemetry.class))),
                rc.getMapState(new MapStateDescriptor<>("learned-speeds", Types.STRING, Types.DOUBLE)),
                () -> operator.commands().drained(), windows);
        tables = new TableHistory(settings,
                rc.getState(new ValueStateDescriptor<>("current-table", JsonRecordTypeInfo.of(ControllerTable.class))),
                rc.getState(new ValueStateDescriptor<>("previous-table", JsonRecordTypeInfo.of(ControllerTable.class))),
                rc.getMapState(new MapStateDescriptor<>("table-outcomes", Types.LONG, JsonRecordTypeInfo.of(JctTally.class))),
                rc.getState(new ValueStateDescriptor<>("rolled-back", JsonRecordTypeInfo.of(RolledBack.class))),
                operator, metrics.counter(ControllerMetric.ROLLBACKS.metricName())::inc,
                TableHistory.floorAtOpen(lastTableVersion, published));
        calibration = new CalibrationIntake(tables, cluster, windows);
        solverThread = new SolverThread(solver);
        scheduler = new SolveScheduler(settings,
                rc.getState(new ValueStateDescriptor<>("solve-backlog", JsonRecordTypeInfo.of(SolveBacklog.class))),
                rc.getState(new ValueStateDescriptor<>("running-solve-v2", JsonRecordTypeInfo.of(RunningSolve.class))),
                solverThread, cluster, catalog, tables, operator,
                new SolveScheduler.Counters(metrics.counter(ControllerMetric.SOLVES.metricName())::inc,
                        metrics.counter(ControllerMetric.FAILED_SOLVES.metricName())::inc));
        io = new ContextLoopIo();
        metrics.gauge(ControllerMetric.SOLVE_MILLIS.metricName(), scheduler::lastSolveMillis);
        metrics.gauge(ControllerMetric.TABLE_VERSION.metricName(), tables::version);
        metrics.gauge(ControllerMetric.LINK_LOAD.metricName(), tables::linkLoad);
        metrics.gauge(ControllerMetric.SERVERS_UP.metricName(), cluster::liveCount);
        metrics.gauge(ControllerMetric.SERVERS_SILENT.metricName(), cluster::silentCount);
        metrics.gauge(ControllerMetric.SERVERS_DRAINED.metricName(), cluster::drainedCount);
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
        io.bind(ctx, out);
        if (in.rate() != null) {
            windows.add(in.rate(), io);
        } else if (in.server() != null) {
            cluster.report(in.server(), in.partitionOrNone(), io);
        } else if (in.catalog() != null) {
            catalog.put(in.catalog(), io);
        } else if (in.learned() != null) {
            calibration.take(in.learned(), io);
        } else if (in.commands() != null) {
            onCommands(in.commands());
        } else if (in.rollback() != null) {
            tables.operatorRollback(in.rollback(), io);
        } else {
            catalog.remove(in.removedModel(), io);
        }
    }

    /**
     * The operator's commands in force: drained servers leave the cluster view (a {@code CLUSTER_CHANGED} each,
     * so the next window end re-optimises without them); an unfreeze starts a solve for what was recorded while
     * frozen.
     */
    private void onCommands(ActiveCommands next) throws Exception {
        boolean wasFrozen = operator.frozen();
        if (!operator.update(next)) {
            return;
        }
        cluster.setDrained(next.drained(), io);
        if (wasFrozen && !next.frozen()) {
            LOG.info("Re-optimisation unfrozen");
            scheduler.startIfDue(io);
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<ControllerTable> out) throws Exception {
        io.bind(ctx, out);
        if (ctx.timeDomain() == TimeDomain.PROCESSING_TIME) {
            cluster.expire(io);
            for (long end : windows.behind(io.watermark())) { // closed late (see RateWindows#add)
                closeWindow(end);
            }
            scheduler.poll(io);
            scheduler.startIfDue(io);
        } else {
            closeWindow(timestamp + 1);
        }
    }

    /** Closes a window unless already closed (a late window closed in processing time, then its event-time timer). */
    private void closeWindow(long windowEnd) throws Exception {
        if (!windows.open(windowEnd)) {
            return;
        }
        boolean nothingYet = tables.current() == null && scheduler.idle();
        RateWindows.Trigger trigger = windows.close(windowEnd, catalog.models(), nothingYet, io);
        if (trigger != null) {
            scheduler.enqueue(trigger, windowEnd, io);
        }
        scheduler.startIfDue(io);
    }
}
