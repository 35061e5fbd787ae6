package dev.nona.controller.placement;

import dev.nona.controller.serde.RecordTypeInfo;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Type information of {@link BroadcastUpdate}: its {@link BroadcastUpdateSerializer} (server reports in binary). */
public final class BroadcastUpdateTypeInfo extends RecordTypeInfo<BroadcastUpdate> {
    private static final long serialVersionUID = 1L;

    public BroadcastUpdateTypeInfo() {
        super(BroadcastUpdate.class);
    }

    @Override
    public TypeSerializer<BroadcastUpdate> createSerializer(SerializerConfig config) {
        return new BroadcastUpdateSerializer();
    }

    @Override
    public String toString() {
        return "BroadcastUpdate";
    }
}
