package dev.nona.controller.placement;

import dev.nona.controller.DecisionFormat;
import dev.nona.controller.cluster.TelemetryClock;
import dev.nona.controller.command.ActiveCommands;
import dev.nona.controller.metrics.ControllerMetric;
import dev.nona.controller.metrics.ModelGauges;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.serde.JsonRecordTypeInfo;
import dev.nona.controller.catalog.CatalogDags;
import dev.nona.controller.source.RequestRecord;
import dev.nona.check.Checks;
import dev.nona.placement.ControllerPlacement;
import dev.nona.placement.LiveServers;
import dev.nona.placement.PartDoesNotFitException;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.workload.ColdStartCost;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.BroadcastState;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ReadOnlyBroadcastState;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MeterView;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.operators.StreamingRuntimeContext;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.co.BroadcastProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The placement operator (docs/design.md, the data flow): for every request, samples a placement from the current
 * table and tags each original stage of the model's DAG with its target server and the table's version. The table,
 * the latest status of every server (which drives the warm-first server mapping) and the model catalog live in
 * broadcast state; only the broadcast side writes it, and its updates are deterministic whatever the arrival
 * order (newest table version wins; newest status per server by event time; catalog entries in topic order).
 *
 * <p>Before the first table, for a model the table does not cover, and under the fallback table, a request runs
 * locally on one server (warm first). While no server is up or the catalog is still empty (the controller is
 * starting), requests are held, up to a fixed number (operator state, checkpointed) and for at most
 * {@code placement.hold-timeout} (a processing-time timer, so they expire even when no further input arrives), and
 * placed as soon as telemetry and the catalog arrive; so is a request of a model no live server holds whole, though
 * each of its tasks fits one, until a table that splits it arrives ({@link PlacerCache#splitMayCome}); beyond that
 * number, past that timeout, and for a model that is not in the catalog, a request becomes a dead letter with the reason. A hold's start and end are
 * {@code REQUESTS_HELD} and {@code REQUESTS_RELEASED} events ({@link #EVENTS}).
 *
 * <p>Servers are chosen by policy-model's {@link LiveServers} (the placers place through its
 * {@code ControllerPlacement}, as the simulator's controller policy does): only live ones (reported up with a compute
 * rate above 0, and heard within {@code cluster.liveness-timeout} by report time on the telemetry stream's clock,
 * {@link TelemetryClock}, checked before every placement), least predicted backlog first by a ledger of this subtask's own requests. A
 * request is placed only once that clock has reached the request's time, or while telemetry is stalled with requests
 * flowing ({@link TelemetryGate}); until then it is held like a request at start. That ledger is transient
 * (rebuilt from the reports after a restore, each server heard at its report time), so decisions are not replayed
 * identically after a failure: each request's sample is seeded by its id and the table version, but the server mapping
 * depends on the requests placed before it since the last reports. With at-least-once delivery, the first decision per
 * request id wins (docs/topics.md).
 *
 * <p>Each decision carries its explanation (policy-model's {@code PlacementExplanation}: per part the server, warm
 * or cold, predicted backlog and ongoing requests against the target; the triplets drawn and their probability)
 * and its own predicted JCT, the table's $\tau_j$ plus the longest predicted backlog among its servers. With
 * {@code decisions.format=compact} it has no {@code stages}: the parts name their tasks.
 *
 * <p>This class binds the state and dispatches; the rules live in plain classes: {@link StartupHold} (the requests
 * held while the controller starts or telemetry is behind) with {@link HoldExpiry} (its timers and events),
 * {@link TelemetryGate} (when a request may be placed), {@link BootstrapSnapshot} (how the bootstrap snapshot gives way),
 * {@link PlacerCache} (the placers per model and when they are rebuilt), {@link PlacementRules} (the operator's
 * commands), {@link ServerReports} (telemetry into the server mapping), {@link DecisionExplanations} (the decision).
 *
 * <p>Per request: $O(\text{tasks} \cdot \log N)$ for $N$ servers (no scan of the servers), and the only state it
 * writes is the held requests while the controller starts; per telemetry report $O(w \log N)$ for a server warm
 * for $w$ models (the server mapping is updated in place, not rebuilt); the samplers are rebuilt only when the
 * table or the catalog changes, or the live servers' mean compute rate moves by more than
 * {@link PlacerCache#OPS_REBUILD_TOLERANCE} (it sets the local placer's predicted JCT).
 */
public final class PlacementFunction extends BroadcastProcessFunction<RequestRecord, BroadcastUpdate, PlacementDecision>
        implements CheckpointedFunction {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(PlacementFunction.class);

    private static final String CURRENT = "current";
    public static final MapStateDescriptor<String, ControllerTable> TABLE =
            new MapStateDescriptor<>("placement-table", Types.STRING, JsonRecordTypeInfo.of(ControllerTable.class));
    public static final MapStateDescriptor<String, ServerTelemetry> SERVERS =
            new MapStateDescriptor<>("servers", Types.STRING, JsonRecordTypeInfo.of(ServerTelemetry.class));
    /** Per server, the speed its outcomes showed (ops/s), used in place of the speed it reports. */
    public static final MapStateDescriptor<String, Double> LEARNED =
            new MapStateDescriptor<>("learned-speeds", Types.STRING, Types.DOUBLE);
    /** The operator's commands in force (pins, drains, tenant rules): see {@link PlacementRules}. */
    public static final MapStateDescriptor<String, ActiveCommands> COMMANDS = PlacementRules.COMMANDS;
    public static final MapStateDescriptor<String, CatalogDag> MODELS =
            new MapStateDescriptor<>("models", Types.STRING, JsonRecordTypeInfo.of(CatalogDag.class));
    /** The parts of models too large for their servers that the placer knows there ({@link LiveServers#knownParts}). */
    static final ListStateDescriptor<LiveServers.KnownPart> KNOWN_PARTS =
            new ListStateDescriptor<>("known-parts", TypeInformation.of(LiveServers.KnownPart.class));
    /** The rent of rent or buy per warm pool ({@link LiveServers#rents}). */
    static final ListStateDescriptor<LiveServers.PoolRent> POOL_RENTS =
            new ListStateDescriptor<>("pool-rents", TypeInformation.of(LiveServers.PoolRent.class));
    /** Every broadcast state of the operator: register these, all of them, where its input is broadcast. */
    public static final MapStateDescriptor<?, ?>[] BROADCAST_STATES = {TABLE, SERVERS, MODELS, LEARNED, COMMANDS};
    /** Requests held at most while the controller starts (no server or no catalog known yet) or telemetry is behind. */
    public static final int DEFAULT_STARTUP_BUFFER = 100_000;
    /** Decisions the placement latency histogram keeps (a sliding window per subtask). */
    static final int LATENCY_SAMPLES = 10_000;
    /** Requests that could not be placed, as dead letters. */
    public static final OutputTag<DeadLetter> UNPLACED =
            new OutputTag<>("unplaced", JsonRecordTypeInfo.of(DeadLetter.class));
    /**
     * The placement operator's controller events: {@code REQUESTS_HELD}, {@code REQUESTS_RELEASED},
     * {@code MODEL_UNPLACEABLE}.
     */
    public static final OutputTag<ControllerEvent> EVENTS =
            new OutputTag<>("placement-events", JsonRecordTypeInfo.of(ControllerEvent.class));
    /** Default of {@code placement.hold-timeout}. */
    public static final long DEFAULT_HOLD_TIMEOUT_MILLIS = 30_000;
    /** Default of {@code cluster.liveness-timeout}. */
    public static final long DEFAULT_LIVENESS_TIMEOUT_MILLIS = 3_000;

    private final String requestsTopic;
    private final int targetOngoingRequests;
    private final PlacerFactory placerFactory;
    /** The bootstrap snapshot as {@link BootstrapSnapshot#encode} writes it. */
    private final byte[] bootstrapBytes;
    private final int startupBuffer;
    private final long livenessTimeoutMillis;
    private final long holdTimeoutMillis;
    private final boolean compact;
    /** The predicted load of a part, $F + b/B$ ({@code placement.cold-start.*}); both 0: not weighed. */
    private double coldStartFixedSeconds;
    private double coldStartLoadBytesPerSecond;
    /** What the placement rule charges per second of a load ({@code placement.cold-start.weight}). */
    private double coldStartWeight = ColdStartCost.DEFAULT_WEIGHT;
    /** The half-life of the placement rule's rent, seconds ({@code placement.cold-start.rent-half-life}). */
    private double rentHalfLifeSeconds = ColdStartCost.DEFAULT_RENT_HALF_LIFE_SECONDS;

    private transient JsonSerde<InferenceRequest> requestSerde;
    private transient BootstrapSnapshot bootstrap;
    /** Models removed from the catalog since this instance opened: the bootstrap snapshot's entry no longer counts. */
    private transient Set<String> removedModels;
    private transient StartupHold hold;
    private transient ListState<RequestRecord> heldState;
    /**
     * The parts of models too large for their servers that the placer knows on each server: a union over the
     * subtasks, so that after a change of parallelism each placer knows every part any placer sent.
     */
    private transient ListState<LiveServers.KnownPart> partsState;
    /** The parts restored from a checkpoint, until the server mapping is built and takes them; then empty. */
    private transient List<LiveServers.KnownPart> restoredParts;
    /**
     * Each placer's rents of rent or buy, split over the subtasks on a restore (each its own while the parallelism is
     * the same; a pool's rents from several add up).
     */
    private transient ListState<LiveServers.PoolRent> rentsState;
    /** The rents restored from a checkpoint, until the server mapping is built and takes them; then empty. */
    private transient List<LiveServers.PoolRent> restoredRents;
    /** The hold's timeout timer and its events. */
    private transient HoldExpiry expiry;
    private transient PlacerCache placers;
    private transient PlacementRules commandRules;
    private transient UnplaceableModels unplaceable;
    /** Liveness by report time on the telemetry stream's clock (the same rule as the control loop's). */
    private transient TelemetryClock clock;
    /** When a request may be placed: once the clock has reached its time (or telemetry is stalled). */
    private transient TelemetryGate gate;
    /** The broadcast state and the decisions' collector, for placing held requests at a timer. */
    private transient States states;
    private transient Collector<PlacementDecision> timerOut;
    /**
     * Since the last pass over the held requests: the earliest time of a request held for telemetry, and whether one
     * was held for another reason (or restored). A pass is skipped while neither can be placed: the clock short of
     * that time, telemetry not stalled (a backlog of held requests is not scanned at every report).
     */
    private transient long earliestGated;
    private transient boolean heldOtherwise;
    /**
     * Whether a request waits for a table that splits its model, and the largest live memory when it was held: such
     * requests are passed over again only when the table, the catalog or that memory changed.
     */
    private transient boolean heldForSplit;
    private transient double heldForSplitAtMemory;
    /** The server mapping; null until the first request or held release builds it from the reports. */
    private transient LiveServers servers;
    /** Each model's bytes by the catalog, as {@link #modelBytes} last read them; cleared when the catalog changes. */
    private transient Map<String, Double> catalogBytes;
    private transient Counter decisions;
    private transient Counter unplaced;
    private transient Counter silenced;
    private transient Histogram latencyMillis;

    public PlacementFunction(String requestsTopic, int targetOngoingRequests, PlacerFactory placers) {
        this(requestsTopic, targetOngoingRequests, placers, List.of(), DEFAULT_STARTUP_BUFFER);
    }

    /** As the full constructor, with the default liveness timeout. */
    public PlacementFunction(String requestsTopic, int targetOngoingRequests, PlacerFactory placers,
            List<BroadcastUpdate> bootstrap, int startupBuffer) {
        this(requestsTopic, targetOngoingRequests, placers, bootstrap, startupBuffer, DEFAULT_LIVENESS_TIMEOUT_MILLIS);
    }

    /**
     * With a bootstrap snapshot (a table, server statuses, catalog entries), each used until the broadcast state
     * holds something newer in its place (see {@link BootstrapSnapshot}): the pipeline benchmark and tests start from
     * one, and the controller job from the catalog and newest table it read before it was submitted
     * ({@code StartupSnapshot}); a restore's broadcast state wins over it.
     *
     * @param livenessTimeoutMillis a server not heard from for longer is not used ({@code cluster.liveness-timeout})
     */
    public PlacementFunction(String requestsTopic, int targetOngoingRequests, PlacerFactory placers,
            List<BroadcastUpdate> bootstrap, int startupBuffer, long livenessTimeoutMillis) {
        this(requestsTopic, targetOngoingRequests, placers, bootstrap, startupBuffer, livenessTimeoutMillis,
                DecisionFormat.FULL);
    }

    /** @param format how decisions are written ({@code decisions.format}): with {@code stages}, or compact */
    public PlacementFunction(String requestsTopic, int targetOngoingRequests, PlacerFactory placers,
            List<BroadcastUpdate> bootstrap, int startupBuffer, long livenessTimeoutMillis, DecisionFormat format) {
        this(requestsTopic, targetOngoingRequests, placers, bootstrap, startupBuffer, livenessTimeoutMillis, format,
                DEFAULT_HOLD_TIMEOUT_MILLIS);
    }

    /** @param holdTimeoutMillis how long a request is held at most while the controller starts ({@code placement.hold-timeout}) */
    public PlacementFunction(String requestsTopic, int targetOngoingRequests, PlacerFactory placers,
            List<BroadcastUpdate> bootstrap, int startupBuffer, long livenessTimeoutMillis, DecisionFormat format,
            long holdTimeoutMillis) {
        this.holdTimeoutMillis = StartupHold.checkTimeout(holdTimeoutMillis);
        this.compact = Objects.requireNonNull(format, "decisions.format") == DecisionFormat.COMPACT;
        if (livenessTimeoutMillis <= 0) {
            throw new IllegalArgumentException("cluster.liveness-timeout (" + livenessTimeoutMillis + " ms) must be > 0");
        }
        this.livenessTimeoutMillis = livenessTimeoutMillis;
        this.startupBuffer = StartupHold.checkCapacity(startupBuffer);
        this.requestsTopic = Objects.requireNonNull(requestsTopic, "requests topic");
        this.targetOngoingRequests = targetOngoingRequests;
        this.placerFactory = Objects.requireNonNull(placers, "placer factory");
        this.bootstrapBytes = BootstrapSnapshot.encode(bootstrap);
    }

    /**
     * What loading a part is predicted to take: {@code fixedSeconds} + bytes / {@code loadBytesPerSecond} (0: bytes
     * add nothing); both 0, the default: loads are not weighed. Returns this function.
     */
    public PlacementFunction coldStart(double fixedSeconds, double loadBytesPerSecond) {
        return coldStart(fixedSeconds, loadBytesPerSecond, ColdStartCost.DEFAULT_WEIGHT);
    }

    /**
     * As {@link #coldStart(double, double)}, the placement rule charging {@code weight} seconds for each second of a
     * load ({@code placement.cold-start.weight}, {@link ColdStartCost#weight}). Returns this function.
     */
    public PlacementFunction coldStart(double fixedSeconds, double loadBytesPerSecond, double weight) {
        Checks.nonNegative(fixedSeconds, "placement.cold-start.fixed-seconds");
        Checks.nonNegative(loadBytesPerSecond, "placement.cold-start.load-bytes-per-second");
        Checks.positive(weight, "placement.cold-start.weight");
        this.coldStartFixedSeconds = fixedSeconds;
        this.coldStartLoadBytesPerSecond = loadBytesPerSecond;
        this.coldStartWeight = weight;
        return this;
    }

    /**
     * The half-life of the placement rule's rent ({@code placement.cold-start.rent-half-life},
     * {@link ColdStartCost#rentHalfLifeSeconds}), {@code > 0}. Returns this function.
     */
    public PlacementFunction rentHalfLife(Duration halfLife) {
        Checks.positive(halfLife, "placement.cold-start.rent-half-life");
        this.rentHalfLifeSeconds = halfLife.toNanos() / 1e9;
        return this;
    }

    /** The cold-start cost for {@link LiveServers}, or null when loads are not weighed. */
    private ColdStartCost coldStartCost() {
        if (coldStartFixedSeconds == 0 && coldStartLoadBytesPerSecond == 0) {
            return null;
        }
        return new ColdStartCost(coldStartFixedSeconds,
                coldStartLoadBytesPerSecond > 0 ? coldStartLoadBytesPerSecond : Double.MAX_VALUE, coldStartWeight,
                rentHalfLifeSeconds);
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        heldState = context.getOperatorStateStore().getListState(StartupHold.descriptor());
        hold = new StartupHold(startupBuffer, holdTimeoutMillis);
        hold.restore(heldState.get(), timeService().getCurrentProcessingTime());
        partsState = context.getOperatorStateStore().getUnionListState(KNOWN_PARTS);
        restoredParts = new ArrayList<>();
        partsState.get().forEach(restoredParts::add);
        rentsState = context.getOperatorStateStore().getListState(POOL_RENTS);
        restoredRents = new ArrayList<>();
        rentsState.get().forEach(restoredRents::add);
        earliestGated = Long.MAX_VALUE;
        heldOtherwise = !hold.isEmpty();
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        heldState.update(hold.held());
        partsState.update(servers == null ? restoredParts : servers.knownParts());
        rentsState.update(servers == null ? restoredRents : servers.rents());
    }

    @Override
    public void open(OpenContext openContext) {
        requestSerde = new JsonSerde<>(InferenceRequest.class, JsonSerde.DEFAULT_MAX_RECORD_BYTES);
        bootstrap = BootstrapSnapshot.decode(bootstrapBytes);
        removedModels = new HashSet<>();
        catalogBytes = new HashMap<>();
        commandRules = new PlacementRules();
        unplaceable = new UnplaceableModels();
        clock = new TelemetryClock(livenessTimeoutMillis);
        gate = new TelemetryGate(clock);
        var metrics = getRuntimeContext().getMetricGroup();
        ModelGauges predictedJct = new ModelGauges(metrics, ControllerMetric.PREDICTED_JCT_SECONDS);
        placers = new PlacerCache(placerFactory, predictedJct::set);
        decisions = metrics.counter(ControllerMetric.DECISIONS.metricName());
        metrics.meter(ControllerMetric.DECISIONS_PER_SECOND.metricName(), new MeterView(decisions));
        latencyMillis = metrics.histogram(ControllerMetric.PLACEMENT_LATENCY_MILLIS.metricName(),
                new DescriptiveStatisticsHistogram(LATENCY_SAMPLES));
        unplaced = metrics.counter(ControllerMetric.UNPLACED_REQUESTS.metricName());
        silenced = metrics.counter(ControllerMetric.SILENCED_SERVERS.metricName());
        metrics.gauge(ControllerMetric.PLACEMENT_TABLE_VERSION.metricName(), () -> placers.tableVersion());
        metrics.gauge(ControllerMetric.HELD_REQUESTS.metricName(), () -> hold.size());
        expiry = new HoldExpiry(hold, timeService(), getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                this::holdReason, this::reject, gate::nextOpening, this::releaseAtTimer);
    }

    @Override
    public void processElement(RequestRecord record, ReadOnlyContext ctx, Collector<PlacementDecision> out) throws Exception {
        bind(ctx::getBroadcastState, out);
        long now = ctx.currentProcessingTime();
        gate.requestArrived(now);
        prepare(states, now);
        expiry.expire(now);
        placeOrHold(record, now, now, out, dl -> ctx.output(UNPLACED, dl), e -> ctx.output(EVENTS, e));
        expiry.changed(now);
    }

    @Override
    public void processBroadcastElement(BroadcastUpdate update, Context ctx, Collector<PlacementDecision> out) throws Exception {
        if (update.table() != null) {
            storeTable(ctx.getBroadcastState(TABLE), update.table());
        } else if (update.server() != null) {
            storeReport(ctx, update.server(), update.partitionOrNone());
        } else if (update.catalog() != null) {
            ctx.getBroadcastState(MODELS).put(update.catalog().model(), CatalogDags.sized(update.catalog()));
            removedModels.remove(update.catalog().model());
            catalogBytes.remove(update.catalog().model());
            placers.markStale();
        } else if (update.commands() != null) {
            commandRules.store(ctx.getBroadcastState(COMMANDS), update.commands());
        } else if (update.learnedSpeeds() != null) {
            storeLearned(ctx.getBroadcastState(LEARNED), update.learnedSpeeds());
        } else {
            ctx.getBroadcastState(MODELS).remove(update.removedModel());
            removedModels.add(update.removedModel());
            catalogBytes.remove(update.removedModel());
            placers.markStale();
        }
        bind(ctx::getBroadcastState, out);
        long now = ctx.currentProcessingTime();
        expiry.expire(now);
        releaseHeld(now, out, dl -> ctx.output(UNPLACED, dl), e -> ctx.output(EVENTS, e));
        expiry.changed(now);
    }

    /**
     * Takes the broadcast state's reader and the collector from the first element (both are the operator's own, the
     * same for every element), for placing held requests at a timer.
     */
    private void bind(States s, Collector<PlacementDecision> out) {
        expiry.bind(out);
        if (states == null) {
            states = s;
            timerOut = out;
        }
    }

    /** At a timer: the held requests the telemetry gate now admits are placed. */
    private void releaseAtTimer(long now) {
        try {
            releaseHeld(now, timerOut, expiry::deadLetter, expiry::event);
        } catch (Exception e) {
            throw new IllegalStateException("placing held requests at a timer failed", e);
        }
    }

    /**
     * Why a held request is held now: no server is up, telemetry is behind its time, there is no catalog, or its
     * model fits no server whole and no table splits it yet.
     */
    private StartupHold.Reason holdReason(StartupHold.Held held) {
        if (servers == null || servers.upCount() == 0) {
            return StartupHold.Reason.NO_SERVER;
        }
        long now = timeService().getCurrentProcessingTime();
        InferenceRequest r = held.record().request();
        if (!gate.admits(TelemetryGate.requestTime(r.eventTime(), held.since()), now)) {
            return StartupHold.Reason.TELEMETRY_BEHIND;
        }
        try {
            return catalogDag(r.model()) == null ? StartupHold.Reason.NO_CATALOG : StartupHold.Reason.AWAITING_SPLIT;
        } catch (Exception e) {
            throw new IllegalStateException("reading the model catalog's state failed", e);
        }
    }

    /** The model's DAG by the operator's catalog, else by the one read at the start; null if neither has it. */
    private CatalogDag catalogDag(String model) throws Exception {
        CatalogDag dag = states == null ? null : states.get(MODELS).get(model);
        if (dag == null && !removedModels.contains(model)) {
            dag = bootstrap.models().get(model);
        }
        return dag;
    }

    /** Newest table version wins. */
    private void storeTable(BroadcastState<String, ControllerTable> state, ControllerTable table) throws Exception {
        ControllerTable stored = state.get(CURRENT);
        if (stored == null || table.version() > stored.version()) {
            state.put(CURRENT, table);
            placers.markStale();
        }
    }

    /**
     * Newest status per server by event time; applied in place to the server mapping once it is built, heard at its
     * report time, unless it is stale for a server not live now ({@link TelemetryClock}).
     */
    private void storeReport(Context ctx, ServerTelemetry report, int partition) throws Exception {
        long now = ctx.currentProcessingTime();
        long made = TelemetryClock.reportTime(report.eventTime(), now);
        clock.observe(report.serverId(), partition, made, now, servers != null && isLive(report.serverId()));
        BroadcastState<String, ServerTelemetry> state = ctx.getBroadcastState(SERVERS);
        ServerTelemetry stored = state.get(report.serverId());
        if (stored == null || report.eventTime() >= stored.eventTime()) {
            state.put(report.serverId(), report); // the facts, the same on every subtask
            if (servers != null && clock.applies(made, now, isLive(report.serverId()))) {
                ServerReports.apply(servers, report, ctx.getBroadcastState(LEARNED).get(report.serverId()),
                        modelBytes(ctx.getBroadcastState(MODELS)), made);
                serversChanged();
            }
        }
    }

    private boolean isLive(String serverId) {
        int s = servers.indexOf(serverId);
        return s >= 0 && servers.isLive(s);
    }

    private void storeLearned(BroadcastState<String, Double> state, Map<String, Double> speeds) throws Exception {
        for (Map.Entry<String, Double> e : speeds.entrySet()) {
            state.put(e.getKey(), e.getValue());
            if (servers != null) {
                servers.recalibrate(e.getKey(), e.getValue());
            }
        }
        if (servers != null) {
            serversChanged();
        }
    }

    /**
     * Places the held requests once servers, a catalog and the telemetry up to their time are known (those still
     * unplaceable stay held).
     */
    private void releaseHeld(long now, Collector<PlacementDecision> out, Consumer<DeadLetter> deadLetters,
            Consumer<ControllerEvent> events) throws Exception {
        boolean splitMayCome = heldForSplit
                && (placers.isStale() || servers.largestLiveMemoryBytes() != heldForSplitAtMemory);
        if (hold.isEmpty() || !heldOtherwise && !splitMayCome && clock.clock(now) < earliestGated && !gate.stalled(now)) {
            return;
        }
        prepare(states, now);
        earliestGated = Long.MAX_VALUE;
        heldOtherwise = false;
        heldForSplit = false;
        for (StartupHold.Held held : hold.release()) {
            Outcome o = placeOrHold(held.record(), held.since(), now, out, deadLetters, events);
            if (o == Outcome.PLACED) {
                hold.placed();
            } else if (o == Outcome.DEAD_LETTER) {
                hold.deadLettered(1);
            }
        }
    }

    private ProcessingTimeService timeService() {
        return ((StreamingRuntimeContext) getRuntimeContext()).getProcessingTimeService();
    }

    /**
     * Before placing: builds the server mapping (once) and the placers' table (when stale) from the broadcast state,
     * stops using the silent servers, and applies the operator's commands if they changed.
     */
    private void prepare(States states, long now) throws Exception {
        if (servers == null) {
            buildServers(states.get(SERVERS), states.get(LEARNED), modelBytes(states.get(MODELS)), now);
        }
        if (placers.isStale()) {
            ControllerTable table = bootstrap.newer(states.get(TABLE).get(CURRENT));
            placers.use(table);
            servers.idleGate(placerFactory.idleGate(table)); // the table's JSON is read where its placers' is
        }
        expireSilent(now);
        if (commandRules.refresh(() -> states.get(COMMANDS), servers, bootstrap::commands)) {
            serversChanged();
        }
    }

    /**
     * Once per operator instance, from the latest reports (see {@link BootstrapSnapshot#latestReports}); every later
     * report updates the mapping in place ({@link #storeReport}).
     */
    private void buildServers(ReadOnlyBroadcastState<String, ServerTelemetry> reports,
            ReadOnlyBroadcastState<String, Double> learned, ToDoubleFunction<String> bytes, long now) throws Exception {
        var task = getRuntimeContext().getTaskInfo();
        servers = new LiveServers(targetOngoingRequests, task.getIndexOfThisSubtask(),
                task.getNumberOfParallelSubtasks(), livenessTimeoutMillis);
        servers.coldStart(coldStartCost());
        List<ServerTelemetry> latest = TelemetryClock.inReportOrder(bootstrap.latestReports(reports.immutableEntries()));
        for (ServerTelemetry s : latest) {
            long made = TelemetryClock.reportTime(s.eventTime(), now);
            ServerReports.apply(servers, s, learned.get(s.serverId()), bytes, made); // heard when made, as they arrive now
        }
        servers.restoreParts(restoredParts); // the parts the placer knew before a restore, as the reports still hold them
        restoredParts = List.of();
        servers.restoreRents(restoredRents); // after coldStart(): its half-life decays them
        restoredRents = List.of();
        for (ServerTelemetry s : latest) {
            ServerReports.keepHeldParts(servers, servers.indexOf(s.serverId()), s);
        }
        clock.restore(latest, now);
        serversChanged();
    }

    /**
     * Stops using the servers not heard from within the liveness timeout on the telemetry stream's clock (see
     * {@link TelemetryClock}: while no telemetry arrives, the servers last known live stay live).
     */
    private void expireSilent(long now) {
        int before = servers.upCount();
        int[] first = {-1};
        servers.expireSilent(clock.clock(now), s -> {
            silenced.inc();
            if (first[0] < 0) {
                first[0] = s;
            }
        });
        if (servers.upCount() != before) {
            // one line per check, not per server: a telemetry outage can silence thousands at once
            LOG.info("{} server(s) silent, e.g. {} (no report since {}, more than cluster.liveness-timeout = {} ms): no new "
                    + "stages until they report again", before - servers.upCount(), servers.id(first[0]),
                    servers.heardAt(first[0]), livenessTimeoutMillis);
            serversChanged();
        }
    }

    /** The live servers changed: the placers' mean compute rate may have moved. */
    private void serversChanged() {
        placers.meanOpsPerSecond(servers.meanOpsPerSecond());
    }

    /**
     * Places one request; while the operator knows no up server or no model at all (the controller is starting
     * and telemetry or the catalog has not arrived yet), or the telemetry clock has not reached the request's time
     * ({@link TelemetryGate}), holds it, up to the startup buffer's capacity.
     */
    private Outcome placeOrHold(RequestRecord record, long since, long now, Collector<PlacementDecision> out,
            Consumer<DeadLetter> deadLetters, Consumer<ControllerEvent> events) throws Exception {
        InferenceRequest r = record.request();
        RequestPlacer placer = placers.get(r.model());
        if (placer == null || servers.upCount() == 0) {
            CatalogDag dag = catalogDag(r.model());
            boolean noCatalog = dag == null && bootstrap.models().isEmpty()
                    && !states.get(MODELS).immutableEntries().iterator().hasNext();
            if (servers.upCount() == 0 || noCatalog) {
                heldOtherwise = true;
                return hold(record, since, servers.upCount() == 0 ? StartupHold.Reason.NO_SERVER
                        : StartupHold.Reason.NO_CATALOG, deadLetters);
            }
            if (dag == null) {
                reject(record, "model '" + r.model() + "' is not in the model catalog", deadLetters);
                return Outcome.DEAD_LETTER;
            }
            placer = placers.build(r.model(), dag);
        }
        long made = TelemetryGate.requestTime(r.eventTime(), since);
        if (!gate.admits(made, now)) {
            earliestGated = Math.min(earliestGated, made);
            return hold(record, since, StartupHold.Reason.TELEMETRY_BEHIND, deadLetters);
        }
        String refused = commandRules.admit(servers, r); // the operator's pins, drains and tenant rules
        if (refused != null) {
            reject(record, refused, deadLetters);
            return Outcome.DEAD_LETTER;
        }
        ControllerPlacement placement = placer.placement();
        if (placement != null && placement.awaitsSplit(servers) && placers.splitMayCome()) {
            heldForSplit = true; // a model no server holds whole waits for the table that splits it into parts
            heldForSplitAtMemory = servers.largestLiveMemoryBytes();
            return hold(record, since, StartupHold.Reason.AWAITING_SPLIT, deadLetters);
        }
        if (placement != null && placement.unplaceable(servers)) { // a task larger than every live server's memory
            Map<String, Object> details = unplaceable.newlyUnplaceable(placement, servers, subtask());
            if (details != null) {
                LOG.warn("Model {} is unplaceable: {}", r.model(), placement.unplaceableReason(servers));
                events.accept(ControllerEvent.of(ControllerEventType.MODEL_UNPLACEABLE, System.currentTimeMillis(), details));
            }
            reject(record, placement.unplaceableReason(servers), deadLetters);
            return Outcome.DEAD_LETTER;
        }
        boolean distributed = !(placer instanceof LocalPlacer);
        long version = placers.tableVersion();
        SplittableRandom rng = new SplittableRandom(r.id().hashCode() * 0x9E3779B97F4A7C15L + version);
        try {
            out.collect(DecisionExplanations.decide(placer, servers, r.id(), r.tenant(), version, !distributed,
                    r.eventTime(), rng, compact));
        } catch (PartDoesNotFitException e) { // every task fits somewhere, but this request's parts do not
            reject(record, "MODEL_UNPLACEABLE: " + e.getMessage(), deadLetters);
            return Outcome.DEAD_LETTER;
        }
        unplaceable.placed(r.model());
        commandRules.placed(servers, r);
        decisions.inc();
        latencyMillis.update(Math.max(0, System.currentTimeMillis() - r.eventTime()));
        return Outcome.PLACED;
    }

    /** Holds a request, or makes it a dead letter if the hold is full. */
    private Outcome hold(RequestRecord record, long since, StartupHold.Reason reason, Consumer<DeadLetter> deadLetters) {
        if (!hold.hold(record, since)) {
            reject(record, hold.overflowReason(reason), deadLetters);
            return Outcome.DEAD_LETTER;
        }
        return Outcome.HELD;
    }

    private int subtask() {
        return getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
    }

    /** What became of a request. */
    private enum Outcome { PLACED, HELD, DEAD_LETTER }

    private void reject(RequestRecord record, String reason, Consumer<DeadLetter> deadLetters) {
        byte[] raw = requestSerde.serialize(record.request());
        deadLetters.accept(DeadLetter.of(raw, requestsTopic, record.partition(), record.offset(), reason,
                System.currentTimeMillis()));
        unplaced.inc();
    }

    /**
     * Each model's bytes by the catalog ({@link CatalogDags#bytes}; 0 for a model not in it): the operator's catalog,
     * else the one read at the start. A server's report counts a model warm only where it holds them whole
     * ({@link dev.nona.topics.record.CachedModel#holdsWhole}).
     */
    private ToDoubleFunction<String> modelBytes(ReadOnlyBroadcastState<String, CatalogDag> models) {
        return model -> {
            Double known = catalogBytes.get(model); // every report names its models: summed once per catalog entry
            if (known != null) {
                return known;
            }
            try {
                CatalogDag dag = models.get(model);
                if (dag == null && !removedModels.contains(model)) {
                    dag = bootstrap.models().get(model);
                }
                double bytes = dag == null ? 0 : CatalogDags.bytes(dag);
                catalogBytes.put(model, bytes);
                return bytes;
            } catch (Exception e) {
                throw new IllegalStateException("reading the model catalog state failed", e);
            }
        };
    }

    /** Reads a broadcast state: both sides' contexts can ({@code ctx::getBroadcastState}), under different types. */
    private interface States {
        <K, V> ReadOnlyBroadcastState<K, V> get(MapStateDescriptor<K, V> descriptor);
    }
}
