package dev.nona.controller.placement;

import dev.nona.controller.source.RequestRecord;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * The requests the placement operator holds while the controller starts (no server is up, no model is known yet,
 * or a model no server holds whole has no table to split it yet) or while telemetry is behind a request's time
 * ({@link TelemetryGate}): up to a fixed number, in arrival order,
 * each for at most the hold timeout; beyond the number a request cannot be held ({@link #overflowReason}), and past
 * the timeout a held one is taken back ({@link #expire}) to become a dead letter ({@link #timeoutReason}). The
 * operator checkpoints them as operator state ({@link #descriptor}) and places them as soon as telemetry and the
 * catalog arrive.
 *
 * <p>A <em>hold</em> runs from the first request held while none was to the moment none is held; it counts the held
 * requests placed and those that became dead letters, for the events at its start and end. The time each request was
 * held since is not checkpointed: after a restore the held requests count as held since the restore.
 *
 * <p>Not thread safe: one per operator instance (its size may be read by a metrics gauge).
 */
final class StartupHold {
    /** A held request and since when it is held (processing time, epoch ms). */
    record Held(RequestRecord record, long since) {}

    /** Why requests are held: a few words (the {@code REQUESTS_HELD} event), and what a dead letter says. */
    enum Reason {
        NO_SERVER("no server is up", "no server is up (no telemetry yet, or every server is down)"),
        NO_CATALOG("the model catalog is empty", "the model catalog is empty"),
        TELEMETRY_BEHIND("telemetry is behind", "telemetry has not reached the request's time (which servers were "
                + "live then is not known yet)"),
        AWAITING_SPLIT("no table splits the model yet", "the model fits no live server whole and no placement table "
                + "splits it into parts yet");

        private final String brief;
        private final String detail;

        Reason(String brief, String detail) {
            this.brief = brief;
            this.detail = detail;
        }
    }

    private final int capacity;
    private final long timeoutMillis;
    private final ArrayDeque<Held> held = new ArrayDeque<>();
    /** When the current hold started (processing time), or -1 if none runs. */
    private long holdStart = -1;
    private int placed;
    private int deadLettered;

    /**
     * @param capacity      requests held at most ({@code placement.startup-buffer})
     * @param timeoutMillis how long a request is held at most ({@code placement.hold-timeout}), {@code > 0}
     */
    StartupHold(int capacity, long timeoutMillis) {
        this.capacity = checkCapacity(capacity);
        this.timeoutMillis = checkTimeout(timeoutMillis);
    }

    /** {@code capacity}, checked: requests held at most must be {@code >= 0}. */
    static int checkCapacity(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("placement.startup-buffer (" + capacity + ") must be >= 0");
        }
        return capacity;
    }

    /** {@code timeoutMillis}, checked: how long a request is held at most must be {@code > 0}. */
    static long checkTimeout(long timeoutMillis) {
        if (timeoutMillis <= 0) {
            throw new IllegalArgumentException("placement.hold-timeout (" + timeoutMillis + " ms) must be > 0");
        }
        return timeoutMillis;
    }

    /** The operator state the held requests are checkpointed in. */
    static ListStateDescriptor<RequestRecord> descriptor() {
        return new ListStateDescriptor<>("held-requests", TypeInformation.of(RequestRecord.class));
    }

    /**
     * Holds {@code record}, held since {@code since} (now for a new request, its first hold for one held again), if
     * there is room; returns whether it did.
     */
    boolean hold(RequestRecord record, long since) {
        if (held.size() >= capacity) {
            return false;
        }
        held.add(new Held(record, since));
        return true;
    }

    /** Why a request that cannot be held, for {@code reason}, is not placed. */
    String overflowReason(Reason reason) {
        return reason.detail + " and the startup buffer (" + capacity + " requests) is full";
    }

    /** Why a request held past the timeout, for {@code reason}, is not placed. */
    String timeoutReason(Reason reason) {
        return "held for more than placement.hold-timeout (" + timeoutMillis + " ms) while " + reason.detail;
    }

    /** Takes every held request, in arrival order, leaving none held (place them, or hold them again). */
    List<Held> release() {
        List<Held> out = new ArrayList<>(held);
        held.clear();
        return out;
    }

    /** Takes the requests held for longer than the timeout at {@code now}, oldest first (they become dead letters). */
    List<Held> expire(long now) {
        if (now < nextExpiry()) { // called before every placement: nothing to allocate when nothing is due
            return List.of();
        }
        List<Held> out = new ArrayList<>();
        while (!held.isEmpty() && now - held.peek().since() > timeoutMillis) {
            out.add(held.poll());
        }
        return out;
    }

    /** The request held longest, or null if none is held. */
    Held oldest() {
        return held.peek();
    }

    /** When the oldest held request expires, or {@link Long#MAX_VALUE} if none is held. */
    long nextExpiry() {
        return held.isEmpty() ? Long.MAX_VALUE : held.peek().since() + timeoutMillis + 1;
    }

    /** Holds the requests of a checkpoint (all of them: a restore never drops what was held), held since {@code now}. */
    void restore(Iterable<RequestRecord> records, long now) {
        for (RequestRecord r : records) {
            held.add(new Held(r, now));
        }
    }

    /** The held requests, in arrival order, to checkpoint. */
    List<RequestRecord> held() {
        return held.stream().map(Held::record).toList();
    }

    /** A held request was placed. */
    void placed() {
        placed++;
    }

    /** A held request became a dead letter. */
    void deadLettered(int n) {
        deadLettered += n;
    }

    /**
     * Starts a hold if requests are held and none is running: returns the {@code REQUESTS_HELD} event's details
     * ({@code subtask}, {@code reason}, {@code holdTimeoutMillis}), or null if none starts.
     *
     * @param reason why the first request is held
     */
    Map<String, Object> start(long now, int subtask, Reason reason) {
        if (holdStart >= 0 || held.isEmpty()) {
            return null;
        }
        holdStart = now;
        placed = 0;
        deadLettered = 0;
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("subtask", subtask);
        details.put("reason", reason.brief);
        details.put("holdTimeoutMillis", timeoutMillis);
        return details;
    }

    /**
     * Ends the running hold if none is held any more: returns the {@code REQUESTS_RELEASED} event's details
     * ({@code subtask}, {@code placed}, {@code deadLettered}, {@code heldForMillis}), or null if it goes on or none
     * runs.
     */
    Map<String, Object> end(long now, int subtask) {
        if (holdStart < 0 || !held.isEmpty()) {
            return null;
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("subtask", subtask);
        details.put("placed", placed);
        details.put("deadLettered", deadLettered);
        details.put("heldForMillis", now - holdStart);
        holdStart = -1;
        return details;
    }

    long timeoutMillis() {
        return timeoutMillis;
    }

    int size() {
        return held.size();
    }

    boolean isEmpty() {
        return held.isEmpty();
    }
}
