package dev.nona.controller.outcome;

import dev.nona.controller.serde.ImmutableRecordSerializer;
import dev.nona.controller.serde.RecordTypeInfo;
import dev.nona.controller.serde.Utf8Strings;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink serializer of a {@link DecisionSummary} (once per decision, into the join and its state): the fields in
 * order, strings as length-prefixed UTF-8, then the servers and their ops. Not thread safe: {@link #duplicate()}
 * gives each thread its own.
 */
public final class DecisionSummarySerializer extends ImmutableRecordSerializer<DecisionSummary> {
    private static final long serialVersionUID = 1L;

    private transient Utf8Strings strings;

    /** Type information with this serializer. */
    public static final class TypeInfo extends RecordTypeInfo<DecisionSummary> {
        private static final long serialVersionUID = 1L;

        public TypeInfo() {
            super(DecisionSummary.class);
        }

        @Override
        public TypeSerializer<DecisionSummary> createSerializer(SerializerConfig config) {
            return new DecisionSummarySerializer();
        }

        @Override
        public String toString() {
            return "DecisionSummary";
        }
    }

    @Override
    public TypeSerializer<DecisionSummary> duplicate() {
        return new DecisionSummarySerializer();
    }

    @Override
    public void serialize(DecisionSummary s, DataOutputView out) throws IOException {
        Utf8Strings.write(s.requestId(), out);
        Utf8Strings.write(s.model(), out);
        out.writeLong(s.tableVersion());
        out.writeDouble(s.predictedJctSeconds());
        out.writeInt(s.opsPerServer().size());
        for (Map.Entry<String, Double> e : s.opsPerServer().entrySet()) {
            Utf8Strings.write(e.getKey(), out);
            out.writeDouble(e.getValue());
        }
    }

    @Override
    public DecisionSummary deserialize(DataInputView in) throws IOException {
        String requestId = strings().read(in);
        String model = strings().recent(in);
        long tableVersion = in.readLong();
        double predicted = in.readDouble();
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("corrupt decision summary: " + n + " servers");
        }
        Map<String, Double> ops = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            ops.put(strings().recent(in), in.readDouble());
        }
        return new DecisionSummary(requestId, model, tableVersion, predicted, ops);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }

    private Utf8Strings strings() {
        if (strings == null) {
            strings = new Utf8Strings("decision summary");
        }
        return strings;
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof DecisionSummarySerializer;
    }

    @Override
    public int hashCode() {
        return DecisionSummarySerializer.class.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<DecisionSummary> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The format has no parameters: any snapshot of it restores this serializer. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<DecisionSummary> {
        public Snapshot() {
            super(DecisionSummarySerializer::new);
        }
    }
}
