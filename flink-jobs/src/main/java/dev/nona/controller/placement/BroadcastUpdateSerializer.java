package dev.nona.controller.placement;

import dev.nona.controller.serde.ImmutableRecordSerializer;
import dev.nona.controller.serde.JsonRecordSerializer;
import dev.nona.controller.serde.Utf8Strings;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.ServerTelemetry;
import java.io.IOException;
import java.util.Arrays;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink serializer of a {@link BroadcastUpdate}, the broadcast stream into the placement operator. Hand-written for
 * the server reports, which are most of that stream (every server reports about once a second: at 10,000 servers
 * one report per three requests at 30,000 requests/s): a tag byte and the report's fields in binary (strings as
 * length-prefixed UTF-8, optional numbers behind a flag), the report rebuilt through its validating constructor. The
 * rare updates (tables, catalog entries, removals) go as JSON ({@link JsonRecordSerializer}). Decoding returns the
 * same {@code String} for a model name it decoded recently (warm models repeat in every report).
 *
 * <p>Not thread safe: {@link #duplicate()} gives each thread its own.
 */
public final class BroadcastUpdateSerializer extends ImmutableRecordSerializer<BroadcastUpdate> {
    private static final long serialVersionUID = 1L;
    private static final int JSON = 0;
    private static final int SERVER = 1;
    private static final int LINK = 2;
    private static final int BACKLOG = 4;
    /** A report with a server class; with a memory (flags unknown before heterogeneous servers: old bytes read alike). */
    private static final int CLASS = 8;
    private static final int MEMORY = 16;
    /** A report with a free memory (a flag unknown before it: older bytes read alike, without one). */
    private static final int FREE = 32;
    /** A report with the {@code cluster-telemetry} partition it was read from. */
    private static final int PARTITION = 64;

    private final JsonRecordSerializer<BroadcastUpdate> json = new JsonRecordSerializer<>(BroadcastUpdate.class);
    private transient Utf8Strings strings;

    @Override
    public TypeSerializer<BroadcastUpdate> duplicate() {
        return new BroadcastUpdateSerializer();
    }

    @Override
    public void serialize(BroadcastUpdate update, DataOutputView out) throws IOException {
        ServerTelemetry s = update.server();
        if (s == null) {
            out.writeByte(JSON);
            json.serialize(update, out);
            return;
        }
        out.writeByte(SERVER | (s.linkBitsPerSecond() != null ? LINK : 0) | (s.backlogSeconds() != null ? BACKLOG : 0)
                | (s.serverClass() != null ? CLASS : 0) | (s.memoryBytes() != null ? MEMORY : 0)
                | (s.freeMemoryBytes() != null ? FREE : 0) | (update.partition() != null ? PARTITION : 0));
        out.writeInt(s.schemaVersion());
        Utf8Strings.write(s.serverId(), out);
        out.writeBoolean(s.up());
        out.writeDouble(s.opsPerSecond());
        out.writeInt(s.ongoingRequests());
        out.writeInt(s.cachedModels().size());
        for (CachedModel m : s.cachedModels()) {
            Utf8Strings.write(m.model(), out);
            out.writeLong(m.bytes());
        }
        if (s.linkBitsPerSecond() != null) {
            out.writeDouble(s.linkBitsPerSecond());
        }
        out.writeLong(s.eventTime());
        if (s.backlogSeconds() != null) {
            out.writeDouble(s.backlogSeconds());
        }
        if (s.serverClass() != null) {
            Utf8Strings.write(s.serverClass(), out);
        }
        if (s.memoryBytes() != null) {
            out.writeDouble(s.memoryBytes());
        }
        if (s.freeMemoryBytes() != null) {
            out.writeDouble(s.freeMemoryBytes());
        }
        if (update.partition() != null) {
            out.writeInt(update.partition());
        }
    }

    @Override
    public BroadcastUpdate deserialize(DataInputView in) throws IOException {
        int flags = in.readByte();
        if ((flags & SERVER) == 0) {
            return json.deserialize(in);
        }
        int version = in.readInt();
        String serverId = strings().read(in);
        boolean up = in.readBoolean();
        double ops = in.readDouble();
        int ongoing = in.readInt();
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("corrupt broadcast update: " + n + " cached models");
        }
        CachedModel[] cached = new CachedModel[n];
        for (int i = 0; i < n; i++) {
            cached[i] = new CachedModel(strings().recent(in), in.readLong());
        }
        Double link = (flags & LINK) != 0 ? in.readDouble() : null;
        long eventTime = in.readLong();
        Double backlog = (flags & BACKLOG) != 0 ? in.readDouble() : null;
        String serverClass = (flags & CLASS) != 0 ? strings().recent(in) : null;
        Double memory = (flags & MEMORY) != 0 ? in.readDouble() : null;
        Double free = (flags & FREE) != 0 ? in.readDouble() : null;
        int partition = (flags & PARTITION) != 0 ? in.readInt() : -1;
        return BroadcastUpdate.of(new ServerTelemetry(version, serverId, up, ops, ongoing, Arrays.asList(cached), link,
                eventTime, backlog, serverClass, memory, free), partition);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }

    private Utf8Strings strings() {
        if (strings == null) {
            strings = new Utf8Strings("broadcast update");
        }
        return strings;
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof BroadcastUpdateSerializer;
    }

    @Override
    public int hashCode() {
        return BroadcastUpdateSerializer.class.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<BroadcastUpdate> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The format has no parameters: any snapshot of it restores this serializer. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<BroadcastUpdate> {
        public Snapshot() {
            super(BroadcastUpdateSerializer::new);
        }
    }
}
