package dev.nona.controller.loop;

import dev.nona.controller.drift.DriftDetector;
import dev.nona.controller.drift.DriftState;
import dev.nona.controller.drift.DriftTrigger;
import dev.nona.controller.rates.RateEstimate;
import dev.nona.topics.record.ControllerEventType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rates per model per open event-time window, and the drift state they feed: a window closes when the watermark
 * passes its end (or, if the watermark was already past when its rate arrived, shortly after in processing time),
 * and the {@link DriftDetector} says whether it triggers a re-optimisation. Cluster and catalog changes are recorded
 * here too ({@link #markPending}), as the detector's pending cause.
 *
 * <p>Its state: the open windows' rates and the drift state (a few numbers per model), both checkpointed. Logs as the
 * control loop. Not thread safe: used by the task thread only.
 */
final class RateWindows implements PendingCauses {
    private static final Logger LOG = LoggerFactory.getLogger(ControlLoopFunction.class);

    /**
     * What a closed window asks of the solver.
     *
     * @param cause   why
     * @param rates   requests/s per catalogued model to solve for
     * @param initial whether it is the first table (no trigger: nothing solved or pending yet)
     */
    record Trigger(String cause, Map<String, Double> rates, boolean initial) {}

    private final DriftDetector detector;
    private final MapState<Long, RateVector> windows;
    private final ValueState<DriftState> drift;
    private final long pollMillis;
    private final Runnable driftDetected;

    /**
     * @param pollMillis    how soon a window already behind the watermark is closed, in processing time
     * @param driftDetected counts each trigger (a metric)
     */
    RateWindows(DriftDetector detector, MapState<Long, RateVector> windows, ValueState<DriftState> drift,
            long pollMillis, Runnable driftDetected) {
        this.detector = Objects.requireNonNull(detector, "drift detector");
        this.windows = Objects.requireNonNull(windows, "window rates state");
        this.drift = Objects.requireNonNull(drift, "drift state");
        this.pollMillis = pollMillis;
        this.driftDetected = Objects.requireNonNull(driftDetected, "drift counter");
    }

    /** Adds a model's rate to its window, with a timer to close the window. */
    void add(RateEstimate rate, LoopIo io) throws Exception {
        RateVector vector = windows.get(rate.windowEnd());
        windows.put(rate.windowEnd(), (vector == null ? new RateVector(Map.of()) : vector)
                .with(rate.model(), rate.ratePerSecond()));
        long last = rate.windowEnd() - 1;
        if (last <= io.watermark()) {
            // Late: the watermark passed this window while the request path was idle (another input led it).
            // An event-time timer would wait for the next advance; close it shortly in processing time instead.
            io.processingTimer(io.now() + pollMillis);
        } else {
            io.eventTimer(last);
        }
    }

    /** The ends of the open windows the watermark has already passed, oldest first. */
    List<Long> behind(long watermark) throws Exception {
        List<Long> due = new ArrayList<>();
        for (Long end : windows.keys()) {
            if (end - 1 <= watermark) {
                due.add(end);
            }
        }
        due.sort(null);
        return due;
    }

    /** Whether the window ending at {@code windowEnd} is open (has a rate and has not been closed). */
    boolean open(long windowEnd) throws Exception {
        return windows.contains(windowEnd);
    }

    /**
     * Closes an open window: the detector's verdict on its rates (only catalogued {@code models} count), with a
     * {@code DRIFT_DETECTED} event for a trigger. With no trigger and {@code nothingYet} (no table, nothing solving
     * or waiting), the first table is due: the drift is measured from the rates it is for.
     *
     * @return what to solve, or {@code null}
     */
    Trigger close(long windowEnd, Set<String> models, boolean nothingYet, LoopIo io) throws Exception {
        RateVector vector = windows.get(windowEnd);
        if (vector == null) {
            throw new IllegalStateException("BUG: window ending at " + windowEnd + " is not open");
        }
        windows.remove(windowEnd);
        Map<String, Double> rates = new TreeMap<>(vector.rates());
        rates.keySet().retainAll(models); // only catalogued models count (others are dead-lettered anyway)
        DriftDetector.Evaluation eval = detector.evaluate(driftState(), windowEnd, rates, models);
        drift.update(eval.next());
        if (eval.trigger().isPresent()) {
            DriftTrigger trigger = eval.trigger().get();
            driftDetected.run();
            LOG.info("Re-optimisation triggered at window end {}: {} (relative change {})", windowEnd, trigger.cause(),
                    trigger.relativeChange());
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("cause", trigger.cause());
            details.put("windowEnd", windowEnd);
            trigger.relativeChange().forEach((m, c) -> details.put("relativeChange." + m, c));
            io.event(ControllerEventType.DRIFT_DETECTED, details);
            return new Trigger(trigger.cause(), trigger.rates(), false);
        }
        if (nothingYet && !models.isEmpty()) {
            drift.update(detector.rebased(rates, windowEnd)); // drift is measured from the rates the table is for
            return new Trigger("initial", rates, true);
        }
        return null;
    }

    /** Records a cluster or catalog change; the detector turns it into a trigger at the next window end. */
    @Override
    public void markPending(String cause) throws Exception {
        DriftState state = driftState();
        drift.update(state.withPendingCause(Causes.append(state.pendingCause(), cause)));
    }

    private DriftState driftState() throws Exception {
        DriftState state = drift.value();
        return state == null ? DriftState.initial() : state;
    }
}
