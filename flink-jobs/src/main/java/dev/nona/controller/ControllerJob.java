package dev.nona.controller;

import dev.nona.controller.command.ActiveCommands;
import dev.nona.controller.command.CommandFunction;
import dev.nona.controller.command.CommandRecord;
import dev.nona.controller.logging.DeadLetterLog;
import dev.nona.controller.loop.ControlInput;
import dev.nona.controller.loop.ControlLoopFunction;
import dev.nona.controller.loop.PublishedTableVersions;
import dev.nona.controller.loop.ControlLoopSettings;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.optimize.NonaTableSolver;
import dev.nona.controller.optimize.TableSolver;
import dev.nona.controller.outcome.CalibrationFunction;
import dev.nona.controller.outcome.DecisionDigest;
import dev.nona.controller.outcome.DecisionSummary;
import dev.nona.controller.outcome.DecisionSummarySerializer;
import dev.nona.controller.outcome.JoinedOutcome;
import dev.nona.controller.outcome.OutcomeJoin;
import dev.nona.controller.outcome.OutcomeRecord;
import dev.nona.controller.placement.NonaPlacerFactory;
import dev.nona.controller.placement.BroadcastUpdate;
import dev.nona.controller.placement.BroadcastUpdateTypeInfo;
import dev.nona.controller.placement.PlacementFunction;
import dev.nona.controller.placement.PlacerFactory;
import dev.nona.controller.rates.RateEstimate;
import dev.nona.controller.rates.RateEstimator;
import dev.nona.controller.serde.JsonRecordTypeInfo;
import dev.nona.controller.source.ControlRecord;
import dev.nona.controller.source.RejectedRecords;
import dev.nona.controller.source.RequestRecord;
import dev.nona.controller.source.RequestTimestamps;
import dev.nona.optimize.CostModel;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.api.common.eventtime.SerializableTimestampAssigner;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.kafka.common.TopicPartition;

/**
 * The controller job (docs/design.md, "Data flow through the job"): requests, telemetry and the model catalog in; placement decisions, tables,
 * controller events and dead letters out. Takes its sources and sinks in the constructor, so the same wiring
 * runs against Kafka ({@link KafkaIo}) or against test sources and sinks.
 *
 * <pre>
 * requests --parse--+--> placement (broadcast: tables, servers, catalog) --> decisions
 *                   +--> model --keyBy--> RateEstimator --+
 * telemetry --------+-------------------------------------+--> ControlLoop (p=1) --> tables, events
 * catalog ----------+
 * decisions (read back) --digest (+catalog)--keyBy requestId--+--> OutcomeJoin --> Calibration (p=1, + catalog)
 * outcomes --parse--keyBy--------------------------------------+      --> CALIBRATION events; learned speeds and
 *                                                                          per-table JCT --> ControlLoop, placement
 * commands --CommandFunction (p=1)--> commands in force --> ControlLoop, placement (broadcast); rollbacks -->
 *                                      ControlLoop; COMMAND_APPLIED --> events
 * every rejected record ------------------------------------------------------------> dead letters
 * </pre>
 */
public final class ControllerJob {
    /**
     * The job's inputs.
     *
     * @param outcomes  the executors' outcomes, or {@code null} for a job that does not learn from outcomes (no
     *                  join, no {@code CALIBRATION} events)
     * @param decisions the job's own decisions read back (from {@code placement-decisions}) for the outcome join;
     *                  {@code null} exactly when {@code outcomes} is
     * @param commands  the operator's commands, or {@code null} for a job without them (no pins, drains, tenant
     *                  rules, freezes or operator rollbacks)
     */
    public record Sources(Source<RequestRecord, ?, ?> requests, Source<ControlRecord, ?, ?> telemetry,
            Source<ControlRecord, ?, ?> catalog, Source<OutcomeRecord, ?, ?> outcomes,
            Source<PlacementDecision, ?, ?> decisions, Source<CommandRecord, ?, ?> commands) {
        public Sources {
            if ((outcomes == null) != (decisions == null)) {
                throw new IllegalArgumentException("the outcome join needs both the outcomes and the decisions read back");
            }
        }

        /** Inputs without commands. */
        public Sources(Source<RequestRecord, ?, ?> requests, Source<ControlRecord, ?, ?> telemetry,
                Source<ControlRecord, ?, ?> catalog, Source<OutcomeRecord, ?, ?> outcomes,
                Source<PlacementDecision, ?, ?> decisions) {
            this(requests, telemetry, catalog, outcomes, decisions, null);
        }

        /** These inputs with the operator's commands. */
        public Sources withCommands(Source<CommandRecord, ?, ?> commands) {
            return new Sources(requests, telemetry, catalog, outcomes, decisions, commands);
        }

        /** Inputs without outcomes. */
        public Sources(Source<RequestRecord, ?, ?> requests, Source<ControlRecord, ?, ?> telemetry,
                Source<ControlRecord, ?, ?> catalog) {
            this(requests, telemetry, catalog, null, null);
        }
    }

