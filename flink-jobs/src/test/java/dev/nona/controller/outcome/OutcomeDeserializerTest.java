package dev.nona.controller.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.source.RejectedRecords;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.serde.JsonSerde;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.util.ListCollector;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

final class OutcomeDeserializerTest {
    private final JsonSerde<PlacementOutcome> serde =
            new JsonSerde<>(PlacementOutcome.class, JsonSerde.DEFAULT_MAX_RECORD_BYTES);

    @Test
    void validOutcome_isPassedOn() {
        OutcomeRecord r = read("r1", serde.serialize(OutcomeJoinTest.outcome("r1", "m", 1.5)));
        assertThat(r.rejected()).isNull();
        assertThat(r.outcome()).isEqualTo(OutcomeJoinTest.outcome("r1", "m", 1.5));
    }

    @Test
    void invalidOutcome_isADeadLetterWithTheReasonAndWhereItCameFrom() {
        String json = new String(serde.serialize(OutcomeJoinTest.outcome("r1", "m", 1.5)), StandardCharsets.UTF_8)
                .replace("\"status\":\"ok\"", "\"status\":\"lost\"");
        byte[] value = json.getBytes(StandardCharsets.UTF_8);
        OutcomeRecord r = read("r1", value);
        DeadLetter d = r.rejected();
        assertThat(r.outcome()).isNull();
        assertThat(d.reason()).startsWith("field 'status'").contains("lost");
        assertThat(d.sourceTopic()).isEqualTo("placement-outcomes");
        assertThat(d.partition()).isEqualTo(3);
        assertThat(d.offset()).isEqualTo(17L);
        assertThat(d.raw()).isEqualTo(value);
    }

    @Test
    void keyThatIsNotTheRequestId_isADeadLetter() {
        OutcomeRecord r = read("r2", serde.serialize(OutcomeJoinTest.outcome("r1", "m", 1.5)));
        assertThat(r.rejected().reason()).isEqualTo("key ('r2') is not the outcome's requestId ('r1')");
    }

    @Test
    void notJson_isADeadLetter() {
        OutcomeRecord r = read(null, "{oops".getBytes(StandardCharsets.UTF_8));
        assertThat(r.rejected().reason()).startsWith("malformed JSON");
    }

    @Test
    void rejectedOutcomes_goToTheDeadLetterOutput_validOnesOn() throws Exception {
        OutcomeRecord bad = read(null, "{oops".getBytes(StandardCharsets.UTF_8));
        OutcomeRecord good = read("r1", serde.serialize(OutcomeJoinTest.outcome("r1", "m", 1.5)));
        try (var h = ProcessFunctionTestHarnesses.forProcessFunction(RejectedRecords.outcomes())) {
            h.processElement(bad, 0);
            h.processElement(good, 0);
            assertThat(h.extractOutputValues()).containsExactly(good.outcome());
            assertThat(h.getSideOutput(RejectedRecords.OUTCOME_DEAD_LETTERS)).singleElement()
                    .satisfies(d -> assertThat(d.getValue()).isEqualTo(bad.rejected()));
        }
    }

    private static OutcomeRecord read(String key, byte[] value) {
        List<OutcomeRecord> out = new ArrayList<>();
        new OutcomeDeserializer().deserialize(new ConsumerRecord<>("placement-outcomes", 3, 17L,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8), value), new ListCollector<>(out));
        assertThat(out).hasSize(1);
        return out.get(0);
    }
}
