package dev.nona.controller.source;

import dev.nona.controller.loop.ControlInput;
import dev.nona.controller.serde.JsonRecordTypeInfo;
import dev.nona.topics.Topics;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.serde.DagCounts;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import dev.nona.topics.serde.RecordLimits;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Reads {@code cluster-telemetry} or {@code model-catalog} into control inputs. A catalog tombstone (null value
 * with a key) removes the model; anything that does not parse, a catalog entry whose key is not its model, and a
 * record that breaks the controller's {@link ControlLimits} (an oversized DAG, telemetry from a server not in
 * {@code cluster.servers}) become dead letters. Never throws on bad input. The DAG limits are checked on counts
 * taken before the entry is parsed ({@link DagCounts}), so an oversized DAG is never built.
 */
public final class ControlDeserializer implements KafkaRecordDeserializationSchema<ControlRecord> {
    private static final long serialVersionUID = 1L;

    /** Which topic this deserializer reads. */
    public enum Kind { TELEMETRY, CATALOG }

    private final Kind kind;
    private final ControlLimits limits;
    private final JsonSerde<ServerTelemetry> telemetry = JsonSerde.forTopic(Topics.CLUSTER_TELEMETRY);
    private final JsonSerde<ModelCatalogEntry> catalog = JsonSerde.forTopic(Topics.MODEL_CATALOG);

    public ControlDeserializer(Kind kind, ControlLimits limits) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.limits = Objects.requireNonNull(limits, "control limits");
    }

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<ControlRecord> out) {
        out.collect(kind == Kind.TELEMETRY ? parseTelemetry(record) : parseCatalog(record));
    }

    private ControlRecord parseTelemetry(ConsumerRecord<byte[], byte[]> record) {
        Parsed<ServerTelemetry> parsed = telemetry.parse(record.value());
        if (!parsed.ok()) {
            return reject(record, rawBytes(), parsed.reason());
        }
        String unknownServer = limits.rejection(parsed.value());
        if (unknownServer != null) {
            return reject(record, rawBytes(), unknownServer);
        }
        return new ControlRecord(ControlInput.of(parsed.value(), record.partition()), null, parsed.value().eventTime());
    }

    private ControlRecord parseCatalog(ConsumerRecord<byte[], byte[]> record) {
        String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
        if (record.value() == null && key != null && !key.isBlank()) {
            return new ControlRecord(ControlInput.removed(key), null, 0L);
        }
        String tooLarge = dagTooLarge(record.value(), key);
        if (tooLarge != null) {
            return reject(record, rawBytes(), tooLarge);
        }
        Parsed<ModelCatalogEntry> parsed = catalog.parse(record.value());
        if (!parsed.ok()) {
            return reject(record, rawBytes(), parsed.reason());
        }
        if (key != null && !key.equals(parsed.value().model())) {
            return reject(record, rawBytes(), "key ('" + key + "') is not the entry's model ('" + parsed.value().model() + "')");
        }
        String oversized = limits.rejection(parsed.value());
        if (oversized != null) {
            return reject(record, rawBytes(), oversized);
        }
        // The catalog has no event time; 0 never moves the watermark (its source goes idle and stops holding it).
        return new ControlRecord(ControlInput.of(parsed.value()), null, 0L);
    }

    /**
     * The DAG limits, checked on counts read before the parse (a value over the topic's size limit is left to the
     * serde, which turns it away unread): an oversized DAG is never built.
     */
    private String dagTooLarge(byte[] value, String key) {
        if (value == null || value.length > catalog.maxRecordBytes()) {
            return null;
        }
        return DagCounts.scan(value)
                .map(c -> limits.rejection(c.model() != null ? c.model() : key, c.tasks(), c.edges()))
                .orElse(null);
    }

    /** How much of a rejected value its dead letter keeps. */
    private int rawBytes() {
        return RecordLimits.deadLetterRawBytes(
                kind == Kind.TELEMETRY ? Topics.CLUSTER_TELEMETRY : Topics.MODEL_CATALOG);
    }

    private static ControlRecord reject(ConsumerRecord<byte[], byte[]> record, int rawBytes, String reason) {
        long now = System.currentTimeMillis();
        return new ControlRecord(null,
                DeadLetter.of(record.value(), record.topic(), record.partition(), record.offset(), reason, now,
                        rawBytes),
                0L); // no event time: never moves the watermark
    }

    @Override
    public TypeInformation<ControlRecord> getProducedType() {
        return JsonRecordTypeInfo.of(ControlRecord.class);
    }
}
