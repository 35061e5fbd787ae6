package dev.nona.controller.command;

import dev.nona.controller.serde.JsonRecordTypeInfo;
import dev.nona.topics.record.ControllerCommand;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Reads {@code controller-commands}: a command that does not parse, or whose key is not its scope, is a dead letter
 * with the reason; a tombstone (null value, left by compaction's delete) is skipped. Never throws on bad input.
 */
public final class CommandDeserializer implements KafkaRecordDeserializationSchema<CommandRecord> {
    private static final long serialVersionUID = 1L;
    private final JsonSerde<ControllerCommand> serde =
            new JsonSerde<>(ControllerCommand.class, JsonSerde.DEFAULT_MAX_RECORD_BYTES);

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<CommandRecord> out) {
        if (record.value() == null && record.key() != null) {
            return; // a scope's tombstone: nothing to apply
        }
        Parsed<ControllerCommand> parsed = serde.parse(record.value());
        String reason = parsed.ok() ? null : parsed.reason();
        if (parsed.ok() && record.key() != null) {
            String key = new String(record.key(), StandardCharsets.UTF_8);
            if (!key.equals(parsed.value().scope())) {
                reason = "key ('" + key + "') is not the command's scope ('" + parsed.value().scope() + "')";
            }
        }
        if (reason == null) {
            out.collect(CommandRecord.of(parsed.value(), record.topic(), record.partition(), record.offset()));
        } else {
            out.collect(new CommandRecord(null, DeadLetter.of(record.value(), record.topic(), record.partition(),
                    record.offset(), reason, System.currentTimeMillis()), record.topic(), record.partition(),
                    record.offset()));
        }
    }

    @Override
    public TypeInformation<CommandRecord> getProducedType() {
        return JsonRecordTypeInfo.of(CommandRecord.class);
    }
}
