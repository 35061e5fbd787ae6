package dev.nona.controller.outcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.controller.loop.ControlInput;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.OutcomePart;
import dev.nona.topics.record.OutcomeStatus;
import dev.nona.topics.record.PlacementOutcome;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

final class CalibrationFunctionTest {
    private static final long WINDOW = 10_000;

    private static KeyedTwoInputStreamOperatorTestHarness<String, JoinedOutcome, ControlInput, ControllerEvent> harness()
            throws Exception {
        var h = new KeyedTwoInputStreamOperatorTestHarness<String, JoinedOutcome, ControlInput, ControllerEvent>(
                new KeyedCoProcessOperator<>(new CalibrationFunction(WINDOW)),
                x -> CalibrationFunction.KEY, x -> CalibrationFunction.KEY, Types.STRING);
        return h;
    }

    /** Model m: task a (4e12 ops) and task b (1e12 ops). */
    private static ControlInput catalog() {
        return ControlInput.of(ModelCatalogEntry.of("m", new CatalogDag("m",
                List.of(new CatalogTask("a", 4e12), new CatalogTask("b", 1e12)), List.of())));
    }

    /** Observed 1.0 s for a prediction of 0.5: a on s1 (warm, 2 s of compute), b on s2 (cold, 0.5 s of 1.5 s). */
    private static JoinedOutcome.Matched matched(String id) {
        PlacementOutcome o = PlacementOutcome.ok(id, "m", 1, List.of(
                new OutcomePart("s1", 1_000, 3_100, false, null, 2.0),
                new OutcomePart("s2", 3_200, 4_700, true, null, 0.5)), 4096, 4_700, 1.0);
        return new JoinedOutcome.Matched(OutcomeJoinTest.decision(id, "m", 0.5), o);
    }

    @Test
    void window_emitsOneCalibrationEvent_withTheFiguresOfItsOutcomes() throws Exception {
        try (var h = harness()) {
            h.open();
            h.setProcessingTime(5_000);
            h.processElement2(catalog(), 0);
            h.processElement1(matched("r1"), 0);
            h.processElement1(matched("r2"), 0);
            h.processElement1(new JoinedOutcome.Missing("r3", "m"), 0);
            h.processElement1(new JoinedOutcome.Matched(OutcomeJoinTest.decision("r4", "m", 0.5),
                    PlacementOutcome.ended("r4", "m", 1, List.of(), 0, OutcomeStatus.FAILED, 9, 3.0, "oom")), 0);
            h.processElement1(new JoinedOutcome.Unmatched("r5", "m"), 0);
            h.setProcessingTime(9_999);
            assertThat(h.extractOutputValues()).isEmpty();
            h.setProcessingTime(10_000);
            assertThat(h.extractOutputValues()).singleElement().satisfies(e -> {
                assertThat(e.type()).isEqualTo(ControllerEventType.CALIBRATION);
                assertThat(e.time()).isEqualTo(10_000);
                Map<String, Object> d = e.details();
                assertThat(d).containsEntry("outcomes", 3L).containsEntry("okOutcomes", 2L)
                        .containsEntry("failedOutcomes", 1L).containsEntry("missingOutcomes", 1L)
                        .containsEntry("unmatchedOutcomes", 1L).containsEntry("windowMillis", WINDOW)
                        .containsEntry("model.m.okOutcomes", 2L).containsEntry("server.s2.coldStarts", 2L);
                assertThat((double) d.get("calibrationRatio")).isCloseTo(2.0, within(1e-12));
                assertThat((double) d.get("model.m.calibrationRatio")).isCloseTo(2.0, within(1e-12));
                assertThat((double) d.get("model.m.observedMeanJctSeconds")).isCloseTo(1.0, within(1e-12));
                assertThat((double) d.get("model.m.predictedMeanJctSeconds")).isCloseTo(0.5, within(1e-12));
                assertThat((double) d.get("model.m.observedP99JctSeconds")).isCloseTo(1.0, within(0.01));
                // s1 ran task a: 4e12 ops in 2 s; s2 ran b: 1e12 ops in 0.5 s, after a 1.0 s cold start
                assertThat((double) d.get("server.s1.effectiveOpsPerSecond")).isCloseTo(2e12, within(1.0));
                assertThat((double) d.get("server.s2.effectiveOpsPerSecond")).isCloseTo(2e12, within(1.0));
                assertThat((double) d.get("server.s2.meanColdStartSeconds")).isCloseTo(1.0, within(1e-9));
                assertThat(d).doesNotContainKey("server.s1.meanColdStartSeconds");
            });
            h.setProcessingTime(100_000);
            assertThat(h.extractOutputValues()).as("no event for empty windows").hasSize(1);
            assertThat(h.numProcessingTimeTimers()).isZero();
        }
    }

