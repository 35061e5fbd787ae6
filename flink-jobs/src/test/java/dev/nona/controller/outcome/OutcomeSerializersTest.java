package dev.nona.controller.outcome;

import static org.assertj.core.api.Assertions.assertThat;

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
