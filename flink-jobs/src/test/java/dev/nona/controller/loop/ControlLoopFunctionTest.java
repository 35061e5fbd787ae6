package dev.nona.controller.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.controller.ControllerConfig.DriftSettings;
import dev.nona.controller.ControllerConfig.RetryBackoff;
import dev.nona.controller.TestingCluster;
import dev.nona.controller.command.ActiveCommands;
import dev.nona.controller.command.CommandRecord;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.optimize.NonaTableSolver;
import dev.nona.controller.rates.RateEstimate;
import dev.nona.optimize.CostModel;
import dev.nona.topics.record.ControllerCommand;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.controller.optimize.SolveInput;
import dev.nona.controller.optimize.SolveResult;
import dev.nona.controller.optimize.TableSolver;
import dev.nona.optimize.SolveCancelledException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
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
        return new ControlLoopFunction(settings(), new NonaTableSolver(false));
    }

    /** The default liveness timeout (3 s of processing time). */
    private static ControlLoopSettings settings() {
        return settings(Duration.ofSeconds(3));
    }

    /** For tests whose servers report once and then run the clock on for longer than the default timeout. */
    private static ControlLoopSettings reportingOnce() {
        return settings(Duration.ofMinutes(10));
    }

    private static ControlLoopSettings settings(Duration livenessTimeout) {
        return new ControlLoopSettings(new DriftSettings(0.25, 2, Duration.ZERO, 1.0), Duration.ofMillis(WINDOW), 1e10,
                Duration.ofSeconds(30), Duration.ofMillis(10), new RetryBackoff(Duration.ofSeconds(1), Duration.ofSeconds(8)),
                livenessTimeout);
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, ControlInput, ControllerTable> harness() throws Exception {
        return harness(function());
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, ControlInput, ControllerTable> harness(
            ControlLoopFunction function) throws Exception {
        var h = ProcessFunctionTestHarnesses.forKeyedProcessFunction(function, x -> ControlLoopFunction.KEY, Types.STRING);
        h.setProcessingTime(0);
        return h;
    }

    /** A solve that would run forever: it returns only when cancelled (polling as a real solver does). */
    private static final class TestingEndlessSolver implements TableSolver {
        private static final long serialVersionUID = 1L;
        private final CountDownLatch running = new CountDownLatch(1);
        private final CountDownLatch returned = new CountDownLatch(1);

        @Override
        public SolveResult solve(SolveInput input, ControllerTable current, BooleanSupplier cancelled) {
            running.countDown();
            try {
                while (!cancelled.getAsBoolean()) {
                    Thread.onSpinWait();
                }
                throw new SolveCancelledException(0);
            } finally {
                returned.countDown();
            }
        }
    }

    /** The first solve, on an endless solver, running on its thread. */
    private static void startSolve(KeyedOneInputStreamOperatorTestHarness<String, ControlInput, ControllerTable> h,
            TestingEndlessSolver solver) throws Exception {
        twoServersAndFig1(h);
        window(h, 0, 2);
        assertThat(solver.running.await(10, TimeUnit.SECONDS)).as("the solve started").isTrue();
    }

    private static boolean threadAlive(String name) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(name) && t.isAlive());
    }

    private static List<ControllerEvent> events(KeyedOneInputStreamOperatorTestHarness<String, ControlInput, ControllerTable> h,
            ControllerEventType type) {
        return events(h).stream().filter(e -> e.type() == type).toList();
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, ControlInput, ControllerTable> restoredFrom(
            OperatorSubtaskState state) throws Exception {
        return restoredFrom(state, function());
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, ControlInput, ControllerTable> restoredFrom(
            OperatorSubtaskState state, ControlLoopFunction function) throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(function),
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
        // the uniform-mapping server-queueing model (CostModel.DEFAULT), whose table changes with the rate here; the
        // controller's default model keeps Fig. 1 whole on 2 servers at both rates (a remote part's server is taken)
        try (var h = harness(new ControlLoopFunction(settings(), new NonaTableSolver(CostModel.DEFAULT)))) {
            // a 10 Gb/s link: at 2 requests/s Fig. 1 runs on one server, at 60/s splitting it predicts better
            for (String s : List.of("s0", "s1")) {
                h.processElement(ControlInput.of(ServerTelemetry.of(s, true, TestingCluster.OPS_PER_SECOND, 0, List.of(),
                        1e10, 0)), 0);
            }
            h.processElement(ControlInput.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            window(h, 0, 2);
            awaitSolve(h, 0, 0);
            int stateAfterFirst = h.numKeyedStateEntries();
            window(h, 1, 2);
            window(h, 2, 60);
            assertThat(drifts(h)).as("the initial solve only: one window past the threshold is not sustained").isEqualTo(1);
            window(h, 3, 60);
            assertThat(drifts(h)).as("two windows past the threshold").isEqualTo(2);
            awaitSolve(h, 1, 1);
            List<ControllerEvent> ev = events(h);
            ControllerEvent verdict = ev.get(ev.size() - 1);
            assertThat(verdict.type()).as("events: %s", ev).isEqualTo(ControllerEventType.TABLE_PUBLISHED);
            assertThat((double) verdict.details().get("candidateObjective"))
                    .isLessThan((double) verdict.details().get("currentObjective"));
            assertThat(h.extractOutputValues()).hasSize(2).last().satisfies(t -> {
                assertThat(t.version()).isEqualTo(2);
                assertThat(t.rates()).containsEntry("fig1", 60.0);
            });
            assertThat(h.numEventTimeTimers()).as("every window timer fired").isZero();
            assertThat(h.numKeyedStateEntries()).as("closed windows are removed, the backlog is consumed; one entry "
                    + "more: the replaced table, kept for the rollback rule").isEqualTo(stateAfterFirst + 1);
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

    @Test
    void solvePastItsTimeout_isCancelled_freesTheThread_andIsRetried() throws Exception {
        TestingEndlessSolver solver = new TestingEndlessSolver();
        ControlLoopFunction function = new ControlLoopFunction(reportingOnce(), solver);
        try (var h = harness(function)) {
            startSolve(h, solver);
            h.setProcessingTime(29_999);
            assertThat(events(h, ControllerEventType.SOLVE_TIMED_OUT)).isEmpty();
            h.setProcessingTime(30_000);
            assertThat(events(h, ControllerEventType.SOLVE_TIMED_OUT)).singleElement().satisfies(e -> assertThat(e.details())
                    .containsEntry("attempt", 1).containsEntry("retryInMillis", 1000L).containsKey("error"));
            assertThat(solver.returned.await(10, TimeUnit.SECONDS)).as("the cancelled solve returned").isTrue();
            h.setProcessingTime(30_999);
            assertThat(events(h, ControllerEventType.REOPTIMIZATION_STARTED)).hasSize(1);
            h.setProcessingTime(31_000);
            assertThat(events(h, ControllerEventType.REOPTIMIZATION_STARTED)).as("retried after the backoff").hasSize(2);
            assertThat(h.extractOutputValues()).isEmpty();
        }
        assertThat(threadAlive(function.solverThreadName())).as("no solver thread outlives close()").isFalse();
    }

    @Test
    void closeWhileSolving_endsTheSolverThread() throws Exception {
        TestingEndlessSolver solver = new TestingEndlessSolver();
        ControlLoopFunction function = new ControlLoopFunction(reportingOnce(), solver);
        try (var h = harness(function)) {
            startSolve(h, solver);
            assertThat(threadAlive(function.solverThreadName())).isTrue();
        }
        assertThat(solver.returned.getCount()).as("the running solve was cancelled").isZero();
        assertThat(threadAlive(function.solverThreadName())).as("no solver thread outlives close()").isFalse();
    }

    @Test
    void errorInTheSolver_failsTheTask_notAnOrdinaryFailedSolve() throws Exception {
        TableSolver overflowing = (input, current, cancelled) -> {
            throw new StackOverflowError("testing");
        };
        try (var h = harness(new ControlLoopFunction(reportingOnce(), overflowing))) {
            twoServersAndFig1(h);
            window(h, 0, 2);
            assertThatThrownBy(() -> awaitSolve(h, 0, 0)).isInstanceOf(StackOverflowError.class).hasMessage("testing");
            assertThat(events(h, ControllerEventType.SOLVE_FAILED)).isEmpty();
        }
    }

    private static List<ControllerEvent> clusterChanges(KeyedOneInputStreamOperatorTestHarness<String, ControlInput, ControllerTable> h) {
        return events(h).stream().filter(e -> e.type() == ControllerEventType.CLUSTER_CHANGED).toList();
    }

    private static ControlInput commands(ControllerCommand... cs) {
        ActiveCommands a = ActiveCommands.NONE;
        for (var c : cs) {
            a = a.with(c);
        }
        return ControlInput.of(a);
    }

    private static ControlInput rollback(String id, long version) {
        return ControlInput.rollback(CommandRecord.of(
                ControllerCommand.rollback(id, 1, version), "controller-commands", 0, 7));
    }

    @Test
    void freeze_driftIsRecordedNotSolved_untilUnfreeze() throws Exception {
        try (var h = harness(new ControlLoopFunction(reportingOnce(), new NonaTableSolver(false)))) {
            twoServersAndFig1(h);
            window(h, 0, 2);
            awaitSolve(h, 0, 0);
            var freeze = ControllerCommand.freeze("f", 1, true);
            h.processElement(commands(freeze), 0);
            window(h, 1, 60);
            window(h, 2, 60);
            assertThat(drifts(h)).isEqualTo(2);
            assertThat(events(h, ControllerEventType.DRIFT_FROZEN)).singleElement()
                    .satisfies(e -> assertThat((String) e.details().get("detail")).contains("frozen"));
            for (int i = 0; i < 20; i++) {
                h.setProcessingTime(h.getProcessingTime() + 100);
            }
            assertThat(events(h, ControllerEventType.REOPTIMIZATION_STARTED)).as("only the initial solve").hasSize(1);
            h.processElement(commands(freeze, ControllerCommand.freeze("u", 2, false)), 0);
            assertThat(events(h, ControllerEventType.REOPTIMIZATION_STARTED)).as("the recorded drift, solved now")
                    .hasSize(2).last().satisfies(e -> assertThat(e.details()).containsEntry("cause", "rate"));
            awaitSolve(h, 1, 1);
        }
    }

    /** The rollback's rule is {@link TableHistoryTest}'s; here: the table on the main output, a rejection on its side output. */
    @Test
    void rollback_publishesOnTheMainOutput_andAnUnknownVersionIsADeadLetterOnItsSideOutput() throws Exception {
        try (var h = harness(new ControlLoopFunction(reportingOnce(), new NonaTableSolver(false)))) {
            twoServersAndFig1(h);
            window(h, 0, 2);
            awaitSolve(h, 0, 0);
            ControllerTable v1 = h.extractOutputValues().get(0);
            h.processElement(rollback("rb-1", 1), 0);
            assertThat(h.extractOutputValues()).hasSize(2).last().satisfies(t -> {
                assertThat(t.version()).isEqualTo(2);
                assertThat(t.tableJson()).isEqualTo(v1.tableJson());
            });
            assertThat(events(h, ControllerEventType.TABLE_ROLLED_BACK)).hasSize(1);
            assertThat(events(h, ControllerEventType.COMMAND_APPLIED)).hasSize(1);
            h.processElement(rollback("rb-2", 9), 0);
            assertThat(h.getSideOutput(ControlLoopFunction.COMMAND_DEAD_LETTERS)).singleElement().satisfies(r ->
                    assertThat(r.getValue().reason()).isEqualTo("command 'rb-2' (ROLLBACK_TABLE): table version 9 is "
                            + "not among the last 8 published, which the controller keeps: [1, 2]"));
        }
    }

    @Test
    void commandsInForceAtStart_drainAndFreezeHoldFromTheStart_untilTheCommandOperatorsNextChange() throws Exception {
        var drain = ControllerCommand.drain("d", 1, "s1", true);
        var freeze = ControllerCommand.freeze("f", 2, true);
        ActiveCommands atStart = ActiveCommands.NONE.with(drain).with(freeze);
        try (var h = harness(new ControlLoopFunction(reportingOnce(), new NonaTableSolver(false), atStart, 57))) {
            twoServersAndFig1(h);
            window(h, 0, 2);
            for (int i = 0; i < 20; i++) {
                h.setProcessingTime(h.getProcessingTime() + 100);
            }
            assertThat(events(h, ControllerEventType.REOPTIMIZATION_STARTED)).as("frozen before the start").isEmpty();
            // the command operator continues from the commands in force at start: its next change is the next sequence
            h.processElement(ControlInput.of(atStart.with(ControllerCommand.freeze("u", 3, false))), 0);
            awaitSolve(h, 0, 0);
            assertThat(h.extractOutputValues()).singleElement()
                    .satisfies(t -> {
                        assertThat(t.cluster().upServers()).as("drained before the start").containsExactly("s0");
                        assertThat(t.version()).as("after the newest version on placement-tables").isEqualTo(58);
                    });
        }
    }

    @Test
    void drain_leavesTheClusterViewOfTheNextSolve_andSurvivesARestore() throws Exception {
        OperatorSubtaskState state;
        try (var h = harness(new ControlLoopFunction(reportingOnce(), new NonaTableSolver(false)))) {
            twoServersAndFig1(h);
            h.processElement(commands(ControllerCommand.drain("d", 1, "s1", true)), 0);
            assertThat(clusterChanges(h)).last().satisfies(e ->
                    assertThat(e.details()).containsEntry("change", "cluster: server s1 drained (operator command)")
                            .containsEntry("servers", 1));
            window(h, 0, 2);
            awaitSolve(h, 0, 0);
            assertThat(h.extractOutputValues()).singleElement()
                    .satisfies(t -> assertThat(t.cluster().upServers()).containsExactly("s0"));
            state = h.snapshot(1, 0);
        }
        try (var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(
                new ControlLoopFunction(reportingOnce(), new NonaTableSolver(false))), x -> ControlLoopFunction.KEY, Types.STRING)) {
            h.setProcessingTime(0);
            h.initializeState(state);
            h.open();
            h.processElement(ControlInput.of(TestingCluster.server("s1", 5)), 0); // s1 reports again: still drained
            h.processElement(ControlInput.of(TestingCluster.server("s2", 5)), 0);
            assertThat(clusterChanges(h)).extracting(e -> e.details().get("change"))
                    .containsExactly("cluster: server s2 up");
        }
    }

    /** The control loop, built when {@code built} was the newest table version, reading {@code published} at open. */
    private static ControlLoopFunction builtAt(long built, PublishedTableVersions published) {
        // the uniform-mapping model, whose table changes with the rate (see sustainedRateShift_publishesNewTable_...)
        return new ControlLoopFunction(settings(), new NonaTableSolver(CostModel.DEFAULT), ActiveCommands.NONE, built,
                published);
    }

    /** The version of the table a drift makes the restored control loop publish next. */
    private static long nextVersionAfterDrift(OperatorSubtaskState state, ControlLoopFunction function)
            throws Exception {
        try (var restored = restoredFrom(state, function)) {
            window(restored, 1, 2);
            window(restored, 2, 60);
            window(restored, 3, 60);
            awaitSolve(restored, 0, 0);
            assertThat(restored.extractOutputValues()).as("a table after the drift; events %s", events(restored))
                    .hasSize(1);
            return restored.extractOutputValues().get(0).version();
        }
    }

    @Test
    void restartInsideTheJob_fromACheckpointOlderThanTheLastTablesPublished_numbersOnFromTheNewestPublished()
            throws Exception {
        OperatorSubtaskState checkpoint;
        try (var h = harness(builtAt(0, PublishedTableVersions.NONE))) {
            for (String s : List.of("s0", "s1")) { // a 10 Gb/s link: at 60 requests/s splitting Fig. 1 pays
                h.processElement(ControlInput.of(ServerTelemetry.of(s, true, TestingCluster.OPS_PER_SECOND, 0,
                        List.of(), 1e10, 0)), 0);
            }
            h.processElement(ControlInput.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            window(h, 0, 2);
            awaitSolve(h, 0, 0);
            assertThat(h.extractOutputValues()).extracting(ControllerTable::version).containsExactly(1L);
            checkpoint = h.snapshot(1, h.getProcessingTime());
        }
        // After the checkpoint the job published v2..v5, then lost a TaskManager: the restart restores v1, and the
        // job was built when no table was published (0). The newest on placement-tables is read at open: v5.
        assertThat(nextVersionAfterDrift(checkpoint, builtAt(0, () -> 5))).as("never a version published already")
                .isEqualTo(6);
        // Unreadable (the broker down): the newer of the build's version and the restored table's.
        PublishedTableVersions unreadable = () -> {
            throw new IllegalStateException("broker down");
        };
        assertThat(nextVersionAfterDrift(checkpoint, builtAt(3, unreadable))).isEqualTo(4);
        assertThat(nextVersionAfterDrift(checkpoint, builtAt(0, unreadable))).isEqualTo(2);
        // An older read than the build's (a topic compacted away, another broker) does not lower the floor.
        assertThat(nextVersionAfterDrift(checkpoint, builtAt(7, () -> 2))).isEqualTo(8);
    }
}
