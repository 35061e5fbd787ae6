package dev.nona.chaos;

import dev.nona.chaos.Violation.Invariant;
import dev.nona.topics.Topics;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.IntToLongFunction;

/**
 * The invariants of a chaos run, checked record by record as the controller's outputs arrive:
 * <ul>
 *   <li>every request decided: by the end (after the drain) each request {@code c-<i>} sent has a decision; the
 *       first per id wins, later ones count as duplicates;</li>
 *   <li>no stage on a silent server: a decision of a request made at $t$ puts no stage on a server whose last report
 *       before its silence was made before $t - $ ({@code cluster.liveness-timeout} + 1 s), unless the decision was
 *       written after the server reported again ({@link ServerOutages}, by report time);</li>
 *   <li>table versions never go back: per {@code tableId}, a {@code placement-tables} record's version is at least
 *       the previous one's, unless a {@code TABLE_ROLLED_BACK} event named it;</li>
 *   <li>no valid request dead-lettered: a dead letter of {@code inference-requests} whose raw value parses as a
 *       request is a violation.</li>
 * </ul>
 * Also notes which models were decided from a solved table for the readiness checks ({@code ready-<model>-<k>}),
 * and when each decision was written ({@link DecisionTimes}), for how soon decisions resumed after each fault
 * ({@link #resumptions}). Thread safe (one lock); its memory is a bit per request and a bit per millisecond.
 */
final class InvariantChecker {
    static final String PREFIX = "c-";
    static final String READY = "ready-";
    /** The margin over the liveness timeout, as the issue states the rule. */
    static final long MARGIN_MILLIS = 1_000;
    private static final int MAX_REPORTED = 50;

    private final long seed;
    private final long livenessTimeoutMillis;
    private final ServerOutages outages;
    private final Consumer<Violation> onViolation;
    private final JsonSerde<InferenceRequest> requests = JsonSerde.forTopic(Topics.INFERENCE_REQUESTS);
    private final BitSet decided = new BitSet();
    private final Set<String> readyModels = new HashSet<>();
    private final Map<String, Long> tableVersions = new HashMap<>();
    private final Set<Long> rolledBackTo = new HashSet<>();
    private final Map<Invariant, Long> checked = new EnumMap<>(Invariant.class);
    private final Map<Invariant, Long> broken = new EnumMap<>(Invariant.class);
    private final List<Violation> violations = new ArrayList<>();
    private final DecisionTimes times;
    private long decisions;
    private long duplicates;
    private long deadLetters;
    private long tables;

    /**
     * {@code onViolation} hears of each violation as it is found (while the run goes on), under the lock; decisions
     * written before {@code originEpochMillis} are not timed ({@link DecisionTimes}).
     */
    InvariantChecker(long seed, long livenessTimeoutMillis, ServerOutages outages, Consumer<Violation> onViolation,
            long originEpochMillis) {
        this.seed = seed;
        this.times = new DecisionTimes(originEpochMillis);
        this.livenessTimeoutMillis = livenessTimeoutMillis;
        this.outages = Objects.requireNonNull(outages, "outages");
        this.onViolation = Objects.requireNonNull(onViolation, "violation listener");
        for (Invariant i : Invariant.values()) {
            checked.put(i, 0L);
            broken.put(i, 0L);
        }
    }

    /** A decision, written (its record timestamp) at {@code writtenAt}. */
    synchronized void decision(PlacementDecision d, long writtenAt) {
        decisions++;
        times.add(writtenAt);
        String id = d.requestId();
        if (id.startsWith(READY)) {
            if (d.tableVersion() > 0 && !d.fallback()) {
                readyModels.add(d.model());
            }
            return;
        }
        int i = index(id);
        if (i < 0) {
            return; // not this run's
        }
        if (decided.get(i)) {
            duplicates++;
        }
        decided.set(i);
        for (StageAssignment stage : d.placedStages()) {
            checked.merge(Invariant.NO_STAGE_ON_SILENT_SERVER, 1L, Long::sum);
            Optional<ServerOutages.Outage> o = outages.at(stage.server(), d.eventTime());
            if (o.isPresent() && d.eventTime() > o.get().lastReport() + livenessTimeoutMillis + MARGIN_MILLIS
                    && writtenAt < o.get().firstReport()) {
                violate(Invariant.NO_STAGE_ON_SILENT_SERVER, id + " on " + stage.server(), d.eventTime(),
                        "stage '" + stage.task() + "' on " + stage.server() + ", whose last report was made "
                        + (d.eventTime() - o.get().lastReport()) + " ms before the request (timeout "
                        + livenessTimeoutMillis + " ms + " + MARGIN_MILLIS + " ms), written at " + writtenAt
                        + " (table version " + d.tableVersion() + (d.fallback() ? ", fallback" : "") + ")");
                break;
            }
        }
    }

