package dev.nona.controller.serde;

import static dev.nona.controller.serde.JsonBytes.ascii;

import dev.nona.topics.record.DecisionExplanation;
import dev.nona.topics.record.DecisionPart;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.record.StageAssignments;
import java.util.List;

/**
 * Writes a {@link PlacementDecision} as exactly the JSON bytes the topic serde ({@code kafka-topics}' Jackson
 * {@code JsonSerde}) writes, field for field and byte for byte, only faster. This class is the layout: the fields in
 * Jackson's order, the compact form (no {@code stages}) as Jackson omits a null field, and the optional
 * {@code explanation}. The ids come from an {@link IdCache} (a stage is written from two cached halves, $O(1)$ per
 * stage whatever the number of servers); everything else is written as Jackson writes it by {@link JsonBytes} into one
 * reused buffer. {@link #write} returns a new exact-size array (a Kafka producer keeps it until it is sent) into which
 * the stages' halves are copied once.
 *
 * <p>Not thread safe: one per operator or serialization-schema instance. Caches are bounded (see {@link IdCache}).
 */
public final class DecisionWriter {
    private static final byte[] SCHEMA_VERSION = ascii("{\"schemaVersion\":");
    private static final byte[] REQUEST_ID = ascii(",\"requestId\":");
    private static final byte[] MODEL = ascii(",\"model\":");
    private static final byte[] TENANT = ascii(",\"tenant\":");
    private static final byte[] TABLE_VERSION = ascii(",\"tableVersion\":");
    private static final byte[] FALLBACK_TRUE = ascii(",\"fallback\":true,\"stages\":[");
    private static final byte[] FALLBACK_FALSE = ascii(",\"fallback\":false,\"stages\":[");
    private static final byte[] COMPACT_FALLBACK_TRUE = ascii(",\"fallback\":true");
    private static final byte[] COMPACT_FALLBACK_FALSE = ascii(",\"fallback\":false");
    private static final byte[] PREDICTED_JCT = ascii("],\"predictedJctSeconds\":");
    private static final byte[] COMPACT_PREDICTED_JCT = ascii(",\"predictedJctSeconds\":");
    private static final byte[] EXPLANATION = ascii(",\"explanation\":{\"parts\":[");
    private static final byte[] PART_SERVER = ascii("{\"server\":");
    private static final byte[] PART_STAGES = ascii(",\"stages\":");
    private static final byte[] PART_TASKS = ascii(",\"tasks\":[");
    private static final byte[] PART_WARM_TRUE = ascii(",\"warm\":true,\"predictedBacklogSeconds\":");
    private static final byte[] PART_WARM_FALSE = ascii(",\"warm\":false,\"predictedBacklogSeconds\":");
    private static final byte[] PART_ONGOING = ascii(",\"ongoingRequests\":");
    private static final byte[] PART_TARGET_TRUE = ascii(",\"targetMet\":true");
    private static final byte[] PART_TARGET_FALSE = ascii(",\"targetMet\":false");
    private static final byte[] PART_CLASS = ascii(",\"serverClass\":");
    private static final byte[] PART_COLD_TRUE = ascii(",\"coldStart\":true");
    private static final byte[] PART_COLD_FALSE = ascii(",\"coldStart\":false");
    private static final byte[] PART_COLD_SECONDS = ascii(",\"coldStartSeconds\":");
    private static final byte[] CHOICES = ascii("],\"choices\":[");
    private static final byte[] CHOICE_PROBABILITY = ascii("],\"choiceProbability\":");
    private static final byte[] TABLE_JCT = ascii(",\"tableJctSeconds\":");
    private static final byte[] WAIT = ascii(",\"waitSeconds\":");
    private static final byte[] EVENT_TIME = ascii(",\"eventTime\":");

    private final IdCache ids = new IdCache();
    private final JsonBytes json = new JsonBytes();
    /** The stages' halves of the decision being written: task prefix at {@code 2i}, server suffix at {@code 2i + 1}. */
    private byte[][] scratch = new byte[64][];

    /** The decision as UTF-8 JSON, identical to the topic serde's output. */
    public byte[] write(PlacementDecision d) {
        json.reset();
        json.raw(SCHEMA_VERSION);
        json.number(d.schemaVersion());
        json.raw(REQUEST_ID);
        json.string(d.requestId());
        json.raw(MODEL);
        List<StageAssignment> stages = d.stages();
        boolean compact = stages == null;
        int n = compact ? 0 : stages.size();
        IdCache.Positions p = ids.positions(d.model(), n);
        json.raw(p.quotedModel);
        json.raw(TENANT);
        json.string(d.tenant());
        json.raw(TABLE_VERSION);
        json.number(d.tableVersion());
        if (compact) {
            json.raw(d.fallback() ? COMPACT_FALLBACK_TRUE : COMPACT_FALLBACK_FALSE);
        } else {
            json.raw(d.fallback() ? FALLBACK_TRUE : FALLBACK_FALSE);
        }
        int head = json.size();
        int stageBytes = stageHalves(stages, p, n);
        json.raw(compact ? COMPACT_PREDICTED_JCT : PREDICTED_JCT);
        json.decimal(d.predictedJctSeconds());
        json.raw(EVENT_TIME);
        json.number(d.eventTime());
        if (d.explanation() != null) {
            explanation(d.explanation());
        }
        json.raw('}');
        return assemble(head, stageBytes, n);
    }

