package dev.nona.controller.placement;

import dev.nona.controller.metrics.ControllerMetric;
import dev.nona.controller.metrics.ModelGauges;
import dev.nona.controller.DecisionFormat;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.serde.JsonRecordTypeInfo;
import dev.nona.controller.source.RequestRecord;
import dev.nona.placement.LiveServers;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.serde.JsonSerde;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.BroadcastState;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ReadOnlyBroadcastState;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MeterView;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.co.BroadcastProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
/**
 * The placement operator (DESIGN.md §1, step 4): for every request, samples a placement from the current table
 * and tags each original stage of the model's DAG with its target server and the table's version. The table,
 * the latest status of every server (which drives the warm-first server mapping) and the model catalog live in
 * broadcast state; only the broadcast side writes it, and its updates are deterministic whatever the arrival
 * order (newest table version wins; newest status per server by event time; catalog entries in topic order).
 *
 * <p>Before the first table, for a model the table does not cover, and under the fallback table, a request runs
 * locally on one server (warm first). While no server is up or the catalog is still empty (the controller is
 * starting), requests are held, up to a fixed number (operator state, checkpointed), and placed as soon as
 * telemetry and the catalog arrive; beyond that, and for a model that is not in the catalog, a request becomes a
 * dead letter with the reason.
 *
 * <p>Servers are chosen by policy-model's {@link LiveServers} (the placers place through its
 * {@code ControllerPlacement}, as the simulator's controller policy does): only live ones (reported up with a compute rate above 0, and
 * heard within {@code cluster.liveness-timeout} on this operator's processing-time clock, checked before every
 * placement), least predicted backlog first by a ledger of this subtask's own requests. That ledger is transient
 * (rebuilt from the reports after a restore, every server heard anew at that time), so decisions are not replayed
 * identically after a failure: each request's sample is seeded by its id and the table version, but the server
 * mapping depends on the requests placed before it since the last reports. With at-least-once delivery, the first
 * decision per request id wins (docs/topics.md).
 *
 * <p>Each decision carries its explanation (policy-model's {@code PlacementExplanation}: per part the server, warm
 * or cold, predicted backlog and ongoing requests against the target; the triplets drawn and their probability)
 * and its own predicted JCT, the table's $\tau_j$ plus the longest predicted backlog among its servers. With
 * {@code decisions.format=compact} it has no {@code stages}: the parts name their tasks.
 *
 * <p>Per request: $O(\text{tasks} \cdot \log N)$ for $N$ servers (no scan of the servers), and the only state it
 * writes is the held requests while the controller starts; per telemetry report $O(w \log N)$ for a server warm
 * for $w$ models (the server mapping is updated in place, not rebuilt); the samplers are rebuilt only when the
 * table or the catalog changes, or the live servers' mean compute rate moves by more than
 * {@link #OPS_REBUILD_TOLERANCE} (it sets the local placer's predicted JCT).
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
    public static final MapStateDescriptor<String, dev.nona.controller.command.ActiveCommands> COMMANDS =
            PlacementRules.COMMANDS;
    public static final MapStateDescriptor<String, CatalogDag> MODELS =
            new MapStateDescriptor<>("models", Types.STRING, JsonRecordTypeInfo.of(CatalogDag.class));
    /** Every broadcast state of the operator: register these, all of them, where its input is broadcast. */
    public static final MapStateDescriptor<?, ?>[] BROADCAST_STATES = {TABLE, SERVERS, MODELS, LEARNED, COMMANDS};
    /** Requests held at most while the controller starts (no server or no catalog known yet). */
    public static final int DEFAULT_STARTUP_BUFFER = 10_000;
    /** Relative change of the live servers' mean compute rate that rebuilds the placers. */
    static final double OPS_REBUILD_TOLERANCE = 1e-3;
    /** Decisions the placement latency histogram keeps (a sliding window per subtask). */
    static final int LATENCY_SAMPLES = 10_000;
    /** Requests that could not be placed, as dead letters. */
    public static final OutputTag<DeadLetter> UNPLACED =
            new OutputTag<>("unplaced", JsonRecordTypeInfo.of(DeadLetter.class));

    private final String requestsTopic;
    private final int targetOngoingRequests;
    private final PlacerFactory placers;
    /** The bootstrap snapshot as {@link BroadcastUpdateSerializer} writes it (binary reports: 10,000 decode in ms). */
    private final byte[] bootstrapBytes;
    private final int startupBuffer;
    private final long livenessTimeoutMillis;
    private final boolean compact;

    private transient JsonSerde<InferenceRequest> requestSerde;
    private transient Map<String, RequestPlacer> placerCache;
    private transient LiveServers servers;
    private transient ControllerTable table;
    private transient double opsPerSecond;
    private transient boolean tableDirty;
    private transient boolean serversDirty;
    private transient Counter decisions;
    private transient Counter unplaced;
    private transient Histogram latencyMillis;
    private transient ModelGauges predictedJct;
    private transient volatile long tableVersion;

    private transient Counter silenced;
    private transient Bootstrap bootstrap;
    private transient List<RequestRecord> held;
    private transient PlacementRules commandRules;
    private transient ListState<RequestRecord> heldState;

    /** Default of {@code cluster.liveness-timeout}. */
    public static final long DEFAULT_LIVENESS_TIMEOUT_MILLIS = 3_000;

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
     * holds something newer in its place (a newer table; a server's newer status; the model's catalog entry): the
     * pipeline benchmark and tests start from one. The controller job passes none: its warm start is the broadcast
     * state restored from a checkpoint.
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
        this.compact = Objects.requireNonNull(format, "decisions.format") == DecisionFormat.COMPACT;
        if (livenessTimeoutMillis <= 0) {
            throw new IllegalArgumentException("cluster.liveness-timeout (" + livenessTimeoutMillis + " ms) must be > 0");
        }
        this.livenessTimeoutMillis = livenessTimeoutMillis;
        if (startupBuffer < 0) {
            throw new IllegalArgumentException("placement.startup-buffer (" + startupBuffer + ") must be >= 0");
        }
        this.startupBuffer = startupBuffer;
        this.requestsTopic = Objects.requireNonNull(requestsTopic, "requests topic");
        this.targetOngoingRequests = targetOngoingRequests;
        this.placers = Objects.requireNonNull(placers, "placer factory");
        this.bootstrapBytes = encode(bootstrap);
    }

    @Override
    public void open(OpenContext openContext) {
        requestSerde = new JsonSerde<>(InferenceRequest.class, JsonSerde.DEFAULT_MAX_RECORD_BYTES);
        bootstrap = Bootstrap.of(decode(bootstrapBytes));
        placerCache = new HashMap<>();
        commandRules = new PlacementRules();
        tableDirty = true;
        serversDirty = true;
        var metrics = getRuntimeContext().getMetricGroup();
        decisions = metrics.counter(ControllerMetric.DECISIONS.metricName());
        metrics.meter(ControllerMetric.DECISIONS_PER_SECOND.metricName(), new MeterView(decisions));
        latencyMillis = metrics.histogram(ControllerMetric.PLACEMENT_LATENCY_MILLIS.metricName(),
                new DescriptiveStatisticsHistogram(LATENCY_SAMPLES));
        predictedJct = new ModelGauges(metrics, ControllerMetric.PREDICTED_JCT_SECONDS);
        unplaced = metrics.counter(ControllerMetric.UNPLACED_REQUESTS.metricName());
        silenced = metrics.counter(ControllerMetric.SILENCED_SERVERS.metricName());
        metrics.gauge(ControllerMetric.PLACEMENT_TABLE_VERSION.metricName(), () -> tableVersion);
        metrics.gauge(ControllerMetric.HELD_REQUESTS.metricName(), () -> held.size());
    }

    @Override
    public void processElement(RequestRecord record, ReadOnlyContext ctx, Collector<PlacementDecision> out) throws Exception {
        if (serversDirty || tableDirty) {
            refresh(ctx.getBroadcastState(SERVERS), ctx.getBroadcastState(TABLE), ctx.getBroadcastState(LEARNED),
                    ctx.currentProcessingTime());
        }
        expireSilent(ctx.currentProcessingTime());
        if (commandRules.refresh(() -> ctx.getBroadcastState(COMMANDS), servers)) {
            onServersChanged();
        }
        placeOrHold(record, () -> ctx.getBroadcastState(MODELS), out, dl -> ctx.output(UNPLACED, dl));
    }

    /**
     * Places one request; while the operator knows no up server or no model at all (the controller is starting
     * and telemetry or the catalog has not arrived yet) holds it, up to the startup buffer's capacity.
     */
    private void placeOrHold(RequestRecord record, Supplier<ReadOnlyBroadcastState<String, CatalogDag>> catalog,
            Collector<PlacementDecision> out, Consumer<DeadLetter> deadLetters) throws Exception {
        InferenceRequest r = record.request();
        RequestPlacer placer = placerCache.get(r.model());
        if (placer == null || servers.upCount() == 0) {
            ReadOnlyBroadcastState<String, CatalogDag> models = catalog.get();
            CatalogDag dag = models.get(r.model());
            if (dag == null) {
                dag = bootstrap.models().get(r.model());
            }
            boolean noCatalog = dag == null && bootstrap.models().isEmpty() && !models.immutableEntries().iterator().hasNext();
            if (servers.upCount() == 0 || noCatalog) {
                if (held.size() < startupBuffer) {
                    held.add(record);
                    return;
                }
                reject(record, servers.upCount() == 0
                        ? "no server is up (no telemetry yet, or every server is down) and the startup buffer ("
                                + startupBuffer + " requests) is full"
                        : "the model catalog is empty and the startup buffer (" + startupBuffer + " requests) is full",
                        deadLetters);
                return;
            }
            if (dag == null) {
                reject(record, "model '" + r.model() + "' is not in the model catalog", deadLetters);
                return;
            }
            placer = buildPlacer(r.model(), dag);
        }
        String refused = commandRules.admit(servers, r); // the operator's pins, drains and tenant rules
        if (refused != null) {
            reject(record, refused, deadLetters);
            return;
        }
        boolean distributed = !(placer instanceof LocalPlacer);
        long version = table == null ? 0 : table.version();
        SplittableRandom rng = new SplittableRandom(r.id().hashCode() * 0x9E3779B97F4A7C15L + version);
        out.collect(DecisionExplanations.decide(placer, servers, r.id(), r.tenant(), version, !distributed,
                r.eventTime(), rng, compact));
        commandRules.placed(servers, r);
        decisions.inc();
        latencyMillis.update(Math.max(0, System.currentTimeMillis() - r.eventTime()));
    }

    /** Places the held requests once servers and a catalog are known (those still unplaceable stay held). */
    private void releaseHeld(Context ctx, Collector<PlacementDecision> out) throws Exception {
        if (held.isEmpty()) {
            return;
        }
        refresh(ctx.getBroadcastState(SERVERS), ctx.getBroadcastState(TABLE), ctx.getBroadcastState(LEARNED),
                    ctx.currentProcessingTime());
        expireSilent(ctx.currentProcessingTime());
        if (commandRules.refresh(() -> ctx.getBroadcastState(COMMANDS), servers)) {
            onServersChanged();
        }
        List<RequestRecord> waiting = new ArrayList<>(held);
        held.clear();
        for (RequestRecord record : waiting) {
            placeOrHold(record, () -> ctx.getBroadcastState(MODELS), out, dl -> ctx.output(UNPLACED, dl));
        }
    }

    private RequestPlacer buildPlacer(String model, CatalogDag dag) {
        RequestPlacer placer = table == null || table.fallback() ? null : placers.create(model, dag, table, opsPerSecond);
        if (placer == null) {
            placer = new LocalPlacer(model, dag, opsPerSecond);
        }
        placerCache.put(model, placer);
        predictedJct.set(model, placer.predictedJctSeconds());
        return placer;
    }

    /** Stops using the servers not heard from within the liveness timeout (see {@link LiveServers}). */
    private void expireSilent(long now) {
        int before = servers.upCount();
        int[] first = {-1};
        servers.expireSilent(now, s -> {
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
            onServersChanged();
        }
    }

    /** The live servers changed: the placers' mean compute rate may have moved. */
    private void onServersChanged() {
        double nu = servers.meanOpsPerSecond();
        if (Math.abs(nu - opsPerSecond) > OPS_REBUILD_TOLERANCE * Math.max(opsPerSecond, Double.MIN_NORMAL)) {
            opsPerSecond = nu;
            tableDirty = true;
        }
    }

    private void refresh(ReadOnlyBroadcastState<String, ServerTelemetry> serverState,
            ReadOnlyBroadcastState<String, ControllerTable> tableState, ReadOnlyBroadcastState<String, Double> learned,
            long now) throws Exception {
        if (serversDirty) {
            // Once per operator instance; every later report updates the mapping in place (processBroadcastElement).
            var task = getRuntimeContext().getTaskInfo();
            servers = new LiveServers(targetOngoingRequests, task.getIndexOfThisSubtask(),
                    task.getNumberOfParallelSubtasks(), livenessTimeoutMillis);
            for (ServerTelemetry s : latestReports(serverState)) {
                ServerReports.apply(servers, s, learned.get(s.serverId()), now);
            }
            serversDirty = false;
            onServersChanged();
        }
        if (tableDirty) {
            table = tableState.get(CURRENT);
            if (bootstrap.table() != null && (table == null || bootstrap.table().version() > table.version())) {
                table = bootstrap.table();
            }
            tableVersion = table == null ? 0 : table.version();
            placerCache.clear();
            tableDirty = false;
        }
    }

    /**
     * The latest status of every server: the broadcast state's, and for a server it does not hold (or holds an older
     * status of), the bootstrap snapshot's; in the snapshot's order, then the state's.
     */
    private List<ServerTelemetry> latestReports(ReadOnlyBroadcastState<String, ServerTelemetry> serverState)
            throws Exception {
        Map<String, ServerTelemetry> latest = new LinkedHashMap<>();
        for (ServerTelemetry s : bootstrap.servers()) {
            latest.put(s.serverId(), s);
        }
        for (Map.Entry<String, ServerTelemetry> e : serverState.immutableEntries()) {
            latest.merge(e.getKey(), e.getValue(), (boot, reported) -> reported.eventTime() >= boot.eventTime()
                    ? reported : boot);
        }
        return new ArrayList<>(latest.values());
    }

    private void reject(RequestRecord record, String reason, Consumer<DeadLetter> deadLetters) {
        byte[] raw = requestSerde.serialize(record.request());
        deadLetters.accept(DeadLetter.of(raw, requestsTopic, record.partition(), record.offset(), reason,
                System.currentTimeMillis()));
        unplaced.inc();
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        heldState.update(held);
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        heldState = context.getOperatorStateStore().getListState(
                new ListStateDescriptor<>("held-requests", TypeInformation.of(RequestRecord.class)));
        held = new ArrayList<>();
        for (RequestRecord r : heldState.get()) {
            held.add(r);
        }
    }

    @Override
    public void processBroadcastElement(BroadcastUpdate update, Context ctx, Collector<PlacementDecision> out) throws Exception {
        if (update.table() != null) {
            BroadcastState<String, ControllerTable> state = ctx.getBroadcastState(TABLE);
            ControllerTable stored = state.get(CURRENT);
            if (stored == null || update.table().version() > stored.version()) {
                state.put(CURRENT, update.table());
                tableDirty = true;
            }
        } else if (update.server() != null) {
            BroadcastState<String, ServerTelemetry> state = ctx.getBroadcastState(SERVERS);
            ServerTelemetry stored = state.get(update.server().serverId());
            if (stored == null || update.server().eventTime() >= stored.eventTime()) {
                state.put(update.server().serverId(), update.server());
                if (servers == null) {
                    serversDirty = true;
                } else {
                    ServerReports.apply(servers, update.server(), ctx.getBroadcastState(LEARNED).get(update.server().serverId()),
                            ctx.currentProcessingTime());
                    onServersChanged();
                }
            }
        } else if (update.catalog() != null) {
            ctx.getBroadcastState(MODELS).put(update.catalog().model(), update.catalog().dag());
            tableDirty = true;
        } else if (update.commands() != null) {
            commandRules.store(ctx.getBroadcastState(COMMANDS), update.commands());
        } else if (update.learnedSpeeds() != null) {
            BroadcastState<String, Double> state = ctx.getBroadcastState(LEARNED);
            for (Map.Entry<String, Double> e : update.learnedSpeeds().entrySet()) {
                state.put(e.getKey(), e.getValue());
                if (servers != null) {
                    servers.recalibrate(e.getKey(), e.getValue());
                }
            }
            if (servers != null) {
                onServersChanged();
            }
        } else {
            ctx.getBroadcastState(MODELS).remove(update.removedModel());
            tableDirty = true;
        }
        releaseHeld(ctx, out);
    }

    private static byte[] encode(List<BroadcastUpdate> updates) {
        BroadcastUpdateSerializer serializer = new BroadcastUpdateSerializer();
        DataOutputSerializer out = new DataOutputSerializer(256 + 128 * updates.size());
        try {
            out.writeInt(updates.size());
            for (BroadcastUpdate u : updates) {
                serializer.serialize(u, out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the bootstrap snapshot", e);
        }
        return out.getCopyOfBuffer();
    }

    private static List<BroadcastUpdate> decode(byte[] bytes) {
        BroadcastUpdateSerializer serializer = new BroadcastUpdateSerializer();
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        try {
            int n = in.readInt();
            List<BroadcastUpdate> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(serializer.deserialize(in));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("BUG: cannot read the bootstrap snapshot this function wrote", e);
        }
    }

    /** The bootstrap snapshot, split by kind. */
    private record Bootstrap(ControllerTable table, List<ServerTelemetry> servers, Map<String, CatalogDag> models) {
        static Bootstrap of(List<BroadcastUpdate> updates) {
            ControllerTable table = null;
            List<ServerTelemetry> servers = new ArrayList<>();
            Map<String, CatalogDag> models = new HashMap<>();
            for (BroadcastUpdate u : updates) {
                if (u.table() != null && (table == null || u.table().version() > table.version())) {
                    table = u.table();
                } else if (u.server() != null) {
                    servers.add(u.server());
                } else if (u.catalog() != null) {
                    models.put(u.catalog().model(), u.catalog().dag());
                }
            }
            return new Bootstrap(table, servers, models);
        }
    }
}
