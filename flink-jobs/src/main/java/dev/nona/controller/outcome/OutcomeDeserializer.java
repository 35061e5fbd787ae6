package dev.nona.controller.outcome;

import dev.nona.controller.serde.JsonRecordTypeInfo;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Reads {@code placement-outcomes}. Anything that does not parse as a {@link PlacementOutcome} (docs/topics.md's
 * validation rules), and an outcome whose Kafka key is not its {@code requestId}, becomes a dead letter with the
 * reason. Never throws on bad input.
 */
public final class OutcomeDeserializer implements KafkaRecordDeserializationSchema<OutcomeRecord> {
    private static final long serialVersionUID = 1L;

    private final JsonSerde<PlacementOutcome> serde =
            new JsonSerde<>(PlacementOutcome.class, JsonSerde.DEFAULT_MAX_RECORD_BYTES);

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<OutcomeRecord> out) {
        out.collect(parse(record));
    }

    private OutcomeRecord parse(ConsumerRecord<byte[], byte[]> record) {
        Parsed<PlacementOutcome> parsed = serde.parse(record.value());
        if (!parsed.ok()) {
            return reject(record, parsed.reason());
        }
        String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
        if (key != null && !key.equals(parsed.value().requestId())) {
            return reject(record, "key ('" + key + "') is not the outcome's requestId ('" + parsed.value().requestId() + "')");
        }
        return new OutcomeRecord(parsed.value(), null);
    }

    private static OutcomeRecord reject(ConsumerRecord<byte[], byte[]> record, String reason) {
        return new OutcomeRecord(null, DeadLetter.of(record.value(), record.topic(), record.partition(),
                record.offset(), reason, System.currentTimeMillis()));
    }

    @Override
    public TypeInformation<OutcomeRecord> getProducedType() {
        return JsonRecordTypeInfo.of(OutcomeRecord.class);
    }
}
