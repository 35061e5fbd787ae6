package dev.nona.controller.source;

import dev.nona.controller.serde.ImmutableRecordSerializer;
import dev.nona.controller.serde.JsonRecordSerializer;
import dev.nona.controller.serde.Utf8Strings;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.InferenceRequest;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink serializer of a {@link RequestRecord}, the record on the request path between the source and the placement
 * operator (and in the placement operator's held-requests state). Hand-written because it runs once per request:
 * a flag byte, the request's fields (strings as length-prefixed UTF-8) and where it was read; a rejected record's
 * dead letter, which is rare, as JSON. Decoding reuses one byte buffer and returns the same {@code String} for a
 * model name it decoded recently, so model look-ups downstream hit a cached hash.
 *
 * <p>Not thread safe: {@link #duplicate()} gives each thread its own.
 */
public final class RequestRecordSerializer extends ImmutableRecordSerializer<RequestRecord> {
    private static final long serialVersionUID = 1L;
    private static final int REQUEST = 1;
    private static final int PAYLOAD = 2;

    private final JsonRecordSerializer<DeadLetter> deadLetters = new JsonRecordSerializer<>(DeadLetter.class);
    private transient Utf8Strings strings;

    @Override
    public TypeSerializer<RequestRecord> duplicate() {
        return new RequestRecordSerializer();
    }

    @Override
    public void serialize(RequestRecord record, DataOutputView out) throws IOException {
        InferenceRequest r = record.request();
        if (r == null) {
            out.writeByte(0);
            deadLetters.serialize(record.rejected(), out);
        } else {
            out.writeByte(REQUEST | (r.payloadBytes() != null ? PAYLOAD : 0));
            out.writeInt(r.schemaVersion());
            Utf8Strings.write(r.id(), out);
            Utf8Strings.write(r.model(), out);
            Utf8Strings.write(r.tenant(), out);
            out.writeLong(r.eventTime());
            if (r.payloadBytes() != null) {
                out.writeLong(r.payloadBytes());
            }
        }
        out.writeInt(record.partition());
        out.writeLong(record.offset());
    }

    @Override
    public RequestRecord deserialize(DataInputView in) throws IOException {
        int flags = in.readByte();
        if ((flags & REQUEST) == 0) {
            DeadLetter rejected = deadLetters.deserialize(in);
            return new RequestRecord(null, rejected, in.readInt(), in.readLong());
        }
        int version = in.readInt();
        String id = strings().read(in);
        String model = strings().recent(in);
        String tenant = strings().read(in);
        long eventTime = in.readLong();
        Long payload = (flags & PAYLOAD) != 0 ? in.readLong() : null;
        InferenceRequest request = new InferenceRequest(version, id, model, tenant, eventTime, payload);
        return new RequestRecord(request, null, in.readInt(), in.readLong());
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }

    private Utf8Strings strings() {
        if (strings == null) {
            strings = new Utf8Strings("request record");
        }
        return strings;
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof RequestRecordSerializer;
    }

    @Override
    public int hashCode() {
        return RequestRecordSerializer.class.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<RequestRecord> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The format has no parameters: any snapshot of it restores this serializer. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<RequestRecord> {
        public Snapshot() {
            super(RequestRecordSerializer::new);
        }
    }
}