    /**
     * Looks up the halves of each of the {@code n} stages into {@link #scratch}; returns the bytes the stages take,
     * commas between them included.
     */
    private int stageHalves(List<StageAssignment> stages, IdCache.Positions p, int n) {
        if (scratch.length < 2 * n) {
            scratch = new byte[2 * n][];
        }
        int stageBytes = Math.max(0, n - 1);
        String lastServer = null;
        byte[] suffix = null;
        StageAssignments assigned = stages instanceof StageAssignments a ? a : null; // read without building assignments
        for (int i = 0; i < n; i++) {
            String task;
            String server;
            if (assigned != null) {
                task = assigned.task(i);
                server = assigned.server(i);
            } else {
                StageAssignment stage = stages.get(i);
                task = stage.task();
                server = stage.server();
            }
            byte[] prefix = ids.taskPrefix(p, i, task);
            if (server != lastServer) { // consecutive stages mostly share a server (the same id instance)
                lastServer = server;
                suffix = ids.serverSuffix(lastServer);
            }
            scratch[2 * i] = prefix;
            scratch[2 * i + 1] = suffix;
            stageBytes += prefix.length + suffix.length;
        }
        return stageBytes;
    }

    /**
     * The result: header and tail are in the buffer (split at {@code head}); the stages' halves are copied once,
     * straight into the exact-size array.
     */
    private byte[] assemble(int head, int stageBytes, int n) {
        int tail = json.size() - head;
        byte[] out = new byte[head + stageBytes + tail];
        json.copyTo(0, head, out, 0);
        int at = head;
        for (int i = 0; i < 2 * n; i++) {
            if (i > 0 && (i & 1) == 0) {
                out[at++] = ',';
            }
            byte[] f = scratch[i];
            System.arraycopy(f, 0, out, at, f.length);
            at += f.length;
        }
        json.copyTo(head, tail, out, at);
        return out;
    }

    /** {@code ,"explanation":{...}} as Jackson writes {@link DecisionExplanation} (ids from the cache). */
    private void explanation(DecisionExplanation e) {
        json.raw(EXPLANATION);
        List<DecisionPart> parts = e.parts();
        for (int i = 0; i < parts.size(); i++) {
            if (i > 0) {
                json.raw(',');
            }
            part(parts.get(i));
        }
        json.raw(CHOICES);
        List<Integer> choices = e.choices();
        for (int i = 0; i < choices.size(); i++) {
            if (i > 0) {
                json.raw(',');
            }
            json.number(choices.get(i));
        }
        json.raw(CHOICE_PROBABILITY);
        json.decimal(e.choiceProbability());
        json.raw(TABLE_JCT);
        json.decimal(e.tableJctSeconds());
        json.raw(WAIT);
        json.decimal(e.waitSeconds());
        json.raw('}');
    }

    private void part(DecisionPart p) {
        json.raw(PART_SERVER);
        byte[] server = ids.serverSuffix(p.server()); // "<server>"} from the stages' cache, without its brace
        json.raw(server, server.length - 1);
        json.raw(PART_STAGES);
        json.number(p.stages());
        if (p.tasks() != null) {
            json.raw(PART_TASKS);
            List<String> tasks = p.tasks();
            for (int t = 0; t < tasks.size(); t++) {
                if (t > 0) {
                    json.raw(',');
                }
                json.raw(ids.quoted(tasks.get(t)));
            }
            json.raw(']');
        }
        json.raw(p.warm() ? PART_WARM_TRUE : PART_WARM_FALSE);
        json.decimal(p.predictedBacklogSeconds());
        json.raw(PART_ONGOING);
        json.number(p.ongoingRequests());
        json.raw(p.targetMet() ? PART_TARGET_TRUE : PART_TARGET_FALSE);
        if (p.serverClass() != null) {
            json.raw(PART_CLASS);
            json.raw(ids.quoted(p.serverClass()));
        }
        if (p.coldStart() != null) {
            json.raw(p.coldStart() ? PART_COLD_TRUE : PART_COLD_FALSE);
        }
        if (p.coldStartSeconds() != null) {
            json.raw(PART_COLD_SECONDS);
            json.decimal(p.coldStartSeconds());
        }
        json.raw('}');
    }
}
