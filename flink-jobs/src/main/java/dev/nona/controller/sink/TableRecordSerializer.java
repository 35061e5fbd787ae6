package dev.nona.controller.sink;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.serde.JsonSerde;
import java.io.UncheckedIOException;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes a published table to the compacted {@code placement-tables} topic, keyed by the controller's table id
 * (compaction keeps the newest table per controller, for audit and warm restart). The record's {@code table}
 * holds the whole {@link ControllerTable}: version, inputs it was solved for (rates, cluster), predictions and
 * the solved table.
 */
public final class TableRecordSerializer implements KafkaRecordSerializationSchema<ControllerTable> {
    private static final long serialVersionUID = 1L;

    private final String topic;
    private final String tableId;
    private final JsonSerde<PlacementTableRecord> serde = new JsonSerde<>(PlacementTableRecord.class, Integer.MAX_VALUE);
    private transient ObjectMapper mapper;

    public TableRecordSerializer(String topic, String tableId) {
        this.topic = topic;
        this.tableId = tableId;
    }

    /** The topic record for a table. */
    public PlacementTableRecord toRecord(ControllerTable table) {
        if (mapper == null) {
            mapper = new ObjectMapper();
        }
        try {
            return PlacementTableRecord.of(tableId, table.version(), table.createdAt(), mapper.writeValueAsString(table));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("BUG: cannot write table version " + table.version(), e);
        }
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(ControllerTable table, KafkaSinkContext context, Long timestamp) {
        PlacementTableRecord record = toRecord(table);
        return new ProducerRecord<>(topic, null, null, serde.keyBytes(record), serde.serialize(record));
    }
}
