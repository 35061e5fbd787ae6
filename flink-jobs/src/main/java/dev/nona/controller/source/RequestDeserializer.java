package dev.nona.controller.source;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Reads {@code inference-requests} keeping each record's topic, partition and offset: valid requests and
 * rejected ones (as dead letters) both come out, so bad input never fails the source.
 */
public final class RequestDeserializer implements KafkaRecordDeserializationSchema<RequestRecord> {
    private static final long serialVersionUID = 1L;

    private final RequestParser parser;

    public RequestDeserializer(String topic) {
        this.parser = new RequestParser(topic);
    }

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<RequestRecord> out) {
        out.collect(parser.parse(record.value(), record.partition(), record.offset()));
    }

    @Override
    public TypeInformation<RequestRecord> getProducedType() {
        return TypeInformation.of(RequestRecord.class);
    }
}
