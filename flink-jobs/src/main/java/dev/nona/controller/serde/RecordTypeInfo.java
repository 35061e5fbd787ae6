package dev.nona.controller.serde;

import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * Type information of an immutable record that Flink treats as one opaque value with a serializer of our own
 * (no POJO analysis, no Kryo). Subclasses name the serializer; two instances are equal when they are of the same
 * class for the same record type.
 */
public abstract class RecordTypeInfo<T> extends TypeInformation<T> {
    private static final long serialVersionUID = 1L;

    private final Class<T> type;

    protected RecordTypeInfo(Class<T> type) {
        this.type = Objects.requireNonNull(type, "record type");
    }

    @Override
    public final boolean isBasicType() {
        return false;
    }

    @Override
    public final boolean isTupleType() {
        return false;
    }

    @Override
    public final int getArity() {
        return 1;
    }

    @Override
    public final int getTotalFields() {
        return 1;
    }

    @Override
    public final Class<T> getTypeClass() {
        return type;
    }

    @Override
    public final boolean isKeyType() {
        return false;
    }

    @Override
    public final boolean equals(Object obj) {
        return canEqual(obj) && ((RecordTypeInfo<?>) obj).type.equals(type);
    }

    @Override
    public final int hashCode() {
        return 31 * getClass().hashCode() + type.hashCode();
    }

    @Override
    public final boolean canEqual(Object obj) {
        return obj != null && obj.getClass() == getClass();
    }
}