    /** The job's outputs. */
    public record Sinks(Sink<PlacementDecision> decisions, Sink<ControllerTable> tables, Sink<ControllerEvent> events,
            Sink<DeadLetter> deadLetters) {}

    /** The streams the job builds, for tests and for jobs that add to it. */
    public record Streams(DataStream<PlacementDecision> decisions, DataStream<ControllerTable> tables,
            DataStream<ControllerEvent> events, DataStream<DeadLetter> deadLetters, DataStream<RateEstimate> rates) {}

    /** At most one WARN with dead-letter counts per this interval. */
    static final Duration DEAD_LETTER_LOG_INTERVAL = Duration.ofSeconds(10);

    private final ControllerConfig config;
    private final Sources sources;
    private final Sinks sinks;
    private final TableSolver solver;
    private final PlacerFactory placers;
    private final List<BroadcastUpdate> bootstrap;
    private final long lastTableVersion;
    private final PublishedTableVersions published;

    public ControllerJob(ControllerConfig config, Sources sources, Sinks sinks, TableSolver solver, PlacerFactory placers) {
        this(config, sources, sinks, solver, placers, List.of());
    }

    /**
     * @param bootstrap the placement operator's bootstrap snapshot (see {@link StartupSnapshot}): the catalog, the
     *                  operator's commands and the table it places with until the job's own broadcast state holds
     *                  newer ones; its commands are also those in force at start in the command operator and the
     *                  control loop
     */
    public ControllerJob(ControllerConfig config, Sources sources, Sinks sinks, TableSolver solver, PlacerFactory placers,
            List<BroadcastUpdate> bootstrap) {
        this(config, sources, sinks, solver, placers, bootstrap, 0);
    }

    /**
     * @param lastTableVersion the newest version of this controller's tables on {@code placement-tables} a fresh
     *                         start found: the control loop's first table is the next (0: version 1)
     */
    public ControllerJob(ControllerConfig config, Sources sources, Sinks sinks, TableSolver solver, PlacerFactory placers,
            List<BroadcastUpdate> bootstrap, long lastTableVersion) {
        this(config, sources, sinks, solver, placers, bootstrap, lastTableVersion, PublishedTableVersions.NONE);
    }

    /**
     * @param published the newest version of this controller's tables on {@code placement-tables}, read again each
     *                  time the control loop opens (a restart inside the job): versions never go back
     */
    public ControllerJob(ControllerConfig config, Sources sources, Sinks sinks, TableSolver solver, PlacerFactory placers,
            List<BroadcastUpdate> bootstrap, long lastTableVersion, PublishedTableVersions published) {
        this.lastTableVersion = lastTableVersion;
        this.published = Objects.requireNonNull(published, "published table versions");
        this.bootstrap = List.copyOf(Objects.requireNonNull(bootstrap, "bootstrap snapshot"));
        this.config = Objects.requireNonNull(config, "config");
        this.sources = Objects.requireNonNull(sources, "sources");
        this.sinks = Objects.requireNonNull(sinks, "sinks");
        this.solver = Objects.requireNonNull(solver, "table solver");
        this.placers = Objects.requireNonNull(placers, "placer factory");
    }

    /** The controller against Kafka, as configured, with Nona's optimiser and sampler: the production job. */
    public static Streams build(StreamExecutionEnvironment env, ControllerConfig config) {
        return build(env, config, List.of());
    }

    /**
     * The production job, whose placement starts from {@code bootstrap}; its command source reads the topic from
     * its beginning on a fresh start.
     */
    public static Streams build(StreamExecutionEnvironment env, ControllerConfig config, List<BroadcastUpdate> bootstrap) {
        return build(env, config, bootstrap, Map.of());
    }