    @Test
    void decisionWithoutOps_noSpeed_butJctFigures() throws Exception {
        try (var h = harness()) {
            h.open();
            h.setProcessingTime(0);
            JoinedOutcome.Matched m = matched("r1");
            // the digest did not know the model yet
            h.processElement1(new JoinedOutcome.Matched(new DecisionSummary("r1", "m", 1, 0.5, Map.of()), m.outcome()), 0);
            h.setProcessingTime(WINDOW);
            Map<String, Object> d = h.extractOutputValues().get(0).details();
            assertThat(d).containsEntry("server.s1.parts", 1L).doesNotContainKey("server.s1.effectiveOpsPerSecond");
            assertThat((double) d.get("calibrationRatio")).isCloseTo(2.0, within(1e-12));
        }
    }

    @Test
    void partsListingTheirTasks_opsFromTheCatalogInput() throws Exception {
        PlacementOutcome listed = PlacementOutcome.ok("r1", "m", 1, List.of(
                new OutcomePart("s1", 0, 1_000, false, List.of("a", "b"), 1.0)), 0, 1_000, 1.0);
        JoinedOutcome.Matched m = new JoinedOutcome.Matched(OutcomeJoinTest.decision("r1", "m", 0.5), listed);
        try (var h = harness()) {
            h.open();
            h.setProcessingTime(0);
            h.processElement1(m, 0); // no catalog: the listed tasks' ops are unknown
            h.setProcessingTime(WINDOW);
            h.processElement2(catalog(), 0);
            h.processElement1(m, 0);
            h.setProcessingTime(2 * WINDOW);
            List<ControllerEvent> events = h.extractOutputValues();
            assertThat(events).hasSize(2);
            assertThat(events.get(0).details()).doesNotContainKey("server.s1.effectiveOpsPerSecond");
            // a and b: 5e12 ops in 1 s (not the decision's 4e12 on s1)
            assertThat((double) events.get(1).details().get("server.s1.effectiveOpsPerSecond")).isCloseTo(5e12, within(1.0));
        }
    }

    @Test
    void manyServers_eventListsAtMostTheCap() throws Exception {
        try (var h = harness()) {
            h.open();
            h.setProcessingTime(0);
            for (int i = 0; i < CalibrationEvents.MAX_SERVERS + 5; i++) {
                h.processElement1(new JoinedOutcome.Matched(OutcomeJoinTest.decision("r" + i, "m", 1),
                        PlacementOutcome.ok("r" + i, "m", 1, List.of(OutcomePart.of("s" + i, 0, 1000, false)), 0,
                                1000, 1.0)), 0);
            }
            h.setProcessingTime(WINDOW);
            Map<String, Object> d = h.extractOutputValues().get(0).details();
            assertThat(d.keySet().stream().filter(k -> k.startsWith("server.") && k.endsWith(".parts")))
                    .hasSize(CalibrationEvents.MAX_SERVERS);
            assertThat(d).containsEntry("serversOmitted", 5).containsEntry("servers", CalibrationEvents.MAX_SERVERS + 5);
        }
    }

    @Test
    void checkpointed_windowAndCatalogSurviveARestore() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness()) {
            h.open();
            h.setProcessingTime(1_000);
            h.processElement2(catalog(), 0);
            h.processElement1(matched("r1"), 0);
            snapshot = h.snapshot(1, 1_000);
        }
        try (var restored = harness()) {
            restored.initializeState(snapshot);
            restored.open();
            restored.setProcessingTime(2_000);
            restored.processElement1(matched("r2"), 0);
            restored.setProcessingTime(WINDOW);
            assertThat(restored.extractOutputValues()).singleElement().satisfies(e -> {
                assertThat(e.details()).containsEntry("okOutcomes", 2L).containsEntry("server.s1.parts", 2L);
                assertThat((double) e.details().get("server.s1.effectiveOpsPerSecond")).isCloseTo(2e12, within(1.0));
            });
        }
    }
}
