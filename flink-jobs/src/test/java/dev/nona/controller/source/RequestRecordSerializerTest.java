package dev.nona.controller.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.InferenceRequest;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

final class RequestRecordSerializerTest {
    private static RequestRecord roundTrip(TypeSerializer<RequestRecord> s, RequestRecord r) throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(64);
        s.serialize(r, out);
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        RequestRecord back = s.deserialize(in);
        assertThat(in.available()).isZero();
        return back;
    }

    @Test
    void typeInformationOf_requestRecord_isTheHandWrittenSerializer() {
        TypeInformation<RequestRecord> info = TypeInformation.of(RequestRecord.class);
        assertThat(info).isInstanceOf(RequestRecordTypeInfo.class);
        assertThat(info.createSerializer(new SerializerConfigImpl())).isInstanceOf(RequestRecordSerializer.class);
    }

    @Test
    void roundTrip_requestsWithAndWithoutPayload_nonAscii_andRejected() throws Exception {
        RequestRecordSerializer s = new RequestRecordSerializer();
        RequestRecord plain = new RequestRecord(InferenceRequest.of("r-1", "resnet18", "t1", 1_700_000_000_000L, 1024L), null, 3, 42);
        RequestRecord noPayload = new RequestRecord(InferenceRequest.of("réq-λ-😀", "modèle", "ténant", 0, null), null, -1, -1);
        RequestRecord rejected = new RequestRecord(null, DeadLetter.of("{bad".getBytes(StandardCharsets.UTF_8),
                "inference-requests", 2, 7, "malformed JSON", 5), 2, 7);
        for (RequestRecord r : new RequestRecord[] {plain, noPayload, rejected, plain, noPayload}) {
            assertThat(roundTrip(s, r)).isEqualTo(r);
        }
    }

    @Test
    void deserialize_sameModelTwice_returnsTheSameString_andOtherModelsStayDistinct() throws Exception {
        RequestRecordSerializer s = new RequestRecordSerializer();
        RequestRecord a = roundTrip(s, new RequestRecord(InferenceRequest.of("r1", "alexnet", "t", 1, null), null, 0, 1));
        for (int i = 0; i < 40; i++) {
            RequestRecord other = roundTrip(s, new RequestRecord(InferenceRequest.of("x" + i, "m" + (i % 20), "t", 1, null), null, 0, 1));
            assertThat(other.request().model()).isEqualTo("m" + (i % 20));
        }
        RequestRecord b = roundTrip(s, new RequestRecord(InferenceRequest.of("r2", "alexnet", "t", 2, null), null, 0, 2));
        RequestRecord c = roundTrip(s, new RequestRecord(InferenceRequest.of("r3", "alexnet", "t", 3, null), null, 0, 3));
        assertThat(b.request().model()).isEqualTo("alexnet").isSameAs(c.request().model());
        assertThat(a.request().model()).isEqualTo("alexnet");
    }

    @Test
    void snapshot_restoresTheSerializer_compatibleAsIs() throws Exception {
        TypeSerializerSnapshot<RequestRecord> snapshot = new RequestRecordSerializer().snapshotConfiguration();
        DataOutputSerializer out = new DataOutputSerializer(16);
        snapshot.writeSnapshot(out);
        RequestRecordSerializer.Snapshot restored = new RequestRecordSerializer.Snapshot();
        restored.readSnapshot(snapshot.getCurrentVersion(), new DataInputDeserializer(out.getCopyOfBuffer()),
                getClass().getClassLoader());
        assertThat(restored.restoreSerializer()).isEqualTo(new RequestRecordSerializer());
        assertThat(restored.resolveSchemaCompatibility(snapshot).isCompatibleAsIs()).isTrue();
    }
}
