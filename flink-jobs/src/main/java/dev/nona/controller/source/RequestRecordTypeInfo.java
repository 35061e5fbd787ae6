package dev.nona.controller.source;

import dev.nona.controller.serde.RecordTypeInfo;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Type information of {@link RequestRecord}: its {@link RequestRecordSerializer} (found via {@code @TypeInfo}). */
public final class RequestRecordTypeInfo extends RecordTypeInfo<RequestRecord> {
    private static final long serialVersionUID = 1L;

    /** For {@code @TypeInfo}: {@code TypeInformation.of(RequestRecord.class)} gives this. */
    public static final class Factory extends TypeInfoFactory<RequestRecord> {
        @Override
        public TypeInformation<RequestRecord> createTypeInfo(Type t, Map<String, TypeInformation<?>> genericParameters) {
            return new RequestRecordTypeInfo();
        }
    }

    public RequestRecordTypeInfo() {
        super(RequestRecord.class);
    }

    @Override
    public TypeSerializer<RequestRecord> createSerializer(SerializerConfig config) {
        return new RequestRecordSerializer();
    }

    @Override
    public String toString() {
        return "RequestRecord";
    }
}
