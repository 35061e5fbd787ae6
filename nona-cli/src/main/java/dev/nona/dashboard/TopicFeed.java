package dev.nona.dashboard;

import dev.nona.topics.Topics;
import dev.nona.topics.client.ClientProperties;
import dev.nona.topics.record.ControllerCommand;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the controller's topics from their start, as a downstream consumer does ({@code read_committed}, no offset
 * commits, a fresh group), and folds each batch with its positions into a {@link DashboardState}. Records that do
 * not parse are counted as unreadable (the controller dead-letters bad input; the dashboard only shows). Runs on
 * its own daemon thread until {@link #close()}.
 */
final class TopicFeed implements Runnable, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TopicFeed.class);

    /** The topics read. */
    static final List<String> TOPICS = List.of(Topics.PLACEMENT_DECISIONS.name(), Topics.PLACEMENT_TABLES.name(),
            Topics.CONTROLLER_EVENTS.name(), Topics.CLUSTER_TELEMETRY.name(), Topics.PLACEMENT_OUTCOMES.name(),
            Topics.DEAD_LETTERS.name(), Topics.CONTROLLER_COMMANDS.name(), Topics.MODEL_CATALOG.name());

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final DashboardState state;
    private final JsonSerde<PlacementDecision> decisions = JsonSerde.forTopic(Topics.PLACEMENT_DECISIONS);
    private final JsonSerde<PlacementTableRecord> tables = JsonSerde.forTopic(Topics.PLACEMENT_TABLES);
    private final JsonSerde<ControllerEvent> events = JsonSerde.forTopic(Topics.CONTROLLER_EVENTS);
    private final JsonSerde<ServerTelemetry> telemetry = JsonSerde.forTopic(Topics.CLUSTER_TELEMETRY);
    private final JsonSerde<PlacementOutcome> outcomes = JsonSerde.forTopic(Topics.PLACEMENT_OUTCOMES);
    private final JsonSerde<ControllerCommand> commands =
            JsonSerde.forTopic(Topics.CONTROLLER_COMMANDS);
    private final Thread thread = new Thread(this, "nona-dashboard-feed");
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    /**
     * @param bootstrap {@code HOST:PORT[,...]}
     * @param client    further Kafka client settings passed through (security.protocol, sasl.*, ssl.*, ...)
     * @param state     where the records go
     */
    TopicFeed(String bootstrap, Properties client, DashboardState state) {
        Properties p = ClientProperties.readCommittedConsumer(bootstrap, "nona-dashboard-" + UUID.randomUUID());
        client.forEach(p::putIfAbsent);
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(Topics.TABLE_MAX_BYTES));
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "nona-dashboard");
        this.consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.state = state;
        thread.setDaemon(true);
    }

    TopicFeed start() {
        thread.start();
        return this;
    }

    @Override
    public void run() {
        try {
            consumer.subscribe(TOPICS);
            while (!Thread.currentThread().isInterrupted()) {
                ConsumerRecords<byte[], byte[]> batch = consumer.poll(Duration.ofMillis(250));
                boolean connected = connected();
                state.atomically(() -> {
                    fold(batch);
                    state.connection(connected, !batch.isEmpty(), System.currentTimeMillis());
                });
            }
        } catch (WakeupException closing) {
            // close() was called
        } catch (Throwable t) {
            LOG.error("The dashboard stopped reading the topics", t);
            failure.set(t);
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /**
     * Whether the consumer holds a connection to a broker now: its {@code connection-count} metric (group
     * {@code consumer-metrics}) above 0. A poll returns nothing both when there is nothing new and when no broker
     * answers; this tells the two apart, so that the page does not show figures frozen by an outage as if current.
     */
    private boolean connected() {
        if (connections == null) { // found once: the consumer keeps the same metric object
            for (Map.Entry<MetricName, ? extends Metric> m : consumer.metrics().entrySet()) {
                if (m.getKey().name().equals("connection-count") && m.getKey().group().equals("consumer-metrics")) {
                    connections = m.getValue();
                }
            }
        }
        return connections != null && connections.metricValue() instanceof Number n && n.doubleValue() > 0;
    }

    /** The consumer's {@code connection-count} metric, once found. */
    private Metric connections;

    private void fold(ConsumerRecords<byte[], byte[]> batch) {
        for (ConsumerRecord<byte[], byte[]> r : batch) {
            accept(r);
        }
        for (TopicPartition tp : consumer.assignment()) {
            state.position(tp.topic() + "-" + tp.partition(), consumer.position(tp));
        }
    }

    private void accept(ConsumerRecord<byte[], byte[]> r) {
        String topic = r.topic();
        if (topic.equals(Topics.PLACEMENT_DECISIONS.name())) {
            fold(decisions.parse(r.value()), state::decision);
        } else if (topic.equals(Topics.PLACEMENT_TABLES.name())) {
            fold(tables.parse(r.value()), state::table);
        } else if (topic.equals(Topics.CONTROLLER_EVENTS.name())) {
            fold(events.parse(r.value()), state::event);
        } else if (topic.equals(Topics.CLUSTER_TELEMETRY.name())) {
            fold(telemetry.parse(r.value()), t -> state.telemetry(t, r.timestamp()));
        } else if (topic.equals(Topics.PLACEMENT_OUTCOMES.name())) {
            fold(outcomes.parse(r.value()), state::outcome);
        } else if (topic.equals(Topics.MODEL_CATALOG.name())) {
            state.catalog(r.key(), r.value());
        } else if (topic.equals(Topics.CONTROLLER_COMMANDS.name())) {
            if (r.value() != null) { // a tombstone of the compacted topic removes nothing the page shows
                fold(commands.parse(r.value()), state::command);
            }
        } else {
            state.deadLetter();
        }
    }

    private <T> void fold(Parsed<T> parsed, Consumer<T> into) {
        if (!parsed.ok()) {
            state.unreadable();
            return;
        }
        try {
            into.accept(parsed.value());
        } catch (RuntimeException e) { // e.g. a table whose tableJson this version cannot read
            LOG.debug("Unreadable record: {}", e.toString());
            state.unreadable();
        }
    }

    /** The reader's failure, or null while it runs. */
    Throwable failure() {
        return failure.get();
    }

    @Override
    public void close() throws InterruptedException {
        consumer.wakeup();
        thread.join(10_000);
    }
}