    synchronized void deadLetter(DeadLetter dl) {
        deadLetters++;
        if (!dl.sourceTopic().equals(Topics.INFERENCE_REQUESTS.name())) {
            return;
        }
        checked.merge(Invariant.NO_VALID_REQUEST_DEAD_LETTERED, 1L, Long::sum);
        byte[] raw = dl.raw();
        Parsed<InferenceRequest> r = raw == null || dl.truncated() ? null : requests.parse(raw);
        if (r != null && r.ok()) {
            violate(Invariant.NO_VALID_REQUEST_DEAD_LETTERED, r.value().id(), dl.time(),
                    "valid request (model " + r.value().model() + ") dead-lettered: " + dl.reason());
        }
    }

    synchronized void table(PlacementTableRecord t) {
        tables++;
        checked.merge(Invariant.TABLE_VERSIONS_NEVER_GO_BACK, 1L, Long::sum);
        Long previous = tableVersions.get(t.tableId());
        if (previous != null && t.version() < previous && !rolledBackTo.contains(t.version())) {
            violate(Invariant.TABLE_VERSIONS_NEVER_GO_BACK, t.tableId(), t.createdAt(), "version " + t.version()
                    + " published after version " + previous + " with no TABLE_ROLLED_BACK event naming it");
        }
        tableVersions.merge(t.tableId(), t.version(), Math::max);
    }

    synchronized void event(ControllerEvent e) {
        if (e.type() == ControllerEventType.TABLE_ROLLED_BACK) {
            for (String field : List.of("tableVersion", "restoredVersion")) {
                if (e.details().get(field) instanceof Number n) {
                    rolledBackTo.add(n.longValue());
                }
            }
        }
    }

    /** After the drain: every request {@code c-0 .. c-(sent-1)} must have a decision; {@code sentAt} gives each
     *  request's time. */
    synchronized void finish(int sent, IntToLongFunction sentAt) {
        checked.merge(Invariant.EVERY_REQUEST_DECIDED, (long) sent, Long::sum);
        for (int i = decided.nextClearBit(0); i < sent; i = decided.nextClearBit(i + 1)) {
            violate(Invariant.EVERY_REQUEST_DECIDED, PREFIX + i, sentAt.applyAsLong(i),
                    "no decision by the end of the drain");
        }
    }

    /**
     * How soon decisions resumed after each of {@code injected} (in its order), whose times are from the start of the
     * traffic at {@code trafficStartEpochMillis}; the last request was sent at {@code lastSentEpochMillis}.
     */
    synchronized List<Resumption> resumptions(List<FaultRunner.Injected> injected, long trafficStartEpochMillis,
            long lastSentEpochMillis) {
        return Resumption.of(injected, trafficStartEpochMillis, lastSentEpochMillis, times);
    }

    synchronized int decided(int sent) {
        return decided.get(0, sent).cardinality();
    }

    synchronized Set<String> readyModels() {
        return Set.copyOf(readyModels);
    }

    synchronized long duplicates() {
        return duplicates;
    }

    synchronized long decisions() {
        return decisions;
    }

    synchronized long deadLetters() {
        return deadLetters;
    }

    synchronized long tables() {
        return tables;
    }

    /** Per invariant: how many things were checked and how many broke it. */
    synchronized Map<String, Map<String, Long>> counts() {
        Map<String, Map<String, Long>> out = new LinkedHashMap<>();
        for (Invariant i : Invariant.values()) {
            out.put(i.key(), Map.of("checked", checked.get(i), "violations", broken.get(i)));
        }
        return out;
    }

    synchronized long violationCount() {
        return broken.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The first {@value #MAX_REPORTED} violations. */
    synchronized List<Violation> violations() {
        return List.copyOf(violations);
    }

    private void violate(Invariant invariant, String subject, long at, String detail) {
        broken.merge(invariant, 1L, Long::sum);
        Violation v = new Violation(invariant, subject, at, detail, seed);
        if (violations.size() < MAX_REPORTED) {
            violations.add(v);
            onViolation.accept(v);
        }
    }

    /** {@code i} of an id {@code c-<i>}, else -1. */
    static int index(String id) {
        if (!id.startsWith(PREFIX) || id.length() == PREFIX.length() || id.length() > PREFIX.length() + 9) {
            return -1;
        }
        int i = 0;
        for (int k = PREFIX.length(); k < id.length(); k++) {
            int digit = id.charAt(k) - '0';
            if (digit < 0 || digit > 9) {
                return -1;
            }
            i = i * 10 + digit;
        }
        return i;
    }
}
