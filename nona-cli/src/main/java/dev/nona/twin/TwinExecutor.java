package dev.nona.twin;

import dev.nona.controller.catalog.CatalogDags;
import dev.nona.topics.Topics;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.OutcomeStatus;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the executor twin does with the records it reads, apart from Kafka: keeps the catalog, executes the first
 * decision per request id on its {@link TwinCluster} at the time it receives it, and on every {@link #tick} says
 * which outcomes and (once a second) which telemetry to publish. Every time is an argument, so a test drives it
 * with a fake clock. A decision it cannot execute (unparseable, unknown model, a stage on an unknown server,
 * stages that are not the model's tasks) is counted by kind and logged once per kind; it never stops the twin.
 *
 * <p>Not thread-safe, except the counters ({@link #summary}), which any thread may read.
 */
public final class TwinExecutor {
    private static final Logger LOG = LoggerFactory.getLogger(TwinExecutor.class);
    /** How long a request id is remembered for deduplication. */
    static final long DEDUPLICATION_MILLIS = 10 * 60_000L;
    static final long TELEMETRY_PERIOD_MILLIS = 1_000L;

    private final TwinCluster cluster;
    private final JsonSerde<ModelCatalogEntry> catalogSerde = JsonSerde.forTopic(Topics.MODEL_CATALOG);
    private final JsonSerde<PlacementDecision> decisionSerde = JsonSerde.forTopic(Topics.PLACEMENT_DECISIONS);
    private final Map<String, TwinModel> models = new HashMap<>();
    private final FirstDecisions firstDecisions = new FirstDecisions(DEDUPLICATION_MILLIS);
    private long nextTelemetryMillis;

    private final AtomicLong decisions = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicLong executed = new AtomicLong();
    private final AtomicLong okOutcomes = new AtomicLong();
    private final AtomicLong timeoutOutcomes = new AtomicLong();
    private final AtomicLong failedOutcomes = new AtomicLong();
    private final AtomicLong telemetry = new AtomicLong();
    private final AtomicLong catalogEntries = new AtomicLong();
    private final Map<String, AtomicLong> rejected = new ConcurrentHashMap<>();
    /** The cluster's figures as of the last tick, for {@link #summary} from other threads. */
    private volatile long inFlight;
    private volatile long coldStarts;
    private volatile double linkBusySeconds;
    private volatile long evictions;
    private volatile long memoryViolations;
    private volatile long memoryWaits;
    private volatile List<TwinCluster.ClassFigures> classes = List.of();

    /**
     * The twin's counters so far; {@code rejected} maps a kind of bad record to its count. With part caches:
     * {@code failedOutcomes} (decisions never run), {@code memoryViolations} (of them, those with a part larger than
     * its server's memory: must be 0 under a controller that respects memory), {@code memoryWaits} (parts that
     * waited for running parts to release memory), {@code evictions} (units of idle parts evicted); {@code classes}:
     * per server class, its busy fraction and the parts run on it.
     */
    public record Summary(long decisions, long duplicateDecisions, long executed, long okOutcomes,
            long timeoutOutcomes, long inFlight, long telemetryPublished, long catalogEntries, long coldStarts,
            double linkBusySeconds, Map<String, Long> rejected, long failedOutcomes, long evictions,
            long memoryViolations, long memoryWaits, List<TwinCluster.ClassFigures> classes) {
        public Summary {
            classes = List.copyOf(classes);
        }
    }

    public TwinExecutor(TwinOptions options, long originMillis) {
        this.cluster = new TwinCluster(options, originMillis);
        this.nextTelemetryMillis = originMillis;
    }

    /** A {@code model-catalog} record: a new or replaced DAG, or (null value) a removed model. */
    public void catalog(byte[] key, byte[] value) {
        if (value == null) {
            if (key != null) {
                models.remove(new String(key, StandardCharsets.UTF_8));
            }
            return;
        }
        Parsed<ModelCatalogEntry> parsed = catalogSerde.parse(value);
        if (!parsed.ok()) {
            reject("unparseable catalog entry", parsed.reason());
            return;
        }
        ModelCatalogEntry entry = parsed.value();
        try {
            models.put(entry.model(), new TwinModel(entry.model(), CatalogDags.sized(entry)));
            catalogEntries.incrementAndGet();
        } catch (IllegalArgumentException e) {
            reject("model too large", e.getMessage());
        }
    }

    /** A {@code placement-decisions} record received at {@code nowMillis}: executed unless bad or a duplicate. */
    public void decision(byte[] value, long nowMillis) {
        Parsed<PlacementDecision> parsed = decisionSerde.parse(value);
        if (!parsed.ok()) {
            reject("unparseable decision", parsed.reason());
            return;
        }
        PlacementDecision d = parsed.value();
        decisions.incrementAndGet();
        TwinModel model = models.get(d.model());
        if (model == null) {
            reject("unknown model", "decision for request '" + d.requestId() + "' names model '" + d.model()
                    + "', not in model-catalog");
            return;
        }
        if (!firstDecisions.first(d.requestId(), nowMillis)) {
            duplicates.incrementAndGet();
            return;
        }
        TwinCluster.Rejection bad = cluster.submit(d, model, nowMillis);
        if (bad != null) {
            reject(bad.kind(), "request '" + d.requestId() + "': " + bad.reason());
            return;
        }
        executed.incrementAndGet();
    }

    /** What to publish after a tick. */
    public record Tick(List<PlacementOutcome> outcomes, List<ServerTelemetry> telemetry) {}

    /**
     * Runs the cluster up to {@code nowMillis} and returns the outcomes of the requests that ended meanwhile and,
     * when a second has passed since the last, every live server's status.
     */
    public Tick tick(long nowMillis) {
        cluster.advanceTo(nowMillis);
        List<PlacementOutcome> outcomes = cluster.drainOutcomes();
        for (PlacementOutcome o : outcomes) {
            (o.status() == OutcomeStatus.OK ? okOutcomes
                    : o.status() == OutcomeStatus.TIMEOUT ? timeoutOutcomes : failedOutcomes).incrementAndGet();
        }
        inFlight = cluster.inFlight();
        coldStarts = cluster.coldStarts();
        linkBusySeconds = cluster.linkBusySeconds();
        evictions = cluster.evictions();
        memoryViolations = cluster.memoryViolations();
        memoryWaits = cluster.memoryWaits();
        classes = cluster.classFigures();
        List<ServerTelemetry> status = List.of();
        if (nowMillis >= nextTelemetryMillis) {
            status = cluster.telemetry(nowMillis);
            telemetry.addAndGet(status.size());
            nextTelemetryMillis = Math.max(nextTelemetryMillis + TELEMETRY_PERIOD_MILLIS, nowMillis + 1);
        }
        return new Tick(outcomes, status);
    }

    /** When the next tick has something to do: the cluster's next event or the next telemetry. */
    public long nextDueMillis() {
        return Math.min(cluster.nextEventMillis(), nextTelemetryMillis);
    }

    public Summary summary() {
        Map<String, Long> bad = new TreeMap<>();
        rejected.forEach((k, v) -> bad.put(k, v.get()));
        return new Summary(decisions.get(), duplicates.get(), executed.get(), okOutcomes.get(), timeoutOutcomes.get(),
                inFlight, telemetry.get(), catalogEntries.get(), coldStarts, linkBusySeconds, bad, failedOutcomes.get(),
                evictions, memoryViolations, memoryWaits, classes);
    }

    private void reject(String kind, String reason) {
        if (rejected.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet() == 1) {
            LOG.warn("executor twin: {} ({}); further records of this kind are only counted", kind, reason);
        }
    }
}
