package dev.nona.chaos;

import dev.nona.topics.TopicSpec;
import dev.nona.topics.Topics;
import dev.nona.topics.client.ClientProperties;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the controller's outputs as they are written ({@code placement-decisions}, {@code controller-events},
 * {@code dead-letters}, {@code placement-tables}, read_committed, from their ends at {@link #start()}: only this
 * run's) on its own thread, and hands each record to the {@link InvariantChecker}. It rides out a broker outage
 * (the consumer reconnects). An unreadable record of the controller's is a failure of the run.
 */
final class ChaosObserver implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final InvariantChecker checker;
    private final JsonSerde<PlacementDecision> decisions = JsonSerde.forTopic(Topics.PLACEMENT_DECISIONS);
    private final JsonSerde<ControllerEvent> events = JsonSerde.forTopic(Topics.CONTROLLER_EVENTS);
    private final JsonSerde<DeadLetter> deadLetters = JsonSerde.forTopic(Topics.DEAD_LETTERS);
    private final JsonSerde<PlacementTableRecord> tables = JsonSerde.forTopic(Topics.PLACEMENT_TABLES);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean running = true;

    ChaosObserver(String bootstrap, InvariantChecker checker) {
        this.checker = checker;
        var p = ClientProperties.readCommittedConsumer(bootstrap, null);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "nona-chaos-observer");
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(Topics.TABLE_MAX_BYTES));
        this.consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.thread = new Thread(this::loop, "nona-chaos-observer");
        thread.setDaemon(true);
    }

    ChaosObserver start() {
        List<TopicPartition> partitions = new ArrayList<>();
        for (TopicSpec<?> t : List.of(Topics.PLACEMENT_DECISIONS, Topics.CONTROLLER_EVENTS, Topics.DEAD_LETTERS,
                Topics.PLACEMENT_TABLES)) {
            consumer.partitionsFor(t.name()).forEach(i -> partitions.add(new TopicPartition(t.name(), i.partition())));
        }
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position);
        thread.start();
        return this;
    }

    /** Throws what stopped the reading, if anything did. */
    void check() {
        Throwable t = failure.get();
        if (t != null) {
            throw new IllegalStateException("reading the controller's outputs failed: " + t.getMessage(), t);
        }
    }

    private void loop() {
        try {
            while (running) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    note(r);
                }
            }
        } catch (WakeupException closing) {
            // close() woke it up
        } catch (Throwable t) {
            failure.set(t);
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private void note(ConsumerRecord<byte[], byte[]> r) {
        String topic = r.topic();
        if (topic.equals(Topics.PLACEMENT_DECISIONS.name())) {
            checker.decision(parse(decisions, r), r.timestamp());
        } else if (topic.equals(Topics.DEAD_LETTERS.name())) {
            checker.deadLetter(parse(deadLetters, r));
        } else if (topic.equals(Topics.PLACEMENT_TABLES.name())) {
            if (r.value() != null) {
                checker.table(parse(tables, r));
            }
        } else {
            checker.event(parse(events, r));
        }
    }

    private static <T extends dev.nona.topics.record.TopicRecord> T parse(JsonSerde<T> serde,
            ConsumerRecord<byte[], byte[]> r) {
        Parsed<T> p = serde.parse(r.value());
        if (!p.ok()) {
            throw new IllegalStateException("unreadable record of " + r.topic() + " at offset " + r.offset() + ": "
                    + p.reason());
        }
        return p.value();
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
