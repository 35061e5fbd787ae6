package dev.nona.it;

import static org.awaitility.Awaitility.await;

import dev.nona.topics.client.ClientProperties;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.core.ConditionFactory;
import org.awaitility.core.ConditionTimeoutException;

/** Plain Kafka clients for the integration tests: topic creation, producers, read_committed consumers. */
final class KafkaTestClients {

    private KafkaTestClients() {}

    static void createTopics(String bootstrap, int partitions, String... topics) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            List<NewTopic> specs = new ArrayList<>();
            for (String t : topics) {
                specs.add(new NewTopic(t, partitions, (short) 1));
            }
            admin.createTopics(specs).all().get();
        } catch (ExecutionException | InterruptedException e) {
            throw new IllegalStateException("cannot create topics " + List.of(topics), e);
        }
    }

    static KafkaProducer<String, String> producer(String bootstrap, String transactionalId) {
        Properties p = ClientProperties.producer(bootstrap, 5);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000");
        if (transactionalId != null) {
            p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        }
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    static KafkaConsumer<String, String> readCommittedConsumer(String bootstrap, String group) {
        Properties p = ClientProperties.readCommittedConsumer(bootstrap, group);
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
    }

    /** Reads {@code topic} from the start until {@code expected} records arrived or {@code timeout} passed. */
    static List<ConsumerRecord<String, String>> readAll(String bootstrap, String topic, int expected,
            Duration timeout) {
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        try (KafkaConsumer<String, String> c = readCommittedConsumer(bootstrap, "it-reader-" + System.nanoTime())) {
            c.subscribe(List.of(topic));
            try {
                awaitReading(timeout).until(() -> {
                    c.poll(Duration.ofMillis(500)).forEach(out::add);
                    return out.size() >= expected;
                });
            } catch (ConditionTimeoutException e) {
                // fewer than expected: the caller sees how many
            }
            // a short grace period so that duplicates beyond the expected count are seen too
            keepReading(Duration.ofSeconds(2), () -> c.poll(Duration.ofMillis(200)).forEach(out::add));
        }
        return out;
    }

    /**
     * Awaitility's wait for a condition that polls a consumer itself, in the test's thread (a consumer is
     * single-threaded): evaluated at once and back to back, as each evaluation blocks in its poll.
     */
    static ConditionFactory awaitReading(Duration atMost) {
        return await().atMost(atMost).pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ZERO);
    }

    /** Runs {@code poll} back to back for {@code duration} (to see late records, such as duplicates). */
    static void keepReading(Duration duration, Runnable poll) {
        awaitReading(duration.plusSeconds(1)).during(duration).until(() -> {
            poll.run();
            return true;
        });
    }
}
