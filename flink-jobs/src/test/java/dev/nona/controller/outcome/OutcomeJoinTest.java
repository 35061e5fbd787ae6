package dev.nona.controller.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.serde.JsonRecordSerializer;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.OutcomePart;
import dev.nona.topics.record.OutcomeStatus;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.StageAssignment;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

final class OutcomeJoinTest {
    private static final long MAX_WAIT = 60_000;
    private static final long DECISION_WAIT = 5_000;

    private static KeyedTwoInputStreamOperatorTestHarness<String, DecisionSummary, PlacementOutcome, JoinedOutcome>
            harness() throws Exception {
        return ProcessFunctionTestHarnesses.forKeyedCoProcessFunction(
                new OutcomeJoin("placement-outcomes", MAX_WAIT, DECISION_WAIT),
                DecisionSummary::requestId, PlacementOutcome::requestId, Types.STRING);
    }

    /** A decision's summary: task a (4e12 ops) on s1, task b (1e12 ops) on s2. */
    static DecisionSummary decision(String id, String model, double predicted) {
        return DecisionSummary.of(PlacementDecision.of(id, model, "acme", 1, false,
                List.of(new StageAssignment("a", "s1"), new StageAssignment("b", "s2")), predicted, 1_000),
                Map.of("a", 4e12, "b", 1e12));
    }

    static PlacementOutcome outcome(String id, String model, double observed) {
        return PlacementOutcome.ok(id, model, 1, List.of(OutcomePart.of("s1", 1_000, 1_400, false),
                OutcomePart.of("s2", 1_500, 2_000, true)), 4096, 2_000, observed);
    }

    @Test
    void decisionThenOutcome_matched_thenStateAndTimersGoAfterTheRetention() throws Exception {
        try (var h = harness()) {
            h.setProcessingTime(0);
            h.processElement1(decision("r1", "m", 0.5), 0);
            assertThat(h.extractOutputValues()).isEmpty();
            h.setProcessingTime(1_000);
            h.processElement2(outcome("r1", "m", 1.0), 0);
            assertThat(h.extractOutputValues()).containsExactly(
                    new JoinedOutcome.Matched(decision("r1", "m", 0.5), outcome("r1", "m", 1.0)));
            assertThat(h.numProcessingTimeTimers()).as("the done marker's timer").isEqualTo(1);
            h.setProcessingTime(1_000 + MAX_WAIT);
            assertThat(h.extractOutputValues()).hasSize(1);
            assertThat(h.numKeyedStateEntries()).isZero();
            assertThat(h.numProcessingTimeTimers()).isZero();
        }
    }

    @Test
    void outcomeThenDecision_matched() throws Exception {
        try (var h = harness()) {
            h.setProcessingTime(0);
            h.processElement2(outcome("r1", "m", 1.0), 0);
            h.setProcessingTime(DECISION_WAIT - 1);
            assertThat(h.extractOutputValues()).isEmpty();
            h.processElement1(decision("r1", "m", 0.5), 0);
            assertThat(h.extractOutputValues()).containsExactly(
                    new JoinedOutcome.Matched(decision("r1", "m", 0.5), outcome("r1", "m", 1.0)));
            assertThat(h.numProcessingTimeTimers()).isEqualTo(1);
        }
    }

    @Test
    void noOutcome_missingAfterMaxWait_notBefore() throws Exception {
        try (var h = harness()) {
            h.setProcessingTime(100);
            h.processElement1(decision("r1", "m", 0.5), 0);
            h.setProcessingTime(100 + MAX_WAIT - 1);
            assertThat(h.extractOutputValues()).isEmpty();
            h.setProcessingTime(100 + MAX_WAIT);
            assertThat(h.extractOutputValues()).containsExactly(new JoinedOutcome.Missing("r1", "m"));
            // a late outcome is not counted again
            h.processElement2(outcome("r1", "m", 1.0), 0);
            h.setProcessingTime(100 + 3 * MAX_WAIT);
            assertThat(h.extractOutputValues()).hasSize(1);
            assertThat(h.numKeyedStateEntries()).isZero();
            assertThat(h.numProcessingTimeTimers()).isZero();
        }
    }

    @Test
    void outcomeWithoutDecision_unmatchedAfterTheDecisionWait() throws Exception {
        try (var h = harness()) {
            h.setProcessingTime(0);
            h.processElement2(outcome("r1", "m", 1.0), 0);
            h.setProcessingTime(DECISION_WAIT);
            assertThat(h.extractOutputValues()).containsExactly(new JoinedOutcome.Unmatched("r1", "m"));
            h.processElement1(decision("r1", "m", 0.5), 0); // too late: neither matched nor missing
            h.setProcessingTime(DECISION_WAIT + 2 * MAX_WAIT);
            assertThat(h.extractOutputValues()).hasSize(1);
            assertThat(h.numKeyedStateEntries()).isZero();
        }
    }

    @Test
    void duplicateDecision_firstWins_beforeAndAfterTheOutcome() throws Exception {
        try (var h = harness()) {
            h.setProcessingTime(0);
            h.processElement1(decision("r1", "m", 0.5), 0);
            h.processElement1(decision("r1", "m", 0.9), 0); // a replayed decision with another sample
            h.processElement2(outcome("r1", "m", 1.0), 0);
            h.processElement1(decision("r1", "m", 0.7), 0);
            h.processElement2(outcome("r1", "m", 3.0), 0); // a repeated outcome
            h.setProcessingTime(10 * MAX_WAIT);
            assertThat(h.extractOutputValues()).containsExactly(
                    new JoinedOutcome.Matched(decision("r1", "m", 0.5), outcome("r1", "m", 1.0)));
        }
    }

