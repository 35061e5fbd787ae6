package dev.nona.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.optimize.NonaTableSolver;
import dev.nona.controller.optimize.SolveInput;
import dev.nona.controller.optimize.SolveResult;
import dev.nona.controller.sink.TableRecordSerializer;
import dev.nona.topics.Topics;
import dev.nona.topics.admin.TopicProvisioner;
import dev.nona.topics.testing.InProcessKafka;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The size bound of {@code placement-tables}: a table solved for 1,000 models on 10,000 servers, written as the
 * controller writes it, is within {@link Topics#TABLE_MAX_BYTES}, and a real broker takes it on a topic provisioned
 * as {@code bin/nona topics create} does, from a producer configured as the tables sink (Kafka's 1 MiB default
 * refuses it).
 */
final class TableSizeIT {
    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    @Test
    void tableForAThousandModelsOnTenThousandServers_fitsTheTopicAndTheProducer() throws Exception {
        SolveInput input = TableSizeBenchmark.input(1_000, 10_000);
        SolveResult r = new NonaTableSolver(false).solve(input, null);
        assertThat(r.feasible()).as("solve: %s", r.error()).isTrue();
        ControllerTable table = new ControllerTable(1, false, 0, "test", input.rates(), input.cluster(), r.objective(),
                r.linkLoad(), r.predictedJctSeconds(), r.tableJson());
        var serializer = new TableRecordSerializer(Topics.PLACEMENT_TABLES.name(), "nona-controller");
        ProducerRecord<byte[], byte[]> record = serializer.serialize(table, null, null);
        assertThat(record.value().length).as("bytes of the table record").isGreaterThan(1 << 20)
                .isLessThan(Topics.TABLE_MAX_BYTES);

        try (Admin admin = KAFKA.admin()) {
            new TopicProvisioner(admin, Duration.ofSeconds(30)).ensure(List.of(Topics.PLACEMENT_TABLES), Optional.of(1),
                    Optional.empty());
        }
        try (KafkaProducer<byte[], byte[]> defaults = producer(null)) {
            assertThatThrownBy(() -> defaults.send(record).get()).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(RecordTooLargeException.class);
        }
        try (KafkaProducer<byte[], byte[]> tables = producer(Topics.TABLE_MAX_BYTES)) {
            tables.send(record).get();
        }
        Properties props = new Properties();
        props.put("bootstrap.servers", KAFKA.bootstrapServers());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition p = new TopicPartition(Topics.PLACEMENT_TABLES.name(), 0);
            consumer.assign(List.of(p));
            consumer.seekToBeginning(List.of(p));
            ConsumerRecords<byte[], byte[]> read = await().atMost(Duration.ofSeconds(30)).pollInSameThread()
                    .pollDelay(Duration.ZERO).pollInterval(Duration.ZERO)
                    .until(() -> consumer.poll(Duration.ofMillis(500)), records -> !records.isEmpty());
            assertThat(read.iterator().next().value()).isEqualTo(record.value());
        }
    }

    private static KafkaProducer<byte[], byte[]> producer(Integer maxRequestBytes) {
        Properties props = new Properties();
        props.put("bootstrap.servers", KAFKA.bootstrapServers());
        if (maxRequestBytes != null) {
            props.put("max.request.size", String.valueOf(maxRequestBytes));
        }
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