    /**
     * The production job as a start finds it ({@link StartupSnapshot}): placement starts from the catalog, the
     * commands in force and the start table; the command operator and the control loop from the commands in force;
     * the command source, on a fresh start, from the offsets the start read them to.
     */
    public static Streams build(StreamExecutionEnvironment env, ControllerConfig config, StartupSnapshot start) {
        return build(env, config, start.updates(), start.commandOffsets(), start.newestTableVersion());
    }

    private static Streams build(StreamExecutionEnvironment env, ControllerConfig config, List<BroadcastUpdate> bootstrap,
            Map<TopicPartition, Long> commandOffsets) {
        return build(env, config, bootstrap, commandOffsets, 0);
    }

    private static Streams build(StreamExecutionEnvironment env, ControllerConfig config, List<BroadcastUpdate> bootstrap,
            Map<TopicPartition, Long> commandOffsets, long lastTableVersion) {
        return new ControllerJob(config, KafkaIo.sources(config, commandOffsets), KafkaIo.sinks(config),
                new NonaTableSolver(CostModel.named(config.solverCostModel())), new NonaPlacerFactory(), bootstrap,
                lastTableVersion, KafkaTableVersions.of(config)).addTo(env);
    }

    /** The newest commands in force of {@code bootstrap} (by sequence), or none. */
    static ActiveCommands startCommands(List<BroadcastUpdate> bootstrap) {
        ActiveCommands start = ActiveCommands.NONE;
        for (BroadcastUpdate u : bootstrap) {
            if (u.commands() != null && u.commands().sequence() >= start.sequence()) {
                start = u.commands();
            }
        }
        return start;
    }