    @Test
    void outcomeOfAnotherModel_deadLetter_decisionStillWaits() throws Exception {
        try (var h = harness()) {
            h.setProcessingTime(0);
            h.processElement1(decision("r1", "m", 0.5), 0);
            h.processElement2(outcome("r1", "other", 1.0), 0);
            List<DeadLetter> dead = h.getSideOutput(OutcomeJoin.DEAD_LETTERS).stream().map(r -> r.getValue()).toList();
            assertThat(dead).singleElement().satisfies(d -> {
                assertThat(d.reason()).isEqualTo("field 'model' ('other') is not the model of request r1's decision ('m')");
                assertThat(d.sourceTopic()).isEqualTo("placement-outcomes");
                assertThat(new String(d.raw(), StandardCharsets.UTF_8)).contains("\"requestId\":\"r1\"");
            });
            h.processElement2(outcome("r1", "m", 1.0), 0);
            assertThat(h.extractOutputValues()).containsExactly(
                    new JoinedOutcome.Matched(decision("r1", "m", 0.5), outcome("r1", "m", 1.0)));
        }
    }

    @Test
    void checkpointed_aWaitingDecisionSurvivesARestore() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness()) {
            h.setProcessingTime(0);
            h.processElement1(decision("r1", "m", 0.5), 0);
            snapshot = h.snapshot(1, 0);
        }
        var operator = new KeyedCoProcessOperator<>(new OutcomeJoin("placement-outcomes", MAX_WAIT, DECISION_WAIT));
        try (var restored = new KeyedTwoInputStreamOperatorTestHarness<String, DecisionSummary, PlacementOutcome, JoinedOutcome>(
                operator, DecisionSummary::requestId, PlacementOutcome::requestId, Types.STRING)) {
            restored.setup();
            restored.initializeState(snapshot);
            restored.open();
            restored.setProcessingTime(10);
            restored.processElement2(outcome("r1", "m", 1.0), 0);
            assertThat(restored.extractOutputValues()).containsExactly(
                    new JoinedOutcome.Matched(decision("r1", "m", 0.5), outcome("r1", "m", 1.0)));
        }
    }

    /**
     * The soak's checkpoint step (docs/benchmarks.md, Soak): the soak named its requests {@code m-<i>}, so at the
     * millionth request the ids gained a digit. The join keys its state by request id and keeps each done request
     * for {@code MAX_WAIT}, its key written three times in a checkpoint (the done marker, the timer's time and the
     * timer itself): 3 bytes more per id in the state once every id there has the extra digit (here 100 requests/s,
     * 6,000 ids: 18,000 bytes; in the soak, 1,000/s: 180,000), and then no more. Bounded: the size is the same 20,
     * 80 and 140 s after the step.
     */
    @Test
    void idsGainADigitAtAMillion_checkpointStepsBy3BytesPerIdInState_thenStaysFlat() throws Exception {
        try (var h = harness()) {
            Map<Long, Long> size = new java.util.TreeMap<>();
            long periodMillis = 10; // 100 requests/s: id i decided and done at 10 i ms
            for (long i = 994_000; i < 1_020_000; i++) {
                h.setProcessingTime(i * periodMillis); // the done markers of MAX_WAIT ago go
                String id = "m-" + i;
                h.processElement1(decision(id, "m", 0.5), 0);
                h.processElement2(outcome(id, "m", 1.0), 0);
                if (i % 2_000 == 1_999) {
                    size.put(i, h.snapshot(i, i * periodMillis).getStateSize());
                    h.extractOutputValues(); // drops the joined outcomes collected so far
                }
            }
            long inState = MAX_WAIT / periodMillis;
            assertThat(h.numKeyedStateEntries()).as("done markers and their timers' times").isEqualTo(2 * inState);
            assertThat(h.numProcessingTimeTimers()).isEqualTo(inState);
            long eightChars = size.get(999_999L); // ids m-994000 to m-999999 in the state
            long nineChars = size.get(1_005_999L); // ids m-1000000 to m-1005999
            assertThat(size.get(1_001_999L)).isStrictlyBetween(eightChars, nineChars);
            assertThat(nineChars - eightChars).as("one more byte per key, three keys per id").isEqualTo(3 * inState);
            assertThat(size.get(1_007_999L)).isEqualTo(nineChars);
            assertThat(size.get(1_013_999L)).isEqualTo(nineChars);
            assertThat(size.get(1_019_999L)).isEqualTo(nineChars);
        }
    }

    @Test
    void joinedOutcomes_roundTripThroughTheirSerializer() throws Exception {
        var serializer = new JsonRecordSerializer<>(JoinedOutcome.class);
        for (JoinedOutcome j : List.of(new JoinedOutcome.Matched(decision("r1", "m", 0.5),
                        PlacementOutcome.ended("r1", "m", 1, List.of(), 0, OutcomeStatus.TIMEOUT, 9, 8.0, "deadline")),
                new JoinedOutcome.Missing("r2", "m"), new JoinedOutcome.Unmatched("r3", "n"))) {
            DataOutputSerializer out = new DataOutputSerializer(256);
            serializer.serialize(j, out);
            assertThat(serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()))).isEqualTo(j);
        }
    }
}
