package dev.nona.controller.placement;

import dev.nona.controller.source.RequestRecord;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * The requests the placement operator holds while the controller starts (no server is up, or no model is known
 * yet): up to a fixed number, in arrival order; beyond that a request cannot be held and becomes a dead letter with
 * {@link #overflowReason}. The operator checkpoints them as operator state ({@link #descriptor}) and places them as
 * soon as telemetry and the catalog arrive.
 *
 * <p>Not thread safe: one per operator instance (its size may be read by a metrics gauge).
 */
final class StartupHold {
    private final int capacity;
    private final List<RequestRecord> held = new ArrayList<>();

    /** @param capacity requests held at most ({@code placement.startup-buffer}) */
    StartupHold(int capacity) {
        this.capacity = checkCapacity(capacity);
    }

    /** {@code capacity}, checked: requests held at most must be {@code >= 0}. */
    static int checkCapacity(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("placement.startup-buffer (" + capacity + ") must be >= 0");
        }
        return capacity;
    }

    /** The operator state the held requests are checkpointed in. */
    static ListStateDescriptor<RequestRecord> descriptor() {
        return new ListStateDescriptor<>("held-requests", TypeInformation.of(RequestRecord.class));
    }

    /** Holds {@code record} if there is room; returns whether it did. */
    boolean hold(RequestRecord record) {
        if (held.size() >= capacity) {
            return false;
        }
        held.add(record);
        return true;
    }

    /** Why a request that cannot be held is not placed: no server is up, or ({@code !noServerUp}) no catalog. */
    String overflowReason(boolean noServerUp) {
        return noServerUp
                ? "no server is up (no telemetry yet, or every server is down) and the startup buffer (" + capacity
                        + " requests) is full"
                : "the model catalog is empty and the startup buffer (" + capacity + " requests) is full";
    }

    /** Takes every held request, in arrival order, leaving none held. */
    List<RequestRecord> release() {
        List<RequestRecord> out = new ArrayList<>(held);
        held.clear();
        return out;
    }

    /** Holds the requests of a checkpoint (all of them: a restore never drops what was held). */
    void restore(Iterable<RequestRecord> records) {
        for (RequestRecord r : records) {
            held.add(r);
        }
    }

    /** The held requests, in arrival order, to checkpoint. */
    List<RequestRecord> held() {
        return held;
    }

    int size() {
        return held.size();
    }

    boolean isEmpty() {
        return held.isEmpty();
    }
}
