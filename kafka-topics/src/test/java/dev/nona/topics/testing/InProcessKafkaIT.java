package dev.nona.topics.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.nona.topics.Topics;
import dev.nona.topics.admin.TopicProvisioner;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.serde.JsonSerde;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** The broker fixture itself, and the serde's Kafka adapters through a real broker. */
final class InProcessKafkaIT {

    @Test
    void requests_throughRealBroker_arriveEqualAndKeyedByRequestId() throws Exception {
        try (InProcessKafka kafka = new InProcessKafka().start()) {
            try (Admin admin = kafka.admin()) {
                new TopicProvisioner(admin, Duration.ofSeconds(30))
                        .ensure(List.of(Topics.INFERENCE_REQUESTS), Optional.of(1), Optional.empty());
            }
            JsonSerde<InferenceRequest> serde = JsonSerde.forTopic(Topics.INFERENCE_REQUESTS);
            List<InferenceRequest> sent = List.of(
                    InferenceRequest.of("r-1", "resnet50", "acme", 1_000L, 10L),
                    InferenceRequest.of("r-2", "bert", "acme", 2_000L, null));
            Properties producerProps = kafka.clientProperties();
            producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
            try (KafkaProducer<String, InferenceRequest> producer =
                         new KafkaProducer<>(producerProps, new StringSerializer(), serde.kafkaSerializer())) {
                for (InferenceRequest r : sent) {
                    producer.send(new ProducerRecord<>(Topics.INFERENCE_REQUESTS.name(), r.key(), r)).get();
                }
            }

            List<ConsumerRecord<String, InferenceRequest>> received = consumeAll(kafka, serde, sent.size());

            assertThat(received).extracting(ConsumerRecord::value).containsExactlyElementsOf(sent);
            assertThat(received).extracting(ConsumerRecord::key).containsExactly("r-1", "r-2");
        }
    }

    @Test
    void readFromStart_readCommitted_leavesOutAnOpenTransaction() throws Exception {
        try (InProcessKafka kafka = new InProcessKafka().start()) {
            try (Admin admin = kafka.admin()) {
                admin.createTopics(List.of(new NewTopic("t", 2, (short) 1))).all().get();
            }
            try (KafkaProducer<byte[], byte[]> plain = kafka.producer()) {
                plain.send(new ProducerRecord<>("t", 0, null, "a".getBytes(StandardCharsets.UTF_8))).get();
                plain.send(new ProducerRecord<>("t", 1, null, "b".getBytes(StandardCharsets.UTF_8))).get();
            }
            Properties txProps = kafka.clientProperties();
            txProps.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "in-process-kafka-it");
            try (KafkaProducer<byte[], byte[]> tx = new KafkaProducer<>(txProps, new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                tx.initTransactions();
                tx.beginTransaction();
                tx.send(new ProducerRecord<>("t", 0, null, "open".getBytes(StandardCharsets.UTF_8))).get();

                assertThat(values(kafka.readFromStart("t", true))).containsExactlyInAnyOrder("a", "b");
                assertThat(values(kafka.readFromStart("t", false))).containsExactlyInAnyOrder("a", "b", "open");
                tx.abortTransaction();
            }
        }
    }

    private static List<String> values(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void close_twiceAndBeforeStart_isSafe() throws Exception {
        InProcessKafka kafka = new InProcessKafka();
        kafka.close();
        kafka.start();
        String bootstrap = kafka.bootstrapServers();

        kafka.close();
        kafka.close();

        assertThat(bootstrap).contains(":");
        assertThatThrownBy(kafka::bootstrapServers).isInstanceOf(IllegalStateException.class);
    }

    private static List<ConsumerRecord<String, InferenceRequest>> consumeAll(InProcessKafka kafka,
            JsonSerde<InferenceRequest> serde, int expected) {
        Properties props = kafka.clientProperties();
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "in-process-kafka-it");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<ConsumerRecord<String, InferenceRequest>> received = new ArrayList<>();
        try (KafkaConsumer<String, InferenceRequest> consumer =
                     new KafkaConsumer<>(props, new StringDeserializer(), serde.kafkaDeserializer())) {
            consumer.subscribe(List.of(Topics.INFERENCE_REQUESTS.name()));
            await().atMost(Duration.ofSeconds(30)).pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ZERO)
                    .untilAsserted(() -> {
                        consumer.poll(Duration.ofMillis(200)).forEach(received::add);
                        assertThat(received).as("records consumed").hasSizeGreaterThanOrEqualTo(expected);
                    });
        }
        return received;
    }
}
