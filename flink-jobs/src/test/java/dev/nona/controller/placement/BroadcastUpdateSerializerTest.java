package dev.nona.controller.placement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.ServerTelemetry;
import java.util.List;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

final class BroadcastUpdateSerializerTest {
    private static BroadcastUpdate roundTrip(BroadcastUpdateSerializer s, BroadcastUpdate u) throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(64);
        s.serialize(u, out);
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        BroadcastUpdate back = s.deserialize(in);
        assertThat(in.available()).isZero();
        return back;
    }

    @Test
    void typeInformation_givesTheHandWrittenSerializer() {
        assertThat(new BroadcastUpdateTypeInfo().createSerializer(new SerializerConfigImpl()))
                .isInstanceOf(BroadcastUpdateSerializer.class);
    }

    @Test
    void roundTrip_reportsWithAndWithoutOptionalFields_nonAscii_andTheRareKindsAsJson() throws Exception {
        BroadcastUpdateSerializer s = new BroadcastUpdateSerializer();
        BroadcastUpdate full = BroadcastUpdate.of(ServerTelemetry.of("s-1", true, 1.0e13, 3,
                List.of(new CachedModel("resnet18", 1 << 30), new CachedModel("modèle-λ", 0)), 1.0e10,
                1_700_000_000_000L, 0.25));
        BroadcastUpdate bare = BroadcastUpdate.of(ServerTelemetry.of("sérveur-😀", false, 0, 0, List.of(), null, 0, null));
        BroadcastUpdate catalog = BroadcastUpdate.of(ModelCatalogEntry.of("fig1", new CatalogDag("fig1",
                List.of(new CatalogTask("t1", 1e9), new CatalogTask("t2", 1e10)), List.of(new CatalogEdge("t1", "t2", 1e8)))));
        BroadcastUpdate removed = BroadcastUpdate.removed("alexnet");
        BroadcastUpdate classed = BroadcastUpdate.of(full.server().withClass("clàsse-a100", 8.0e10));
        BroadcastUpdate memoryOnly = BroadcastUpdate.of(bare.server().withClass(null, 1.0));
        BroadcastUpdate sized = BroadcastUpdate.of(ModelCatalogEntry.of("big", new CatalogDag("big",
                List.of(new CatalogTask("t1", 1e9, 3.0), new CatalogTask("t2", 1e10, 5.0)), List.of()), 8.0));
        for (BroadcastUpdate u : new BroadcastUpdate[] {full, bare, catalog, removed, full, bare, classed, memoryOnly,
                sized}) {
            assertThat(roundTrip(s, u)).isEqualTo(u);
        }
    }

    @Test
    void roundTrip_freeMemory_withAndWithoutMemory_andBytesWithoutTheFlagReadAsBefore() throws Exception {
        BroadcastUpdateSerializer s = new BroadcastUpdateSerializer();
        ServerTelemetry classed = ServerTelemetry.of("s-1", true, 1.0e13, 3, List.of(new CachedModel("m", 5)), 1.0e10,
                1_700_000_000_000L, 0.25).withClass("a100", 8.0e10);
        BroadcastUpdate free = BroadcastUpdate.of(classed.withFreeMemoryBytes(3.0e10));
        BroadcastUpdate none = BroadcastUpdate.of(classed.withFreeMemoryBytes(0.0));
        BroadcastUpdate freeOnly = BroadcastUpdate.of(ServerTelemetry.of("s-2", true, 1, 0, List.of(), null, 1)
                .withFreeMemoryBytes(7.0));
        for (BroadcastUpdate u : new BroadcastUpdate[] {free, none, freeOnly}) {
            assertThat(roundTrip(s, u)).isEqualTo(u);
        }
        assertThat(roundTrip(s, free).server().freeMemoryBytes()).isEqualTo(3.0e10);

        DataOutputSerializer withFree = new DataOutputSerializer(64);
        s.serialize(free, withFree);
        DataOutputSerializer without = new DataOutputSerializer(64);
        s.serialize(BroadcastUpdate.of(classed), without);
        byte[] a = withFree.getCopyOfBuffer();
        byte[] b = without.getCopyOfBuffer();
        assertThat(a.length).isEqualTo(b.length + Double.BYTES);
        assertThat(a[0] & ~32).isEqualTo(b[0]);
        assertThat(java.util.Arrays.copyOfRange(a, 1, b.length)).isEqualTo(java.util.Arrays.copyOfRange(b, 1, b.length));
        assertThat(s.deserialize(new DataInputDeserializer(b)).server().freeMemoryBytes()).isNull();
    }

    @Test
    void roundTrip_thePartitionAReportWasReadFrom_andNoneWithoutIt() throws Exception {
        BroadcastUpdateSerializer s = new BroadcastUpdateSerializer();
        ServerTelemetry r = ServerTelemetry.of("s-1", true, 1.0e13, 3, List.of(new CachedModel("m", 5)), 1.0e10,
                1_700_000_000_000L, 0.25).withClass("a100", 8.0e10).withFreeMemoryBytes(3.0e10);
        BroadcastUpdate read = roundTrip(s, BroadcastUpdate.of(r, 2));
        assertThat(read.server()).isEqualTo(r);
        assertThat(read.partitionOrNone()).isEqualTo(2);
        assertThat(roundTrip(s, BroadcastUpdate.of(r)).partitionOrNone()).isEqualTo(-1);
        assertThat(roundTrip(s, BroadcastUpdate.of(r, -1)).partition()).isNull();
    }

    @Test
    void deserialize_sameWarmModelTwice_returnsTheSameString() throws Exception {
        BroadcastUpdateSerializer s = new BroadcastUpdateSerializer();
        BroadcastUpdate a = roundTrip(s, BroadcastUpdate.of(ServerTelemetry.of("s1", true, 1, 0,
                List.of(new CachedModel("alexnet", 1)), null, 1)));
        BroadcastUpdate b = roundTrip(s, BroadcastUpdate.of(ServerTelemetry.of("s2", true, 1, 0,
                List.of(new CachedModel("alexnet", 1)), null, 2)));
        assertThat(b.server().cachedModels().get(0).model()).isEqualTo("alexnet")
                .isSameAs(a.server().cachedModels().get(0).model());
    }

    @Test
    void snapshot_restoresTheSerializer_compatibleAsIs() throws Exception {
        TypeSerializerSnapshot<BroadcastUpdate> snapshot = new BroadcastUpdateSerializer().snapshotConfiguration();
        DataOutputSerializer out = new DataOutputSerializer(16);
        snapshot.writeSnapshot(out);
        BroadcastUpdateSerializer.Snapshot restored = new BroadcastUpdateSerializer.Snapshot();
        restored.readSnapshot(snapshot.getCurrentVersion(), new DataInputDeserializer(out.getCopyOfBuffer()),
                getClass().getClassLoader());
        assertThat(restored.restoreSerializer()).isEqualTo(new BroadcastUpdateSerializer());
        assertThat(restored.resolveSchemaCompatibility(snapshot).isCompatibleAsIs()).isTrue();
    }
}
