package dev.nona.controller.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.ControllerConfig.DriftSettings;
import dev.nona.controller.TestingCluster;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.optimize.NonaTableSolver;
import dev.nona.controller.rates.RateEstimate;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

final class ControlLoopFunctionTest {
    private static final long WINDOW = 1000;

    private static ControlLoopFunction function() {
        return new ControlLoopFunction(new DriftSettings(0.25, 2, Duration.ZERO, 1.0), 1e10, 30_000, 10,
                new NonaTableSolver(false));
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, ControlInput, ControllerTable> harness() throws Exception {
        var h = ProcessFunctionTestHarnesses.forKeyedProcessFunction(function(), x -> ControlLoopFunction.KEY, Types.STRING);
        h.setProcessingTime(0);
        return h;
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, ControlInput, ControllerTable> restoredFrom(
            OperatorSubtaskState state) throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(function()),
                x -> ControlLoopFunction.KEY, Types.STRING);
        h.setProcessingTime(0);
        h.initializeState(state);
        h.open();
        return h;
    }

    private static void window(KeyedOneInputStreamOperatorTestHarness<String, ControlInput, ControllerTable> h,
            long index, long count) throws Exception {
        long start = index * WINDOW;
        h.processElement(ControlInput.of(RateEstimate.of("fig1", start, start + WINDOW, count)), start + WINDOW - 1);
        h.processWatermark(new Watermark(start + WINDOW - 1));
    }

