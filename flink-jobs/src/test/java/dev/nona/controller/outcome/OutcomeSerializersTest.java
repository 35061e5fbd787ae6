package dev.nona.controller.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.topics.record.DecisionExplanation;
import dev.nona.topics.record.DecisionPart;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.StageAssignment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

final class OutcomeSerializersTest {

    @Test
    void decision_roundTrips_manyStagesAndNonAscii() throws Exception {
        List<StageAssignment> stages = new ArrayList<>();
        for (int i = 0; i < 921; i++) {
            stages.add(new StageAssignment("task-" + i + "-ü", "server-" + (i % 7)));
        }
        PlacementDecision d = PlacementDecision.of("r-1 ☃", "nasnet", "acme", 42, true, stages, 0.125, 1_700_000_000_000L);
        assertThat(roundTrip(new PlacementDecisionSerializer(), d)).isEqualTo(d);
    }

    @Test
    void decision_withExplanation_fullAndCompact_roundTrips() throws Exception {
        List<StageAssignment> stages = List.of(new StageAssignment("a", "s-1"), new StageAssignment("b", "s-2"));
        for (boolean compact : new boolean[] {false, true}) {
            var why = new DecisionExplanation(List.of(
                    new DecisionPart("s-1", 1, compact ? List.of("a") : null, true, 0.25, 1, true),
                    new DecisionPart("s-2", 1, compact ? List.of("b") : null, false, 0.0, 3, false)),
                    List.of(2, 0), 0.3, 0.01, 0.25);
            PlacementDecision d = PlacementDecision.of("r-1", "m", "acme", 4, false, compact ? null : stages, 0.26,
                    1_700_000_000_000L, why);
            assertThat(roundTrip(new PlacementDecisionSerializer(), d)).isEqualTo(d);
            // the outcome join calibrates the table's JCT, not the per-request figure
            assertThat(DecisionSummary.of(d, Map.of("a", 1.0, "b", 2.0)).predictedJctSeconds()).isEqualTo(0.01);
            assertThat(DecisionSummary.of(d, Map.of("a", 1.0, "b", 2.0)).opsPerServer())
                    .isEqualTo(Map.of("s-1", 1.0, "s-2", 2.0));
        }
    }

    @Test
    void summary_roundTrips() throws Exception {
        DecisionSummary s = new DecisionSummary("r1", "m", 7, 0.5, Map.of("s1", 4e12, "s2", 1e12));
        assertThat(roundTrip(new DecisionSummarySerializer(), s)).isEqualTo(s);
        DecisionSummary empty = new DecisionSummary("r2", "m", 0, 0, Map.of());
        assertThat(roundTrip(new DecisionSummarySerializer(), empty)).isEqualTo(empty);
    }

    @Test
    void copyBetweenViews_keepsTheRecord() throws Exception {
        DecisionSummary s = new DecisionSummary("r1", "m", 7, 0.5, Map.of("s1", 4e12));
        DecisionSummarySerializer serializer = new DecisionSummarySerializer();
        DataOutputSerializer first = new DataOutputSerializer(64);
        serializer.serialize(s, first);
        DataOutputSerializer second = new DataOutputSerializer(64);
        serializer.copy(new DataInputDeserializer(first.getCopyOfBuffer()), second);
        assertThat(serializer.deserialize(new DataInputDeserializer(second.getCopyOfBuffer()))).isEqualTo(s);
    }

    private static <T> T roundTrip(TypeSerializer<T> serializer, T value) throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(256);
        serializer.serialize(value, out);
        return serializer.duplicate().deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    }
}
