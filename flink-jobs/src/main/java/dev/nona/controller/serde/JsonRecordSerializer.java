package dev.nona.controller.serde;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Objects;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * A Flink {@link TypeSerializer} for an immutable record (or any Jackson-bindable immutable value) that
 * writes it as length-prefixed JSON. Used for the controller's low-volume control records (tables, cluster
 * views, solve requests) whose nested collections Flink's POJO serializer would otherwise hand to Kryo.
 * The hot path (requests, decisions) never goes through it.
 *
 * <p>Because the values are immutable, {@link #copy(Object)} returns its argument. Not thread safe (Flink
 * duplicates serializers per thread through {@link #duplicate()}).
 */
public final class JsonRecordSerializer<T> extends ImmutableRecordSerializer<T> {
    private static final long serialVersionUID = 1L;

    private final Class<T> type;
    private transient ObjectMapper mapper;

    public JsonRecordSerializer(Class<T> type) {
        this.type = Objects.requireNonNull(type, "type");
    }

    private ObjectMapper mapper() {
        if (mapper == null) {
            mapper = ControlJson.mapper();
        }
        return mapper;
    }

    public Class<T> type() {
        return type;
    }

    @Override
    public TypeSerializer<T> duplicate() {
        return new JsonRecordSerializer<>(type);
    }

    @Override
    public void serialize(T record, DataOutputView target) throws IOException {
        byte[] bytes = mapper().writeValueAsBytes(record);
        target.writeInt(bytes.length);
        target.write(bytes);
    }

    @Override
    public T deserialize(DataInputView source) throws IOException {
        byte[] bytes = new byte[source.readInt()];
        source.readFully(bytes);
        return mapper().readValue(bytes, type);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        int length = source.readInt();
        target.writeInt(length);
        target.write(source, length);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof JsonRecordSerializer<?> other && other.type.equals(type);
    }

    @Override
    public int hashCode() {
        return type.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<T> snapshotConfiguration() {
        return new Snapshot<>(type);
    }

    /** Writes the record class name; JSON absorbs added optional fields, so any same-class snapshot is compatible. */
    public static final class Snapshot<T> implements TypeSerializerSnapshot<T> {
        private Class<T> type;

        /** For Flink's reflective instantiation on restore. */
        public Snapshot() {}

        Snapshot(Class<T> type) {
            this.type = type;
        }

        @Override
        public int getCurrentVersion() {
            return 1;
        }

        @Override
        public void writeSnapshot(DataOutputView out) throws IOException {
            out.writeUTF(type.getName());
        }

        @Override
        @SuppressWarnings("unchecked")
        public void readSnapshot(int readVersion, DataInputView in, ClassLoader classLoader) throws IOException {
            String name = in.readUTF();
            try {
                type = (Class<T>) Class.forName(name, false, classLoader);
            } catch (ClassNotFoundException e) {
                throw new IOException("record class " + name + " of a JSON state serializer is not on the classpath", e);
            }
        }

        @Override
        public TypeSerializer<T> restoreSerializer() {
            return new JsonRecordSerializer<>(type);
        }

        @Override
        public TypeSerializerSchemaCompatibility<T> resolveSchemaCompatibility(TypeSerializerSnapshot<T> oldSnapshot) {
            if (oldSnapshot instanceof Snapshot<T> old && old.type.equals(type)) {
                return TypeSerializerSchemaCompatibility.compatibleAsIs();
            }
            return TypeSerializerSchemaCompatibility.incompatible();
        }
    }
}
