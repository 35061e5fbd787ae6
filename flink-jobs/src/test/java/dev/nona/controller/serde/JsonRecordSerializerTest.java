package dev.nona.controller.serde;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.TestingCluster;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.placement.BroadcastUpdate;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.record.StageAssignments;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

final class JsonRecordSerializerTest {
    private static <T> T roundTrip(TypeSerializer<T> serializer, T value) throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(256);
        serializer.serialize(value, out);
        return serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    }

    @Test
    void fallbackTable_withNaNPredictions_roundTrips() throws Exception {
        ControllerTable table = new ControllerTable(4, true, 7, "infeasible", Map.of("fig1", 3.0),
                TestingCluster.snapshot(3), Double.NaN, Double.NaN, Map.of(), null);
        TypeSerializer<ControllerTable> s = JsonRecordTypeInfo.of(ControllerTable.class).createSerializer(new SerializerConfigImpl());
        assertThat(roundTrip(s, table)).isEqualTo(table);
    }

    @Test
    void broadcastUpdate_withTopicRecords_roundTrips() throws Exception {
        BroadcastUpdate update = BroadcastUpdate.of(TestingCluster.server("s1", 42, "fig1"));
        TypeSerializer<BroadcastUpdate> s = JsonRecordTypeInfo.of(BroadcastUpdate.class).createSerializer(new SerializerConfigImpl());
        assertThat(roundTrip(s, update)).isEqualTo(update);
    }

    @Test
    void serverReport_asThePlacementStateKeepsIt_keepsItsFreeMemory() throws Exception {
        ServerTelemetry report = TestingCluster.server("s1", 42, "fig1").withClass("a100", 8.0e10).withFreeMemoryBytes(2.5e10);
        TypeSerializer<ServerTelemetry> s = JsonRecordTypeInfo.of(ServerTelemetry.class).createSerializer(new SerializerConfigImpl());
        assertThat(roundTrip(s, report)).isEqualTo(report);
        assertThat(roundTrip(s, report).freeMemoryBytes()).isEqualTo(2.5e10);
    }

    @Test
    void decision_withStagesAsIds_roundTripsToAnEqualDecision() throws Exception {
        StageAssignments stages = StageAssignments.of(new StageAssignments.Tasks(List.of("t1", "t2", "t3")),
                new String[] {"s0", "s0", "s2"});
        PlacementDecision d = PlacementDecision.of("r-1", "fig1", "t", 3, false, stages, 0.5, 1_700_000_000_000L);
        TypeSerializer<PlacementDecision> s =
                JsonRecordTypeInfo.of(PlacementDecision.class).createSerializer(new SerializerConfigImpl());
        PlacementDecision back = roundTrip(s, d);
        assertThat(back).isEqualTo(d);
        assertThat(back.stages()).containsExactly(new StageAssignment("t1", "s0"), new StageAssignment("t2", "s0"),
                new StageAssignment("t3", "s2"));
    }

    @Test
    void snapshot_restoresAnEqualSerializer_andIsCompatibleWithItself() throws Exception {
        JsonRecordSerializer<ControllerTable> s = new JsonRecordSerializer<>(ControllerTable.class);
        TypeSerializerSnapshot<ControllerTable> snapshot = s.snapshotConfiguration();
        DataOutputSerializer out = new DataOutputSerializer(64);
        snapshot.writeSnapshot(out);
        JsonRecordSerializer.Snapshot<ControllerTable> read = new JsonRecordSerializer.Snapshot<>();
        read.readSnapshot(1, new DataInputDeserializer(out.getCopyOfBuffer()), getClass().getClassLoader());
        assertThat(read.restoreSerializer()).isEqualTo(s);
        assertThat(s.snapshotConfiguration().resolveSchemaCompatibility(read).isCompatibleAsIs()).isTrue();
    }
}
