package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Arrays;
import java.util.Base64;

/**
 * A value of {@code dead-letters} (no key): a record the controller could not use, with where it came from and why.
 * Nothing is dropped silently: every rejected input becomes one of these.
 *
 * @param schemaVersion  {@link SchemaVersions#CURRENT}
 * @param sourceTopic    the topic the record was read from, not blank
 * @param partition      its partition, {@code >= 0}, or -1 when unknown
 * @param offset         its offset, {@code >= 0}, or -1 when unknown
 * @param reason         why it was rejected, not blank (names the field and value when a field was wrong)
 * @param time           when it was rejected, epoch milliseconds, {@code >= 0}
 * @param rawBase64      the record's value bytes, base64 (standard alphabet); {@code null} for a null value
 * @param rawSizeBytes   the size of the original value in bytes, {@code >= 0}
 * @param truncated      true when {@code rawBase64} holds only the first bytes of the value (it was over the
 *                       dead-letter size cap)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"schemaVersion", "sourceTopic", "partition", "offset", "reason", "time", "rawBase64",
        "rawSizeBytes", "truncated"})
public record DeadLetter(
        @JsonProperty(required = true) int schemaVersion,
        @JsonProperty(required = true) String sourceTopic,
        @JsonProperty(required = true) int partition,
        @JsonProperty(required = true) long offset,
        @JsonProperty(required = true) String reason,
        @JsonProperty(required = true) long time,
        String rawBase64,
        @JsonProperty(required = true) int rawSizeBytes,
        @JsonProperty(required = true) boolean truncated) implements TopicRecord {

    public DeadLetter {
        Fields.requireVersion(schemaVersion);
        Fields.requireText("sourceTopic", sourceTopic);
        if (partition < -1) {
            throw new InvalidRecordException("field 'partition' (" + partition + ") must be >= 0, or -1 when unknown");
        }
        if (offset < -1) {
            throw new InvalidRecordException("field 'offset' (" + offset + ") must be >= 0, or -1 when unknown");
        }
        Fields.requireText("reason", reason);
        Fields.requireNonNegative("time", time);
        Fields.requireNonNegative("rawSizeBytes", rawSizeBytes);
        if (rawBase64 != null) {
            requireBase64(rawBase64);
        }
    }

    /**
     * Raw bytes kept by {@link #of(byte[], String, int, long, String, long)}: 256 KiB. Base64 makes that 342 KiB, so a
     * dead letter always fits Kafka's default 1 MiB producer {@code max.request.size} and broker message size, and
     * writing a dead letter for a huge record cannot fail the job.
     */
    public static final int DEFAULT_MAX_RAW_BYTES = 256 << 10;

    /**
     * A dead letter for a rejected record, keeping up to {@link #DEFAULT_MAX_RAW_BYTES} of its raw value.
     *
     * @param raw       the record's value bytes as read (may be null: a tombstone)
     * @param topic     the topic it was read from
     * @param partition its partition (-1 when unknown)
     * @param offset    its offset (-1 when unknown)
     * @param reason    why it was rejected
     * @param time      when it was rejected, epoch milliseconds
     */
    public static DeadLetter of(byte[] raw, String topic, int partition, long offset, String reason, long time) {
        return of(raw, topic, partition, offset, reason, time, DEFAULT_MAX_RAW_BYTES);
    }

    /** As {@link #of(byte[], String, int, long, String, long)}, keeping at most {@code maxRawBytes} of the value. */
    public static DeadLetter of(byte[] raw, String topic, int partition, long offset, String reason, long time,
            int maxRawBytes) {
        if (maxRawBytes < 0) {
            throw new IllegalArgumentException("maxRawBytes (" + maxRawBytes + ") must be >= 0");
        }
        if (raw == null) {
            return new DeadLetter(SchemaVersions.CURRENT, topic, partition, offset, reason, time, null, 0, false);
        }
        boolean truncated = raw.length > maxRawBytes;
        String base64 = truncated
                ? Base64.getEncoder().encodeToString(Arrays.copyOf(raw, maxRawBytes))
                : Base64.getEncoder().encodeToString(raw);
        return new DeadLetter(SchemaVersions.CURRENT, topic, partition, offset, reason, time, base64, raw.length,
                truncated);
    }

    /** The raw value bytes (or the kept prefix when {@link #truncated()}), or {@code null} for a null value. */
    public byte[] raw() {
        return rawBase64 == null ? null : Base64.getDecoder().decode(rawBase64);
    }

    private static void requireBase64(String value) {
        try {
            Base64.getDecoder().decode(value);
        } catch (IllegalArgumentException e) {
            throw new InvalidRecordException("field 'rawBase64' is not base64: " + e.getMessage());
        }
    }

    @Override
    public String key() {
        return null;
    }
}