    /** Adds the controller's operators to {@code env}. */
    public Streams addTo(StreamExecutionEnvironment env) {
        int p = config.parallelism();
        SingleOutputStreamOperator<RequestRecord> requests = env
                // Event time, bounded by the record timestamp (a skewed client clock cannot move the watermark).
                .fromSource(sources.requests(),
                        watermarks(config, new RequestTimestamps(config.outOfOrderness().toMillis())), "requests")
                .setParallelism(p).uid("requests-source")
                .process(RejectedRecords.requests()).setParallelism(p).uid("parse-requests").name("parse requests");
        SingleOutputStreamOperator<ControlInput> telemetry = controlSource(env, sources.telemetry(), "telemetry");
        SingleOutputStreamOperator<ControlInput> catalog = controlSource(env, sources.catalog(), "catalog");

        SingleOutputStreamOperator<RateEstimate> rates = requests
                .map(r -> r.request().model()).returns(Types.STRING).setParallelism(p).name("model of request")
                .keyBy(m -> m)
                .process(new RateEstimator(config.rateWindow().toMillis())).setParallelism(p)
                .uid("rate-estimator").name("rate estimator");

        Learning learning = sources.outcomes() == null ? null : learnFromOutcomes(env, catalog);
        DataStream<ControlInput> controlInputs = rates
                .map(ControlInput::of).returns(JsonRecordTypeInfo.of(ControlInput.class)).setParallelism(p)
                .union(telemetry, catalog);
        if (learning != null) {
            controlInputs = controlInputs.union(learning.learned());
        }
        Commands commands = sources.commands() == null ? null : commands(env);
        if (commands != null) {
            controlInputs = controlInputs.union(commands.toControlLoop());
        }
        SingleOutputStreamOperator<ControllerTable> tables = controlInputs
                .keyBy(x -> ControlLoopFunction.KEY, Types.STRING)
                .process(new ControlLoopFunction(ControlLoopSettings.of(config), solver, startCommands(bootstrap),
                        lastTableVersion, published))
                .returns(JsonRecordTypeInfo.of(ControllerTable.class))
                .setParallelism(1).setMaxParallelism(1).uid("control-loop").name("control loop");
        if (!config.controlSlotSharingGroup().isEmpty()) {
            // its own slot: on a cluster the job then spans two TaskManagers (control.slot-sharing-group)
            tables.slotSharingGroup(config.controlSlotSharingGroup());
        }
        DataStream<ControllerEvent> events = tables.getSideOutput(ControlLoopFunction.EVENTS);

        DataStream<ControlInput> toPlacement = telemetry.union(catalog);
        if (learning != null) {
            toPlacement = toPlacement.union(learning.learned()); // the learned speeds replace the reported ones
        }
        DataStream<BroadcastUpdate> updates = tables
                .map(BroadcastUpdate::of).returns(new BroadcastUpdateTypeInfo()).setParallelism(1)
                .union(toPlacement
                        .map(ControllerJob::toUpdate).returns(new BroadcastUpdateTypeInfo())
                        .setParallelism(1));
        // Commands reach placement at the request path's buffer timeout, not the control path's 100 ms: they are
        // rare, and the COMMAND_APPLIED acknowledgement (events sink, 100 ms, then Kafka) must not overtake them.
        SingleOutputStreamOperator<BroadcastUpdate> commandUpdates = null;
        if (commands != null) {
            commandUpdates = commands.inForce()
                    .map(BroadcastUpdate::of).returns(new BroadcastUpdateTypeInfo()).setParallelism(1)
                    .name("commands to placement");
            updates = updates.union(commandUpdates);
        }
        SingleOutputStreamOperator<PlacementDecision> decisions = requests
                .connect(updates.broadcast(PlacementFunction.BROADCAST_STATES))
                .process(new PlacementFunction(config.topics().requests(), config.targetOngoingRequests(), placers,
                        bootstrap, config.startupBuffer(), config.livenessTimeout().toMillis(), config.decisionsFormat(),
                        config.holdTimeout().toMillis()).coldStart(config.coldStart().fixedSeconds(),
                        config.coldStart().loadBytesPerSecond(), config.coldStart().weight())
                        .rentHalfLife(config.coldStart().rentHalfLife()))
                .returns(JsonRecordTypeInfo.of(PlacementDecision.class)) // immutable: chained operators pass it on uncopied
                .setParallelism(p).uid("placement").name("placement");

        events = events.union(decisions.getSideOutput(PlacementFunction.EVENTS)); // REQUESTS_HELD, REQUESTS_RELEASED
        DataStream<DeadLetter> deadLetters = requests.getSideOutput(RejectedRecords.REQUEST_DEAD_LETTERS)
                .union(telemetry.getSideOutput(RejectedRecords.CONTROL_DEAD_LETTERS),
                        catalog.getSideOutput(RejectedRecords.CONTROL_DEAD_LETTERS),
                        decisions.getSideOutput(PlacementFunction.UNPLACED),
                        tables.getSideOutput(ControlLoopFunction.COMMAND_DEAD_LETTERS));
        if (learning != null) {
            events = events.union(learning.events());
            deadLetters = deadLetters.union(learning.deadLetters());
        }
        if (commands != null) {
            events = events.union(commands.active().getSideOutput(CommandFunction.EVENTS));
            deadLetters = deadLetters.union(commands.active().getSideOutput(CommandFunction.DEAD_LETTERS));
        }

        decisions.sinkTo(sinks.decisions()).setParallelism(p).uid("decisions-sink").name("decisions sink");
        tables.sinkTo(sinks.tables()).setParallelism(1).uid("tables-sink").name("tables sink");
        events.sinkTo(sinks.events()).setParallelism(1).uid("events-sink").name("events sink");
        deadLetters = deadLetters.process(new DeadLetterLog(DEAD_LETTER_LOG_INTERVAL.toMillis()))
                .returns(JsonRecordTypeInfo.of(DeadLetter.class)).setParallelism(1)
                .uid("dead-letters-log").name("dead letters log");
        deadLetters.sinkTo(sinks.deadLetters()).setParallelism(1).uid("dead-letters-sink").name("dead letters sink");
        controlPathBufferTimeout(env, controlBufferTimeout(config), commandUpdates == null
                ? Set.of(requests.getTransformation())
                : Set.of(requests.getTransformation(), commandUpdates.getTransformation()));
        return new Streams(decisions, tables, events, deadLetters, rates);
    }

    /**
     * The network buffer timeout of every edge off the request path: Flink's default (100 ms), or
     * {@code network.buffer-timeout} when that is longer. Only the edges out of the request parser (to placement,
     * and its dead letters) and the operator commands' edge to placement flush at {@code network.buffer-timeout}:
     * each network output with a timeout has its own flusher thread waking once per timeout, and at 1 ms the job's
     * ~20 outputs woke 20,000 times a second (7-8% of the CPU at 20,000 requests/s, bin/nona bench latency,
     * docs/benchmarks.md), for telemetry, tables, rates and events that a few milliseconds do not change.
     */
    static long controlBufferTimeout(ControllerConfig config) {
        return Math.max(CONTROL_BUFFER_TIMEOUT.toMillis(), config.bufferTimeout().toMillis());
    }