    /** Advances processing time until the solver thread's result has been handled (bounded). */
    private static void awaitSolve(KeyedOneInputStreamOperatorTestHarness<String, ControlInput, ControllerTable> h,
            int tablesBefore, int finishedBefore) throws Exception {
        long t = h.getProcessingTime();
        for (int i = 0; i < 2000; i++) {
            h.setProcessingTime(t += 10);
            if (h.extractOutputValues().size() > tablesBefore || finished(h) > finishedBefore) {
                return;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("solve did not finish");
    }

    private static long drifts(KeyedOneInputStreamOperatorTestHarness<String, ControlInput, ControllerTable> h) {
        return events(h).stream().filter(e -> e.type() == ControllerEventType.DRIFT_DETECTED).count();
    }

    private static long finished(KeyedOneInputStreamOperatorTestHarness<String, ControlInput, ControllerTable> h) {
        return events(h).stream().filter(e -> e.type() == ControllerEventType.REOPTIMIZATION_FINISHED).count();
    }

    /** Telemetry from two idle servers s0, s1 and the catalog entry of Fig. 1's model. */
    private static void twoServersAndFig1(KeyedOneInputStreamOperatorTestHarness<String, ControlInput, ControllerTable> h)
            throws Exception {
        h.processElement(ControlInput.of(TestingCluster.server("s0", 0)), 0);
        h.processElement(ControlInput.of(TestingCluster.server("s1", 0)), 0);
        h.processElement(ControlInput.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
    }

    private static List<ControllerEvent> events(KeyedOneInputStreamOperatorTestHarness<String, ControlInput, ControllerTable> h) {
        return h.getSideOutput(ControlLoopFunction.EVENTS) == null ? List.of()
                : h.getSideOutput(ControlLoopFunction.EVENTS).stream().map(r -> r.getValue()).toList();
    }

    @Test
    void firstWindow_solvesInitialTable_offTheTaskThread() throws Exception {
        try (var h = harness()) {
            twoServersAndFig1(h);
            window(h, 0, 10);
            assertThat(events(h)).extracting(ControllerEvent::type).contains(ControllerEventType.REOPTIMIZATION_STARTED);
            awaitSolve(h, 0, 0);
            List<ControllerTable> tables = h.extractOutputValues();
            assertThat(tables).singleElement().satisfies(t -> {
                assertThat(t.version()).isEqualTo(1);
                assertThat(t.rates()).containsEntry("fig1", 10.0);
                assertThat(t.cluster().upServers()).containsExactly("s0", "s1");
            });
        }
    }

    @Test
    void sustainedRateShift_publishesNewTable_andClosedWindowsLeaveNoState() throws Exception {
        try (var h = harness()) {
            twoServersAndFig1(h);
            window(h, 0, 2);
            awaitSolve(h, 0, 0);
            int stateAfterFirst = h.numKeyedStateEntries();
            window(h, 1, 2);
            window(h, 2, 40);
            assertThat(drifts(h)).as("the initial solve only: one window past the threshold is not sustained").isEqualTo(1);
            window(h, 3, 40);
            assertThat(drifts(h)).as("two windows past the threshold").isEqualTo(2);
            awaitSolve(h, 1, 1);
            List<ControllerEvent> ev = events(h);
            ControllerEvent verdict = ev.get(ev.size() - 1);
            assertThat(verdict.type()).isIn(ControllerEventType.TABLE_PUBLISHED, ControllerEventType.TABLE_REJECTED);
            assertThat(verdict.details()).containsKeys("currentObjective", "candidateObjective");
            if (verdict.type() == ControllerEventType.TABLE_PUBLISHED) {
                assertThat((double) verdict.details().get("candidateObjective"))
                        .isLessThan((double) verdict.details().get("currentObjective"));
                assertThat(h.extractOutputValues()).last().satisfies(t -> assertThat(t.rates()).containsEntry("fig1", 40.0));
            }
            assertThat(h.numEventTimeTimers()).as("every window timer fired").isZero();
            assertThat(h.numKeyedStateEntries()).as("closed windows are removed").isEqualTo(stateAfterFirst);
        }
    }

    @Test
    void windowBehindTheWatermark_isClosedInProcessingTime_once() throws Exception {
        try (var h = harness()) {
            h.processElement(ControlInput.of(TestingCluster.server("s0", 0)), 0);
            h.processElement(ControlInput.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            h.processWatermark(new Watermark(1_000_000)); // another input led the watermark far ahead
            h.processElement(ControlInput.of(RateEstimate.of("fig1", 0, WINDOW, 5)), WINDOW - 1);
            assertThat(h.numEventTimeTimers()).isZero();
            awaitSolve(h, 0, 0);
            assertThat(h.extractOutputValues()).singleElement().satisfies(t -> assertThat(t.rates()).containsEntry("fig1", 5.0));
            assertThat(drifts(h)).isEqualTo(1);
        }
    }

    @Test
    void restoreFromCheckpoint_keepsTheTable_andRestartsAnInterruptedSolve() throws Exception {
        OperatorSubtaskState afterTable;
        OperatorSubtaskState whileSolving;
        try (var h = harness()) {
            twoServersAndFig1(h);
            window(h, 0, 2);
            awaitSolve(h, 0, 0);
            afterTable = h.snapshot(1, h.getProcessingTime());
            window(h, 1, 40);
            window(h, 2, 40); // drift: a solve starts on the solver thread
            whileSolving = h.snapshot(2, h.getProcessingTime());
        }
        try (var restored = restoredFrom(whileSolving)) {
            awaitSolve(restored, 0, 0);
            assertThat(events(restored)).extracting(ControllerEvent::type)
                    .as("the interrupted solve ran again after the restore")
                    .contains(ControllerEventType.REOPTIMIZATION_FINISHED);
            assertThat(events(restored)).filteredOn(e -> e.type() == ControllerEventType.REOPTIMIZATION_FINISHED)
                    .first().satisfies(e -> assertThat(e.details()).containsEntry("currentTableVersion", 1L));
        }
        try (var restored = restoredFrom(afterTable)) {
            window(restored, 1, 2);
            window(restored, 2, 2);
            assertThat(events(restored)).as("same rates as the restored table: nothing to do").isEmpty();
            assertThat(restored.numEventTimeTimers()).isZero();
        }
    }

    @Test
    void infeasibleLoad_publishesFallbackTable_andSaysSo() throws Exception {
        try (var h = harness()) {
            h.processElement(ControlInput.of(TestingCluster.server("s0", 0)), 0);
            h.processElement(ControlInput.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            window(h, 0, 5000);
            awaitSolve(h, 0, 0);
            assertThat(events(h)).extracting(ControllerEvent::type)
                    .contains(ControllerEventType.INFEASIBLE_LOAD, ControllerEventType.FALLBACK);
            assertThat(h.extractOutputValues()).singleElement().satisfies(t -> assertThat(t.fallback()).isTrue());
        }
    }

    @Test
    void serverDown_isAClusterChange_thatTriggersReoptimisation() throws Exception {
        try (var h = harness()) {
            for (String s : List.of("s0", "s1", "s2")) {
                h.processElement(ControlInput.of(TestingCluster.server(s, 0)), 0);
            }
            h.processElement(ControlInput.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            window(h, 0, 5);
            awaitSolve(h, 0, 0);
            h.processElement(ControlInput.of(TestingCluster.down("s2", 1500)), 1500);
            assertThat(events(h)).extracting(ControllerEvent::type).contains(ControllerEventType.CLUSTER_CHANGED);
            window(h, 1, 5);
            assertThat(events(h)).filteredOn(e -> e.type() == ControllerEventType.DRIFT_DETECTED)
                    .last().satisfies(e -> assertThat((String) e.details().get("cause")).contains("server s2 down (reported up=false)"));
            awaitSolve(h, 1, 1);
        }
    }

    /**
     * Liveness timeout 3 s (processing time): s0 and s1 report at 0 s, s1 again at 2 s. At 3.001 s a timer finds s0
     * silent, with no telemetry arriving; at 5.001 s s1. s0's next report makes it up again.
     */
    @Test
    void silentServer_goesDownByTimer_withAnEventNamingItAndWhy_andComesBackAtItsNextReport() throws Exception {
        try (var h = harness()) {
            twoServersAndFig1(h);
            h.setProcessingTime(2_000);
            h.processElement(ControlInput.of(TestingCluster.server("s1", 2_000)), 2_000);
            h.setProcessingTime(3_000);
            assertThat(clusterChanges(h)).hasSize(1); // the first view
            h.setProcessingTime(3_001);
            assertThat(clusterChanges(h)).hasSize(2).last().satisfies(e -> {
                assertThat(e.details()).containsEntry("server", "s0").containsEntry("servers", 1);
                assertThat((String) e.details().get("reason")).startsWith("silent since 1970-01-01T00:00:00Z")
                        .contains("no report for more than 3000 ms");
            });
            h.setProcessingTime(5_001);
            assertThat(clusterChanges(h)).hasSize(3).last().satisfies(e ->
                    assertThat(e.details()).containsEntry("server", "s1").containsEntry("servers", 0));
            h.setProcessingTime(6_000);
            h.processElement(ControlInput.of(TestingCluster.server("s0", 6_000)), 6_000);
            assertThat(clusterChanges(h)).hasSize(4).last().satisfies(e ->
                    assertThat(e.details()).containsEntry("server", "s0").containsEntry("reason", "reported up"));
            assertThat(h.numProcessingTimeTimers()).as("one timer, at s0's next deadline").isEqualTo(1);
        }
    }

    private static List<ControllerEvent> clusterChanges(KeyedOneInputStreamOperatorTestHarness<String, ControlInput, ControllerTable> h) {
        return events(h).stream().filter(e -> e.type() == ControllerEventType.CLUSTER_CHANGED).toList();
    }
}
