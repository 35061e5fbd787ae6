package dev.nona.topics.serde;

import com.fasterxml.jackson.core.StreamReadConstraints;
import dev.nona.topics.TopicSpec;
import dev.nona.topics.Topics;
import dev.nona.topics.record.DeadLetter;
import java.util.Map;

/**
 * The bounds every topic value is held to <em>before</em> its parse can cost much: a per-topic size limit (checked
 * on the byte count, before any parsing), and Jackson's {@link StreamReadConstraints} on the one shared factory
 * (nesting depth, number, string and field-name lengths, document length), which stop a parse at the first token
 * over a bound. A record over any of them is rejected in time and memory linear in the bound, not in the input.
 *
 * <p>Size limits by topic: the records users and servers send on the hot path are small (an {@code
 * inference-requests} record is about 100 bytes; a {@code cluster-telemetry} report about 200 bytes plus 40 per
 * cached model), so {@value #SMALL_RECORD_BYTES} bytes leaves them room for long ids and a thousand cached models;
 * a {@code model-catalog} entry carries a whole DAG (the zoo's largest, densenet121, 429 tasks in 81 kB), and
 * {@value #CATALOG_RECORD_BYTES} bytes holds a DAG at the controller's default {@code catalog.max-tasks} and
 * {@code catalog.max-edges} with long task ids. Every other topic keeps {@link JsonSerde#DEFAULT_MAX_RECORD_BYTES}.
 * Immutable; thread-safe.
 */
public final class RecordLimits {
    /** 64 KiB: the size limit of {@code inference-requests} and {@code cluster-telemetry} records. */
    public static final int SMALL_RECORD_BYTES = 64 << 10;
    /** 4 MiB: the size limit of {@code model-catalog} records. */
    public static final int CATALOG_RECORD_BYTES = 4 << 20;
    /** Deepest nesting of objects and arrays in any record (ours nest at most 5 deep). */
    public static final int MAX_NESTING_DEPTH = 64;
    /** Longest number literal, in characters (a double needs at most 24). */
    public static final int MAX_NUMBER_LENGTH = 64;
    /** Longest field name, in characters (ours have at most 20). */
    public static final int MAX_NAME_LENGTH = 256;
    /**
     * Longest string value and document, in characters or bytes: the largest record of any topic (a
     * {@code placement-tables} record, whose table is one string field).
     */
    public static final int MAX_DOCUMENT_BYTES = Topics.TABLE_MAX_BYTES;

    /**
     * 4 KiB: how much of a rejected {@code inference-requests} or {@code cluster-telemetry} value its dead letter
     * keeps. A real record of these topics is a few hundred bytes, so its dead letter holds it whole; a burst of
     * malformed values costs at most this much each to carry to {@code dead-letters}, not a quarter megabyte.
     */
    public static final int SMALL_DEAD_LETTER_RAW_BYTES = 4 << 10;

    private static final Map<String, Integer> DEAD_LETTER_RAW_BY_TOPIC = Map.of(
            Topics.INFERENCE_REQUESTS.name(), SMALL_DEAD_LETTER_RAW_BYTES,
            Topics.CLUSTER_TELEMETRY.name(), SMALL_DEAD_LETTER_RAW_BYTES);

    private static final Map<String, Integer> BY_TOPIC = Map.of(
            Topics.INFERENCE_REQUESTS.name(), SMALL_RECORD_BYTES,
            Topics.CLUSTER_TELEMETRY.name(), SMALL_RECORD_BYTES,
            Topics.MODEL_CATALOG.name(), CATALOG_RECORD_BYTES);

    private RecordLimits() {
    }

    /** The size limit of one value of this topic, in bytes. */
    public static int maxRecordBytes(TopicSpec<?> topic) {
        return BY_TOPIC.getOrDefault(topic.name(), JsonSerde.DEFAULT_MAX_RECORD_BYTES);
    }

    /**
     * How much of a rejected value of this topic its dead letter keeps ({@code DeadLetter.of(..., maxRawBytes)}):
     * {@link #SMALL_DEAD_LETTER_RAW_BYTES} for the hot-path topics, else {@link DeadLetter#DEFAULT_MAX_RAW_BYTES}.
     */
    public static int deadLetterRawBytes(TopicSpec<?> topic) {
        return DEAD_LETTER_RAW_BY_TOPIC.getOrDefault(topic.name(), DeadLetter.DEFAULT_MAX_RAW_BYTES);
    }

    /** The parse bounds of the shared factory ({@link TopicJson}). */
    static StreamReadConstraints constraints() {
        return StreamReadConstraints.builder()
                .maxNestingDepth(MAX_NESTING_DEPTH)
                .maxNumberLength(MAX_NUMBER_LENGTH)
                .maxNameLength(MAX_NAME_LENGTH)
                .maxStringLength(MAX_DOCUMENT_BYTES)
                .maxDocumentLength(MAX_DOCUMENT_BYTES)
                .build();
    }
}