    /** Flink's default network buffer timeout, for the edges off the request path. */
    static final Duration CONTROL_BUFFER_TIMEOUT = Duration.ofMillis(100);

    /**
     * Sets {@code millis} as the buffer timeout of every transformation of {@code env} (and their inputs) but
     * {@code requestPath}, which keeps the job's default ({@code network.buffer-timeout}, or a {@code flink.} override).
     * A walk over the whole graph, so that operators added later to the control path get it too.
     */
    private static void controlPathBufferTimeout(StreamExecutionEnvironment env, long millis,
            Set<Transformation<?>> requestPath) {
        Deque<Transformation<?>> todo = new ArrayDeque<>(env.getTransformations());
        Set<Integer> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            Transformation<?> t = todo.pop();
            if (!seen.add(t.getId())) {
                continue;
            }
            if (!requestPath.contains(t)) {
                t.setBufferTimeout(millis);
            }
            todo.addAll(t.getInputs());
        }
    }

    /**
     * The outcome path's outputs: calibration events, rejected outcomes, and what each window learned (for the
     * control loop and the placement operator).
     */
    private record Learning(DataStream<ControllerEvent> events, DataStream<DeadLetter> deadLetters,
            DataStream<ControlInput> learned) {}

    /**
     * Outcomes joined by request id with the job's own decisions, read back from {@code placement-decisions} (not
     * taken from the placement operator: the request path carries nothing for the outcome path, and the learned
     * values can flow back into the control loop and placement without a cycle in the job graph), and the
     * calibration they give.
     */
    private Learning learnFromOutcomes(StreamExecutionEnvironment env, DataStream<ControlInput> catalog) {
        int p = config.parallelism();
        SingleOutputStreamOperator<PlacementOutcome> outcomes = env
                .fromSource(sources.outcomes(), WatermarkStrategy.noWatermarks(), "outcomes")
                .setParallelism(p).uid("outcomes-source")
                .process(RejectedRecords.outcomes()).returns(JsonRecordTypeInfo.of(PlacementOutcome.class))
                .setParallelism(p).uid("parse-outcomes").name("parse outcomes");
        ControllerConfig.OutcomeSettings settings = config.outcomes();
        // Summarised next to placement (forward), so that the join holds a few numbers per decision, not its stages.
        SingleOutputStreamOperator<DecisionSummary> summaries = env
                .fromSource(sources.decisions(), WatermarkStrategy.noWatermarks(), "decisions read back")
                .setParallelism(p).uid("decisions-read-back")
                .connect(catalog.broadcast(DecisionDigest.TASK_OPS))
                .process(new DecisionDigest()).returns(new DecisionSummarySerializer.TypeInfo())
                .setParallelism(p).uid("decision-digest").name("decision digest");
        SingleOutputStreamOperator<JoinedOutcome> joined = summaries
                .keyBy(DecisionSummary::requestId, Types.STRING)
                .connect(outcomes.keyBy(PlacementOutcome::requestId, Types.STRING))
                .process(new OutcomeJoin(config.topics().outcomes(), settings.maxWait().toMillis(),
                        settings.decisionWait().toMillis()))
                .returns(JsonRecordTypeInfo.of(JoinedOutcome.class))
                .setParallelism(p).uid("outcome-join").name("outcome join");
        SingleOutputStreamOperator<ControllerEvent> calibration = joined
                .keyBy(x -> CalibrationFunction.KEY, Types.STRING)
                .connect(catalog.keyBy(x -> CalibrationFunction.KEY, Types.STRING))
                .process(new CalibrationFunction(config.rateWindow().toMillis()))
                .returns(JsonRecordTypeInfo.of(ControllerEvent.class))
                .setParallelism(1).setMaxParallelism(1).uid("calibration").name("calibration");
        // The outcome path has no event time (its sources emit no watermarks), so its output would hold the control
        // loop's and placement's event time back forever: it is marked idle instead, which leaves their event time to
        // their other inputs. (Not the final watermark: when the other inputs are idle too, the control loop's event
        // time then jumped to the end of time, and no rate window closed again.)
        DataStream<ControlInput> learned = calibration.getSideOutput(CalibrationFunction.LEARNED)
                .assignTimestampsAndWatermarks(WatermarkStrategy.<ControlInput>forGenerator(c -> new NoEventTime<>()))
                .setParallelism(1).name("learned (no event time)");
        return new Learning(calibration, outcomes.getSideOutput(RejectedRecords.OUTCOME_DEAD_LETTERS)
                .union(joined.getSideOutput(OutcomeJoin.DEAD_LETTERS)), learned);
    }

    /** The command operator's output: the commands in force, and its inputs for the control loop. */
    private record Commands(SingleOutputStreamOperator<ActiveCommands> active, DataStream<ActiveCommands> inForce,
            DataStream<ControlInput> toControlLoop) {}

    /**
     * The operator's commands: read (on a fresh start from where {@link StartupSnapshot} stopped, or from the
     * beginning of the compacted topic), kept in force by
     * the {@link CommandFunction} and sent, without event time (they must not hold back the control loop's or
     * placement's watermark), to the control loop and the placement operator.
     */
    private Commands commands(StreamExecutionEnvironment env) {
        SingleOutputStreamOperator<ActiveCommands> active = env
                .fromSource(sources.commands(), WatermarkStrategy.noWatermarks(), "commands")
                .setParallelism(1).uid("commands-source")
                .keyBy(x -> CommandFunction.KEY, Types.STRING)
                .process(new CommandFunction(startCommands(bootstrap))).returns(JsonRecordTypeInfo.of(ActiveCommands.class))
                .setParallelism(1).setMaxParallelism(1).uid("commands").name("operator commands");
        DataStream<ActiveCommands> inForce = active
                .assignTimestampsAndWatermarks(WatermarkStrategy.<ActiveCommands>forGenerator(c -> new NoEventTime<>()))
                .setParallelism(1).name("commands in force (no event time)");
        DataStream<ControlInput> toLoop = inForce
                .map(ControlInput::of).returns(JsonRecordTypeInfo.of(ControlInput.class)).setParallelism(1)
                .union(active.getSideOutput(CommandFunction.ROLLBACKS)
                        .assignTimestampsAndWatermarks(WatermarkStrategy.<CommandRecord>forGenerator(c -> new NoEventTime<>()))
                        .setParallelism(1).name("rollbacks (no event time)")
                        .map(ControlInput::rollback).returns(JsonRecordTypeInfo.of(ControlInput.class)).setParallelism(1));
        return new Commands(active, inForce, toLoop);
    }

    /** A stream without event time: always idle, so it neither holds back nor moves the event time of a stream it joins. */
    static final class NoEventTime<T> implements WatermarkGenerator<T> {
        @Override
        public void onEvent(T event, long eventTimestamp, WatermarkOutput output) {}

        @Override
        public void onPeriodicEmit(WatermarkOutput output) {
            output.markIdle();
        }
    }

    private SingleOutputStreamOperator<ControlInput> controlSource(StreamExecutionEnvironment env,
            Source<ControlRecord, ?, ?> source, String name) {
        return env.fromSource(source, watermarks(config, (ControlRecord r, long ts) -> r.time()), name)
                .setParallelism(1).uid(name + "-source")
                .process(RejectedRecords.controls()).returns(JsonRecordTypeInfo.of(ControlInput.class))
                .setParallelism(1).uid("parse-" + name).name("parse " + name);
    }

    private static BroadcastUpdate toUpdate(ControlInput in) {
        if (in.server() != null) {
            return BroadcastUpdate.of(in.server(), in.partitionOrNone());
        }
        if (in.catalog() != null) {
            return BroadcastUpdate.of(in.catalog());
        }
        if (in.learned() != null) {
            return BroadcastUpdate.learned(in.learned().opsPerSecond());
        }
        if (in.removedModel() != null) {
            return BroadcastUpdate.removed(in.removedModel());
        }
        if (in.commands() != null) {
            return BroadcastUpdate.of(in.commands());
        }
        throw new IllegalStateException("BUG: rate estimates are not broadcast");
    }

    /** Bounded out-of-orderness with idle-source handling, as configured. */
    static <T> WatermarkStrategy<T> watermarks(ControllerConfig config,
            SerializableTimestampAssigner<T> timestamps) {
        Duration idle = config.idleness();
        return WatermarkStrategy.<T>forBoundedOutOfOrderness(config.outOfOrderness())
                .withTimestampAssigner(timestamps)
                .withIdleness(idle);
    }
}
