package dev.nona.controller.outcome;

import dev.nona.controller.serde.ImmutableRecordSerializer;
import dev.nona.controller.serde.RecordTypeInfo;
import dev.nona.controller.serde.Utf8Strings;
import dev.nona.topics.record.DecisionExplanation;
import dev.nona.topics.record.DecisionPart;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.StageAssignment;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink serializer of a {@link PlacementDecision} on its way from placement to the {@link DecisionDigest}: once per
 * decision, so hand-written rather than JSON. The fields in order, strings as length-prefixed UTF-8, then the stages
 * (-1: none, the compact form), then the explanation (a presence flag, its parts, choices and figures);
 * the model and server ids decode to recent instances. Not thread safe: {@link #duplicate()} gives each thread its
 * own.
 */
public final class PlacementDecisionSerializer extends ImmutableRecordSerializer<PlacementDecision> {
    private static final long serialVersionUID = 1L;

    private transient Utf8Strings strings;

    /** Type information with this serializer. */
    public static final class TypeInfo extends RecordTypeInfo<PlacementDecision> {
        private static final long serialVersionUID = 1L;

        public TypeInfo() {
            super(PlacementDecision.class);
        }

        @Override
        public TypeSerializer<PlacementDecision> createSerializer(SerializerConfig config) {
            return new PlacementDecisionSerializer();
        }

        @Override
        public String toString() {
            return "PlacementDecision";
        }
    }

    @Override
    public TypeSerializer<PlacementDecision> duplicate() {
        return new PlacementDecisionSerializer();
    }

    @Override
    public void serialize(PlacementDecision d, DataOutputView out) throws IOException {
        out.writeInt(d.schemaVersion());
        Utf8Strings.write(d.requestId(), out);
        Utf8Strings.write(d.model(), out);
        Utf8Strings.write(d.tenant(), out);
        out.writeLong(d.tableVersion());
        out.writeBoolean(d.fallback());
        out.writeDouble(d.predictedJctSeconds());
        out.writeLong(d.eventTime());
        out.writeInt(d.stages() == null ? -1 : d.stages().size());
        if (d.stages() != null) {
            for (StageAssignment s : d.stages()) {
                Utf8Strings.write(s.task(), out);
                Utf8Strings.write(s.server(), out);
            }
        }
        writeExplanation(d.explanation(), out);
    }

    private static void writeExplanation(DecisionExplanation e, DataOutputView out) throws IOException {
        out.writeBoolean(e != null);
        if (e == null) {
            return;
        }
        out.writeInt(e.parts().size());
        for (DecisionPart p : e.parts()) {
            Utf8Strings.write(p.server(), out);
            out.writeInt(p.stages());
            out.writeInt(p.tasks() == null ? -1 : p.tasks().size());
            if (p.tasks() != null) {
                for (String t : p.tasks()) {
                    Utf8Strings.write(t, out);
                }
            }
            out.writeBoolean(p.warm());
            out.writeDouble(p.predictedBacklogSeconds());
            out.writeInt(p.ongoingRequests());
            out.writeBoolean(p.targetMet());
        }
        out.writeInt(e.choices().size());
        for (int c : e.choices()) {
            out.writeInt(c);
        }
        out.writeDouble(e.choiceProbability());
        out.writeDouble(e.tableJctSeconds());
        out.writeDouble(e.waitSeconds());
    }

    private DecisionExplanation readExplanation(DataInputView in) throws IOException {
        if (!in.readBoolean()) {
            return null;
        }
        int n = count(in.readInt(), "parts");
        List<DecisionPart> parts = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String server = strings().recent(in);
            int stages = in.readInt();
            int tasks = in.readInt();
            List<String> ids = null;
            if (tasks >= 0) {
                ids = new ArrayList<>(tasks);
                for (int t = 0; t < tasks; t++) {
                    ids.add(strings().read(in));
                }
            }
            parts.add(new DecisionPart(server, stages, ids, in.readBoolean(), in.readDouble(), in.readInt(),
                    in.readBoolean()));
        }
        int c = count(in.readInt(), "choices");
        List<Integer> choices = new ArrayList<>(c);
        for (int i = 0; i < c; i++) {
            choices.add(in.readInt());
        }
        return new DecisionExplanation(parts, choices, in.readDouble(), in.readDouble(), in.readDouble());
    }

    private static int count(int n, String what) throws IOException {
        if (n < 0) {
            throw new IOException("corrupt decision: " + n + " " + what);
        }
        return n;
    }

    @Override
    public PlacementDecision deserialize(DataInputView in) throws IOException {
        int version = in.readInt();
        String requestId = strings().read(in);
        String model = strings().recent(in);
        String tenant = strings().read(in);
        long tableVersion = in.readLong();
        boolean fallback = in.readBoolean();
        double predicted = in.readDouble();
        long eventTime = in.readLong();
        int n = in.readInt();
        if (n < -1) {
            throw new IOException("corrupt decision: " + n + " stages");
        }
        List<StageAssignment> stages = n < 0 ? null : new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            stages.add(new StageAssignment(strings().read(in), strings().recent(in)));
        }
        return new PlacementDecision(version, requestId, model, tenant, tableVersion, fallback, stages, predicted,
                eventTime, readExplanation(in));
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }

    private Utf8Strings strings() {
        if (strings == null) {
            strings = new Utf8Strings("placement decision");
        }
        return strings;
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof PlacementDecisionSerializer;
    }

    @Override
    public int hashCode() {
        return PlacementDecisionSerializer.class.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<PlacementDecision> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The format has no parameters: any snapshot of it restores this serializer. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<PlacementDecision> {
        public Snapshot() {
            super(PlacementDecisionSerializer::new);
        }
    }
}
