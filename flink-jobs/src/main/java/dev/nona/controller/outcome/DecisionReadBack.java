package dev.nona.controller.outcome;

import dev.nona.controller.serde.JsonRecordTypeInfo;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the controller's own decisions back from {@code placement-decisions}, for the outcome join. The join reads
 * the topic rather than the placement operator's output so that the request path carries no second consumer (and
 * so that what the join sees is what executors saw: with {@code exactly-once}, committed decisions only). A record
 * that does not parse was not written by a controller: it is skipped, with a WARN at most once a minute.
 */
public final class DecisionReadBack implements KafkaRecordDeserializationSchema<PlacementDecision> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(DecisionReadBack.class);
    private static final long WARN_INTERVAL_MILLIS = 60_000;

    private final JsonSerde<PlacementDecision> serde =
            new JsonSerde<>(PlacementDecision.class, JsonSerde.DEFAULT_MAX_RECORD_BYTES);
    private transient long skipped;
    private transient long warnedAt;

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<PlacementDecision> out) {
        Parsed<PlacementDecision> parsed = serde.parse(record.value());
        if (parsed.ok()) {
            out.collect(parsed.value());
            return;
        }
        skipped++;
        long now = System.currentTimeMillis();
        if (now - warnedAt >= WARN_INTERVAL_MILLIS) {
            warnedAt = now;
            LOG.warn("Skipped {} record(s) on {} that are not decisions, e.g. at partition {} offset {}: {}", skipped,
                    record.topic(), record.partition(), record.offset(), parsed.reason());
        }
    }

    @Override
    public TypeInformation<PlacementDecision> getProducedType() {
        return new PlacementDecisionSerializer.TypeInfo();
    }
}
