package dev.nona.controller.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.InferenceRequest;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

final class RejectedRecordsTest {

    @Test
    void requests_validGoOnWithTheirOffset_rejectedToTheRequestTagOnly() throws Exception {
        RequestRecord good = new RequestRecord(InferenceRequest.of("r1", "m", "t", 5, null), null, 2, 11);
        DeadLetter letter = DeadLetter.of(new byte[] {1}, "inference-requests", 0, 7, "bad", 5);
        RequestRecord bad = new RequestRecord(null, letter, 0, 7);
        try (var h = ProcessFunctionTestHarnesses.forProcessFunction(RejectedRecords.requests())) {
            h.processElement(good, 0);
            h.processElement(bad, 0);

            assertThat(h.extractOutputValues()).containsExactly(good);
            assertThat(h.getSideOutput(RejectedRecords.REQUEST_DEAD_LETTERS)).singleElement()
                    .satisfies(d -> assertThat(d.getValue()).isEqualTo(bad.rejected()));
            assertThat(h.getSideOutput(RejectedRecords.CONTROL_DEAD_LETTERS)).isNull();
        }
    }

    @Test
    void tags_keepTheirIds() {
        // operator side outputs are named by these ids: they stay as they were
        assertThat(RejectedRecords.REQUEST_DEAD_LETTERS.getId()).isEqualTo("request-dead-letters");
        assertThat(RejectedRecords.CONTROL_DEAD_LETTERS.getId()).isEqualTo("control-dead-letters");
        assertThat(RejectedRecords.OUTCOME_DEAD_LETTERS.getId()).isEqualTo("outcome-dead-letters");
        assertThat(RejectedRecords.requests().getProducedType()).isInstanceOf(RequestRecordTypeInfo.class);
    }
}
