package dev.nona.topics;

import dev.nona.topics.record.ControllerCommand;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.record.ServerTelemetry;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The controller's topics, exactly as in docs/design.md, "Topics". Names are fixed: they are the contract with the users who
 * publish requests, telemetry and the catalog, and with the executors, routers and dashboards that read the rest.
 */
public final class Topics {
    /**
     * 32 MiB, the largest {@code placement-tables} record (topic {@code max.message.bytes}, and the tables producer's
     * {@code max.request.size}): a table grows with the models (about 10 KB per zoo model) and the servers (their
     * ids, about 15 bytes each); 1,000 models on 10,000 servers measure about 10 MB (TableSizeBenchmark).
     */
    public static final int TABLE_MAX_BYTES = 32 << 20;
    /**
     * 2 MiB, the largest {@code dead-letters} record (topic and producer): room for dead letters built with a raw
     * cap above the default 256 KiB (base64 adds 1/3).
     */
    public static final int DEAD_LETTER_MAX_BYTES = 2 << 20;
    static final String TABLE_MAX_MESSAGE_BYTES = String.valueOf(TABLE_MAX_BYTES);
    static final String DEAD_LETTER_MAX_MESSAGE_BYTES = String.valueOf(DEAD_LETTER_MAX_BYTES);

    public static final TopicSpec<InferenceRequest> INFERENCE_REQUESTS = new TopicSpec<>(
            "inference-requests", InferenceRequest.class, "request id", 6, CleanupPolicy.DELETE, Map.of());
    public static final TopicSpec<ServerTelemetry> CLUSTER_TELEMETRY = new TopicSpec<>(
            "cluster-telemetry", ServerTelemetry.class, "server id", 3, CleanupPolicy.DELETE, Map.of());
    public static final TopicSpec<ModelCatalogEntry> MODEL_CATALOG = new TopicSpec<>(
            "model-catalog", ModelCatalogEntry.class, "model", 1, CleanupPolicy.COMPACT, Map.of());
    public static final TopicSpec<PlacementDecision> PLACEMENT_DECISIONS = new TopicSpec<>(
            "placement-decisions", PlacementDecision.class, "request id", 6, CleanupPolicy.DELETE, Map.of());
    /**
     * What happened to each placed request, written by its executor (the executor twin, or a real serving system)
     * and read by the controller, which joins it with the decision by request id.
     */
    public static final TopicSpec<PlacementOutcome> PLACEMENT_OUTCOMES = new TopicSpec<>(
            "placement-outcomes", PlacementOutcome.class, "request id", 6, CleanupPolicy.DELETE, Map.of());
    public static final TopicSpec<PlacementTableRecord> PLACEMENT_TABLES = new TopicSpec<>(
            "placement-tables", PlacementTableRecord.class, "table id", 1, CleanupPolicy.COMPACT,
            Map.of("max.message.bytes", TABLE_MAX_MESSAGE_BYTES));
    public static final TopicSpec<ControllerEvent> CONTROLLER_EVENTS = new TopicSpec<>(
            "controller-events", ControllerEvent.class, "none", 1, CleanupPolicy.DELETE, Map.of());
    public static final TopicSpec<DeadLetter> DEAD_LETTERS = new TopicSpec<>(
            "dead-letters", DeadLetter.class, "none", 1, CleanupPolicy.DELETE,
            Map.of("max.message.bytes", DEAD_LETTER_MAX_MESSAGE_BYTES));

    /**
     * Operator commands (pin, drain, roll back, freeze, tenant rules), compacted by scope so that a fresh start
     * re-reads the latest command of every scope ({@link ControllerCommand#scope()}).
     */
    public static final TopicSpec<ControllerCommand> CONTROLLER_COMMANDS = new TopicSpec<>(
            "controller-commands", ControllerCommand.class,
            "scope (pin:<model>, drain:<server>, tenant:<tenant>, freeze, rollback)", 1, CleanupPolicy.COMPACT, Map.of());

    private static final List<TopicSpec<?>> ALL = List.of(INFERENCE_REQUESTS, CLUSTER_TELEMETRY, MODEL_CATALOG,
            PLACEMENT_DECISIONS, PLACEMENT_OUTCOMES, PLACEMENT_TABLES, CONTROLLER_EVENTS, DEAD_LETTERS,
            CONTROLLER_COMMANDS);

    private Topics() {
    }

    /** Every topic, in the order of docs/design.md, "Topics" (with {@code placement-outcomes} after the decisions it reports on). */
    public static List<TopicSpec<?>> all() {
        return ALL;
    }

    /** The topic with this name, if it is one of ours. */
    public static Optional<TopicSpec<?>> byName(String name) {
        return ALL.stream().filter(t -> t.name().equals(name)).findFirst();
    }
}
