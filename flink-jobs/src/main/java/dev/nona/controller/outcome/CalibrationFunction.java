package dev.nona.controller.outcome;

import dev.nona.calibration.CalibrationReport;
import dev.nona.calibration.CalibrationWindow;
import dev.nona.calibration.ModelCalibration;
import dev.nona.controller.metrics.ControllerMetric;
import dev.nona.controller.metrics.ModelGauges;
import dev.nona.controller.loop.ControlInput;
import dev.nona.controller.loop.Learned;
import dev.nona.controller.serde.JsonRecordTypeInfo;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ModelCatalogEntry;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Feeds joined outcomes into a {@link CalibrationWindow} and, at the end of each processing-time window of
 * {@code rates.window} that received any, emits its figures as a {@code CALIBRATION} event
 * ({@link CalibrationEvents}). The catalog input gives the task ops of parts that list their {@code tasks} (the
 * others take their server's ops from the {@link DecisionSummary}). Runs with
 * parallelism 1 on one constant key ({@link #KEY}): the window and the catalog's task ops live on the heap and are
 * checkpointed as operator state; the window's end is a processing-time timer.
 *
 * <p>Windows are aligned to multiples of the window size since the epoch, in processing time: an outcome counts
 * in the window in which the controller learned it, not in the one its request arrived in.
 */
public final class CalibrationFunction extends KeyedCoProcessFunction<String, JoinedOutcome, ControlInput, ControllerEvent>
        implements CheckpointedFunction {
    private static final long serialVersionUID = 1L;

    /** The constant key both inputs are keyed by. */
    public static final String KEY = "calibration";
    /** What each window taught, for the control loop: effective server speeds, and how each table did. */
    public static final OutputTag<ControlInput> LEARNED =
            new OutputTag<>("learned", JsonRecordTypeInfo.of(ControlInput.class));
    /**
     * Timed parts a server needs in a window before its effective speed replaces the reported one: a server
     * seen a few times says more about the requests it ran than about itself.
     */
    public static final long MIN_TIMED_PARTS = 5;

    /**
     * What is checkpointed.
     *
     * @param windowEnd end of the open window (its timer), 0 when none is open
     * @param window    the open window's tallies
     * @param taskOps   per model in the catalog, the ops of each task
     */
    public record Snapshot(long windowEnd, CalibrationWindow.State window, Map<String, Map<String, Double>> taskOps) {}

    private final long windowMillis;

    private transient CalibrationWindow window;
    private transient long windowEnd;
    private transient Map<String, Map<String, Double>> taskOps;
    private transient ListState<Snapshot> checkpointed;
    private transient ModelGauges observedJct;
    private transient ModelGauges calibrationRatio;

    @Override
    public void open(OpenContext openContext) {
        observedJct = new ModelGauges(getRuntimeContext().getMetricGroup(), ControllerMetric.OBSERVED_JCT_SECONDS);
        calibrationRatio = new ModelGauges(getRuntimeContext().getMetricGroup(), ControllerMetric.CALIBRATION_RATIO);
    }

    /** The gauges show the latest window in which the model had ok outcomes. */
    private void updateGauges(String model, ModelCalibration m) {
        if (m.ok() > 0) {
            observedJct.set(model, m.observedMeanJctSeconds());
            calibrationRatio.set(model, m.calibrationRatio());
        }
    }

    /** @param windowMillis the window size, {@code > 0} */
    public CalibrationFunction(long windowMillis) {
        if (windowMillis <= 0) {
            throw new IllegalArgumentException("window (" + windowMillis + " ms) must be > 0");
        }
        this.windowMillis = windowMillis;
    }

    @Override
    public void processElement1(JoinedOutcome joined, Context ctx, Collector<ControllerEvent> out) {
        if (windowEnd == 0) {
            long now = ctx.timerService().currentProcessingTime();
            windowEnd = now - Math.floorMod(now, windowMillis) + windowMillis;
            ctx.timerService().registerProcessingTimeTimer(windowEnd);
        }
        if (joined instanceof JoinedOutcome.Matched m) {
            add(m);
        } else if (joined instanceof JoinedOutcome.Missing m) {
            window.missing(m.model());
        } else if (joined instanceof JoinedOutcome.Unmatched u) {
            window.unmatched(u.model());
        }
    }

    private void add(JoinedOutcome.Matched m) {
        String model = m.model();
        switch (m.outcome().status()) {
            case OK -> {
                window.ok(model, m.outcome().observedJctSeconds(), m.decision().predictedJctSeconds(),
                        OutcomeParts.of(m.decision(), m.outcome(), taskOps.get(model)));
                window.version(m.decision().tableVersion(), m.outcome().observedJctSeconds(),
                        m.decision().predictedJctSeconds());
            }
            case FAILED -> window.failed(model);
            case TIMEOUT -> window.timedOut(model);
        }
    }

    @Override
    public void processElement2(ControlInput input, Context ctx, Collector<ControllerEvent> out) {
        if (input.catalog() != null) {
            taskOps.put(input.catalog().model(), opsOf(input.catalog()));
        } else if (input.removedModel() != null) {
            taskOps.remove(input.removedModel());
        }
    }

    private static Map<String, Double> opsOf(ModelCatalogEntry entry) {
        Map<String, Double> ops = new HashMap<>(entry.dag().tasks().size() * 2);
        for (CatalogTask t : entry.dag().tasks()) {
            ops.put(t.id(), t.ops());
        }
        return ops;
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<ControllerEvent> out) {
        if (timestamp != windowEnd) {
            return; // not the open window's end (none is open): nothing to close
        }
        if (!window.isEmpty()) {
            CalibrationReport report = window.report();
            report.models().forEach(this::updateGauges);
            out.collect(CalibrationEvents.of(report, timestamp, windowMillis));
            ctx.output(LEARNED, ControlInput.of(learned(report, timestamp)));
        }
        window = new CalibrationWindow();
        windowEnd = 0;
    }

    /** The window's effective speeds (servers with {@link #MIN_TIMED_PARTS}) and per-table tallies. */
    static Learned learned(CalibrationReport report, long windowEnd) {
        Map<String, Double> speeds = new TreeMap<>();
        report.servers().forEach((server, tally) -> {
            if (tally.timedParts() >= MIN_TIMED_PARTS && Double.isFinite(tally.effectiveOpsPerSecond())) {
                speeds.put(server, tally.effectiveOpsPerSecond());
            }
        });
        return new Learned(windowEnd, speeds, report.versions());
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        checkpointed.update(List.of(new Snapshot(windowEnd, window.state(), taskOps)));
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        checkpointed = context.getOperatorStateStore().getListState(
                new ListStateDescriptor<>("calibration", JsonRecordTypeInfo.of(Snapshot.class)));
        window = new CalibrationWindow();
        windowEnd = 0;
        taskOps = new HashMap<>();
        for (Snapshot s : checkpointed.get()) {
            window = CalibrationWindow.restore(s.window());
            windowEnd = s.windowEnd();
            s.taskOps().forEach((m, ops) -> taskOps.put(m, new HashMap<>(ops)));
        }
    }
}
