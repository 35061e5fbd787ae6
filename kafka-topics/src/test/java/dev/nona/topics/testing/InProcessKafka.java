package dev.nona.topics.testing;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real Kafka 4.2 broker in KRaft combined mode (one node: broker and controller), in this JVM, for tests.
 * Built on Kafka's own {@link KafkaClusterTestKit}. Every internal topic (offsets, transactions, share state) has
 * replication factor 1 and min ISR 1, so transactions and consumer groups work on a single node; the group
 * rebalance delay is 0.
 *
 * <p>Use it as a JUnit 5 extension, one broker per test class:
 * <pre>{@code
 * @RegisterExtension
 * static final InProcessKafka KAFKA = new InProcessKafka();
 * ... KAFKA.bootstrapServers() ...
 * }</pre>
 * or on its own with {@link #start()} and {@link #close()} (try-with-resources). {@link #close()} may be called any
 * number of times (the test kit's own {@code close()} throws on a second call).
 *
 * <p>Other modules get it from the {@code kafka-topics} test-jar; they also need {@code kafka-test-common-runtime}
 * and {@code kafka_2.13} in test scope.
 */
public final class InProcessKafka implements AutoCloseable, BeforeAllCallback, AfterAllCallback {
    private final Map<String, String> brokerConfig;
    private KafkaClusterTestKit cluster;

    /** A broker with the single-node settings above. */
    public InProcessKafka() {
        this(Map.of());
    }

    /** A broker with the single-node settings above, plus (or overridden by) {@code brokerConfig}. */
    public InProcessKafka(Map<String, String> brokerConfig) {
        this.brokerConfig = Map.copyOf(brokerConfig);
    }

    /** Formats and starts the broker, and waits until it accepts clients. Does nothing if already started. */
    public synchronized InProcessKafka start() throws Exception {
        if (cluster != null) {
            return this;
        }
        TestKitNodes nodes = new TestKitNodes.Builder()
                .setCombined(true)
                .setNumBrokerNodes(1)
                .setNumControllerNodes(1)
                .build();
        KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(nodes);
        singleNodeConfig().forEach(builder::setConfigProp);
        brokerConfig.forEach(builder::setConfigProp);
        KafkaClusterTestKit kit = builder.build();
        try {
            kit.format();
            kit.startup();
            kit.waitForReadyBrokers();
        } catch (Exception | Error e) {
            closeQuietly(kit, e);
            throw e;
        }
        cluster = kit;
        return this;
    }

    /** {@code host:port} of the broker's client listener. */
    public synchronized String bootstrapServers() {
        if (cluster == null) {
            throw new IllegalStateException("broker not started");
        }
        return cluster.bootstrapServers();
    }

    /** Minimal client properties: just {@code bootstrap.servers}. */
    public Properties clientProperties() {
        Properties props = new Properties();
        props.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return props;
    }

    /** A new admin client for this broker; the caller closes it. */
    public Admin admin() {
        return Admin.create(clientProperties());
    }

    /** A new producer of raw bytes that sends each record at once ({@code linger.ms=0}); the caller closes it. */
    public KafkaProducer<byte[], byte[]> producer() {
        Properties props = clientProperties();
        props.setProperty(ProducerConfig.LINGER_MS_CONFIG, "0");
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * A new consumer of raw bytes, assigned every partition of {@code topic} and positioned at its start; the caller
     * closes it.
     *
     * @param readCommitted {@code isolation.level=read_committed} (what downstream consumers see), else
     *                      {@code read_uncommitted} (also what open transactions have written so far)
     */
    public KafkaConsumer<byte[], byte[]> consumerFromStart(String topic, boolean readCommitted) {
        Properties props = clientProperties();
        props.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, readCommitted ? "read_committed" : "read_uncommitted");
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(info -> new TopicPartition(topic, info.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return consumer;
    }

    /**
     * The records of {@code topic} from its start up to its end offsets as of this call (for {@code read_committed},
     * the last stable offsets), reading for at most ten seconds.
     */
    public List<ConsumerRecord<byte[], byte[]>> readFromStart(String topic, boolean readCommitted) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = consumerFromStart(topic, readCommitted)) {
            Map<TopicPartition, Long> end = consumer.endOffsets(consumer.assignment());
            await().atMost(Duration.ofSeconds(10)).pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ZERO)
                    .until(() -> {
                        if (end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue())) {
                            return true;
                        }
                        consumer.poll(Duration.ofMillis(200)).forEach(out::add);
                        return false;
                    });
        } catch (ConditionTimeoutException e) {
            // what was read within the ten seconds
        }
        return out;
    }

    /** Stops the broker and deletes its data. Safe to call more than once, and before {@link #start()}. */
    @Override
    public synchronized void close() throws Exception {
        KafkaClusterTestKit kit = cluster;
        cluster = null;
        if (kit != null) {
            kit.close();
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        close();
    }

    static Map<String, String> singleNodeConfig() {
        return Map.of(
                "offsets.topic.replication.factor", "1",
                "offsets.topic.num.partitions", "1",
                "transaction.state.log.replication.factor", "1",
                "transaction.state.log.min.isr", "1",
                "transaction.state.log.num.partitions", "1",
                "share.coordinator.state.topic.replication.factor", "1",
                "share.coordinator.state.topic.min.isr", "1",
                "min.insync.replicas", "1",
                "default.replication.factor", "1",
                "group.initial.rebalance.delay.ms", "0");
    }

    private static void closeQuietly(KafkaClusterTestKit kit, Throwable cause) {
        try {
            kit.close();
        } catch (Exception closing) {
            cause.addSuppressed(closing);
        }
    }
}
