package dev.nona.controller.serde;

import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Type information for an immutable record serialised as JSON by {@link JsonRecordSerializer}. Lets the job
 * run with {@code pipeline.generic-types: false} (no Kryo) while its control records hold lists and maps.
 */
public final class JsonRecordTypeInfo<T> extends RecordTypeInfo<T> {
    private static final long serialVersionUID = 1L;

    private JsonRecordTypeInfo(Class<T> type) {
        super(type);
    }

    public static <T> JsonRecordTypeInfo<T> of(Class<T> type) {
        return new JsonRecordTypeInfo<>(type);
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return new JsonRecordSerializer<>(getTypeClass());
    }

    @Override
    public String toString() {
        return "Json<" + getTypeClass().getSimpleName() + ">";
    }
}
