package dev.nona.controller.source;

import dev.nona.controller.serde.ImmutableRecordSerializer;
import dev.nona.controller.serde.JsonRecordSerializer;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.InferenceRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
    private static final int MODELS = 16;

    private final JsonRecordSerializer<DeadLetter> deadLetters = new JsonRecordSerializer<>(DeadLetter.class);
    private transient byte[] buffer;
    private transient byte[][] modelBytes;
    private transient String[] models;
    private transient int nextModel;

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
            string(r.id(), out);
            string(r.model(), out);
            string(r.tenant(), out);
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
        String id = string(in);
        String model = model(in);
        String tenant = string(in);
        long eventTime = in.readLong();
        Long payload = (flags & PAYLOAD) != 0 ? in.readLong() : null;
        InferenceRequest request = new InferenceRequest(version, id, model, tenant, eventTime, payload);
        return new RequestRecord(request, null, in.readInt(), in.readLong());
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }

    private static void string(String s, DataOutputView out) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private int read(DataInputView in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("corrupt request record: string length " + n);
        }
        if (buffer == null || buffer.length < n) {
            buffer = new byte[Math.max(64, n)];
        }
        in.readFully(buffer, 0, n);
        return n;
    }

    private String string(DataInputView in) throws IOException {
        int n = read(in);
        return new String(buffer, 0, n, StandardCharsets.UTF_8);
    }

    /** A model name, the same instance as a recent one with the same bytes. */
    private String model(DataInputView in) throws IOException {
        int n = read(in);
        if (models == null) {
            models = new String[MODELS];
            modelBytes = new byte[MODELS][];
        }
        for (int i = 0; i < MODELS; i++) {
            byte[] known = modelBytes[i];
            if (known != null && Arrays.equals(known, 0, known.length, buffer, 0, n)) {
                return models[i];
            }
        }
        String model = new String(buffer, 0, n, StandardCharsets.UTF_8);
        modelBytes[nextModel] = Arrays.copyOf(buffer, n);
        models[nextModel] = model;
        nextModel = (nextModel + 1) % MODELS;
        return model;
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
