package dev.nona.topics.serde;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.nona.topics.TopicSpec;
import dev.nona.topics.record.TopicRecord;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * JSON serde for one topic's values, with strict validation ({@link TopicJson}) and a size limit.
 *
 * <p>{@link #parse(byte[])} never throws on bad input: it returns a {@link Parsed} carrying either the record or a
 * one-line reason naming the field and value. Precedence of reasons: a null value, then the size limit, then
 * binary input (a value whose first byte cannot start UTF-8 JSON text), then a parse bound of {@link RecordLimits}
 * (nesting depth, number length, ...), then a missing or unsupported {@code schemaVersion}, then the first field
 * error. The checks before the parse cost nothing in the value's size, and the parse stops at the first token over a
 * bound, so a hostile value costs at most the size limit's worth of work.
 *
 * <p>Hot path: one {@link ObjectReader}/{@link ObjectWriter} per serde, built once (Jackson resolves the record's
 * deserializer on the first call and caches it); nothing is looked up reflectively per record. Thread-safe.
 * Serializable (for Flink functions): only the type and the limit travel, the reader is rebuilt on arrival.
 *
 * @param <T> the record type
 */
public final class JsonSerde<T extends TopicRecord> implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Default size limit of a record's value: 1 MiB. */
    public static final int DEFAULT_MAX_RECORD_BYTES = 1 << 20;

    private final Class<T> type;
    private final int maxRecordBytes;
    private final transient ObjectReader reader;
    private final transient ObjectWriter writer;

    public JsonSerde(Class<T> type, int maxRecordBytes) {
        this(type, maxRecordBytes, TopicJson.mapper());
    }

    /** A serde on {@code mapper} (for tests: {@link TopicJson#build} on a factory that counts its parsers). */
    JsonSerde(Class<T> type, int maxRecordBytes, ObjectMapper mapper) {
        this.type = Objects.requireNonNull(type, "record type");
        if (maxRecordBytes <= 0) {
            throw new IllegalArgumentException("max record bytes (" + maxRecordBytes + ") must be > 0");
        }
        this.maxRecordBytes = maxRecordBytes;
        this.reader = mapper.readerFor(type);
        this.writer = mapper.writerFor(type);
    }

    /** The serde for a topic's value type, with the topic's size limit ({@link RecordLimits#maxRecordBytes}). */
    public static <T extends TopicRecord> JsonSerde<T> forTopic(TopicSpec<T> topic) {
        return new JsonSerde<>(topic.valueType(), RecordLimits.maxRecordBytes(topic));
    }

    /** The serde for a topic's value type, with the given size limit in bytes. */
    public static <T extends TopicRecord> JsonSerde<T> forTopic(TopicSpec<T> topic, int maxRecordBytes) {
        return new JsonSerde<>(topic.valueType(), maxRecordBytes);
    }

    public Class<T> type() {
        return type;
    }

    public int maxRecordBytes() {
        return maxRecordBytes;
    }

    /** Parses one value; never throws on bad input. */
    public Parsed<T> parse(byte[] value) {
        if (value == null) {
            return Parsed.rejected("value is null (a tombstone or an empty record)");
        }
        if (value.length > maxRecordBytes) {
            return Parsed.rejected("record size (" + value.length + " bytes) exceeds the limit (" + maxRecordBytes + " bytes)");
        }
        String binary = TextProbe.binaryReason(value);
        if (binary != null) {
            return Parsed.rejected(binary);
        }
        try {
            return Parsed.ok(reader.readValue(value));
        } catch (JsonProcessingException e) {
            String reason = Rejections.of(e);
            return Parsed.rejected(Rejections.overBound(e) ? reason : VersionProbe.reason(value, reason));
        } catch (IOException | RuntimeException e) {
            return Parsed.rejected(Rejections.clip("unreadable record: " + Rejections.oneLine(String.valueOf(e))));
        }
    }

    /** Parses a UTF-8 JSON string; never throws on bad input. */
    public Parsed<T> parse(String json) {
        return json == null ? parse((byte[]) null) : parse(json.getBytes(StandardCharsets.UTF_8));
    }

    /** Writes a value as UTF-8 JSON. The record was validated when it was built, so this does not fail on data. */
    public byte[] serialize(T value) {
        Objects.requireNonNull(value, "record to serialize");
        try {
            return writer.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("BUG: cannot write a validated " + type.getSimpleName(), e);
        }
    }

    /** The Kafka key of a value as UTF-8 bytes, or {@code null} for unkeyed topics. */
    public byte[] keyBytes(T value) {
        String key = value.key();
        return key == null ? null : key.getBytes(StandardCharsets.UTF_8);
    }

    /** This serde as a Kafka {@link Serializer} (for plain producers; a null value stays null, a tombstone). */
    public Serializer<T> kafkaSerializer() {
        return (topic, value) -> value == null ? null : serialize(value);
    }

    /**
     * This serde as a Kafka {@link Deserializer} for plain consumers: an invalid record throws a
     * {@link SerializationException} with the rejection reason (use {@link #parse(byte[])} where a bad record must
     * not stop the reader).
     */
    public Deserializer<T> kafkaDeserializer() {
        return (topic, bytes) -> {
            Parsed<T> parsed = parse(bytes);
            if (!parsed.ok()) {
                throw new SerializationException("topic '" + topic + "': " + parsed.reason());
            }
            return parsed.value();
        };
    }

    private Object readResolve() {
        return new JsonSerde<>(type, maxRecordBytes);
    }
}
