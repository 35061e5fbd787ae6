package dev.nona.controller.source;

import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Type information of {@link RequestRecord}: its {@link RequestRecordSerializer} (found via {@code @TypeInfo}). */
public final class RequestRecordTypeInfo extends TypeInformation<RequestRecord> {
    private static final long serialVersionUID = 1L;

    /** For {@code @TypeInfo}: {@code TypeInformation.of(RequestRecord.class)} gives this. */
    public static final class Factory extends TypeInfoFactory<RequestRecord> {
        @Override
        public TypeInformation<RequestRecord> createTypeInfo(Type t, Map<String, TypeInformation<?>> genericParameters) {
            return new RequestRecordTypeInfo();
        }
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
    public Class<RequestRecord> getTypeClass() {
        return RequestRecord.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<RequestRecord> createSerializer(SerializerConfig config) {
        return new RequestRecordSerializer();
    }

    @Override
    public String toString() {
        return "RequestRecord";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof RequestRecordTypeInfo;
    }

    @Override
    public int hashCode() {
        return RequestRecordTypeInfo.class.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof RequestRecordTypeInfo;
    }
}
