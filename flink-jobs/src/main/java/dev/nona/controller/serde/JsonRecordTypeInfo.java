package dev.nona.controller.serde;

import java.util.Objects;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Type information for an immutable record serialised as JSON by {@link JsonRecordSerializer}. Lets the job
 * run with {@code pipeline.generic-types: false} (no Kryo) while its control records hold lists and maps.
 */
public final class JsonRecordTypeInfo<T> extends TypeInformation<T> {
    private static final long serialVersionUID = 1L;

    private final Class<T> type;

    private JsonRecordTypeInfo(Class<T> type) {
        this.type = Objects.requireNonNull(type, "type");
    }

    public static <T> JsonRecordTypeInfo<T> of(Class<T> type) {
        return new JsonRecordTypeInfo<>(type);
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<T> getTypeClass() {
        return type;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return new JsonRecordSerializer<>(type);
    }

    @Override
    public String toString() {
        return "Json<" + type.getSimpleName() + ">";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof JsonRecordTypeInfo<?> other && other.type.equals(type);
    }

    @Override
    public int hashCode() {
        return type.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof JsonRecordTypeInfo;
    }
}
