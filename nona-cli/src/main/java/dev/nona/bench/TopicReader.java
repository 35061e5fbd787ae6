package dev.nona.bench;

import dev.nona.topics.client.ClientProperties;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * A {@code read_committed} consumer of the controller's topics on its own daemon thread, as a downstream executor
 * reads them (no group, no offset commits), from every partition's beginning or, {@link #fromEnd()}, from its end as
 * of {@link #start()} (only what is written from then on: the broker may hold earlier runs' records). It hands each
 * record, with its receipt time ({@link System#nanoTime()} just after the poll that fetched it), to a
 * {@link Handler}. It rides out a broker outage (the consumer reconnects). What the handler or the consumer throws
 * stops the reading; {@link #check()} rethrows it. The benchmarks' readers and the chaos run's observer read through
 * it.
 *
 * @param <V> the value type ({@code byte[]}, or {@code ByteBuffer} views of the fetched bytes)
 */
public final class TopicReader<V> implements AutoCloseable {
    /** What the reader does with each record, on the reader's thread. */
    @FunctionalInterface
    public interface Handler<V> {
        /** @param receivedNanos {@link System#nanoTime()} just after the poll that fetched the record */
        void record(ConsumerRecord<byte[], V> record, long receivedNanos);
    }

    private final String bootstrap;
    private final String name;
    private final List<String> topics;
    private final Deserializer<V> values;
    private final Handler<V> handler;
    private final Map<String, Object> settings = new LinkedHashMap<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private boolean fromEnd;
    private Duration poll = Duration.ofMillis(100);
    private KafkaConsumer<byte[], V> consumer;
    private Thread thread;
    private volatile boolean running = true;

    /**
     * @param name    the consumer's {@code client.id} and the thread's name
     * @param topics  the topics read, every partition of each
     * @param values  the values' deserializer
     * @param handler what is done with each record
     */
    public TopicReader(String bootstrap, String name, List<String> topics, Deserializer<V> values, Handler<V> handler) {
        this.bootstrap = Objects.requireNonNull(bootstrap, "bootstrap");
        this.name = Objects.requireNonNull(name, "name");
        this.topics = List.copyOf(topics);
        this.values = Objects.requireNonNull(values, "values");
        this.handler = Objects.requireNonNull(handler, "handler");
    }

    /** A reader of {@code byte[]} values. */
    public static TopicReader<byte[]> ofBytes(String bootstrap, String name, List<String> topics,
            Handler<byte[]> handler) {
        return new TopicReader<>(bootstrap, name, topics, new ByteArrayDeserializer(), handler);
    }

    /** Reads from each partition's end as of {@link #start()}, not its beginning. */
    public TopicReader<V> fromEnd() {
        fromEnd = true;
        return this;
    }

    /** A further consumer setting (fetch sizes, reconnect backoffs). */
    public TopicReader<V> with(String key, Object value) {
        settings.put(key, value);
        return this;
    }

    /** Further consumer settings. */
    public TopicReader<V> with(Map<String, ?> more) {
        settings.putAll(more);
        return this;
    }

    /** The longest a poll waits when nothing arrives (100 ms unless told). */
    public TopicReader<V> pollingEvery(Duration timeout) {
        poll = Objects.requireNonNull(timeout, "poll timeout");
        return this;
    }

    /** Assigns every partition of the topics, seeks (the seek done before it returns) and starts the thread. */
    public synchronized TopicReader<V> start() {
        if (consumer != null) {
            throw new IllegalStateException(name + " was started already");
        }
        Properties p = ClientProperties.readCommittedConsumer(bootstrap, null);
        p.putAll(settings);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, name);
        consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), values);
        try {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : topics) {
                consumer.partitionsFor(topic).forEach(i -> partitions.add(new TopicPartition(topic, i.partition())));
            }
            consumer.assign(partitions);
            if (fromEnd) {
                consumer.seekToEnd(partitions);
            } else {
                consumer.seekToBeginning(partitions);
            }
            partitions.forEach(consumer::position);
        } catch (RuntimeException e) {
            consumer.close(Duration.ofSeconds(5));
            throw e;
        }
        thread = new Thread(this::loop, name);
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    /** Throws what stopped the reading, if anything did. */
    public void check() {
        Throwable t = failure.get();
        if (t != null) {
            throw new IllegalStateException("reading " + String.join(", ", topics) + " failed: " + t.getMessage(), t);
        }
    }

    private void loop() {
        try {
            while (running) {
                ConsumerRecords<byte[], V> records = consumer.poll(poll);
                long now = System.nanoTime();
                for (ConsumerRecord<byte[], V> r : records) {
                    handler.record(r, now);
                }
            }
        } catch (WakeupException closing) {
            // close() woke the consumer up
        } catch (Throwable t) {
            failure.set(t);
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /** Stops the thread (waits up to 10 s for it) and closes the consumer. */
    @Override
    public synchronized void close() {
        running = false;
        if (thread == null) {
            return;
        }
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
