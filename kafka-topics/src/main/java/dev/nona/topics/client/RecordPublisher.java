package dev.nona.topics.client;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A producer of serialised records that sends without waiting and remembers the first send that failed; {@link
 * #flush()} and {@link #rethrowFailure()} throw it, so that a publisher never goes on as if a lost record had been
 * sent.
 */
public final class RecordPublisher implements AutoCloseable {
    private final KafkaProducer<byte[], byte[]> producer;
    private final AtomicReference<Exception> failure = new AtomicReference<>();

    /** @param properties producer properties, e.g. from {@link ClientProperties#producer} */
    public RecordPublisher(Properties properties) {
        this.producer = new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Sends without waiting; a failure is kept for {@link #rethrowFailure()}. */
    public void send(String topic, byte[] key, byte[] value) {
        send(topic, key, value, () -> { });
    }

    /**
     * Sends without waiting and runs {@code acknowledged} on the producer's I/O thread when the broker has
     * acknowledged the record (not when it failed: the failure is kept for {@link #rethrowFailure()}). Keep it short.
     */
    public void send(String topic, byte[] key, byte[] value, Runnable acknowledged) {
        producer.send(new ProducerRecord<>(topic, key, value), (metadata, e) -> {
            if (e != null) {
                failure.compareAndSet(null, e);
            } else {
                acknowledged.run();
            }
        });
    }

    /**
     * Sends without waiting; runs {@code acknowledged} when the broker has acknowledged the record, or {@code failed}
     * with the cause when the send failed (e.g. {@code delivery.timeout.ms} passed while the broker was down). Such a
     * failure is the caller's to count and is not kept for {@link #rethrowFailure()}. Both run on the producer's I/O
     * thread: keep them short.
     */
    public void send(String topic, byte[] key, byte[] value, Runnable acknowledged, Consumer<Exception> failed) {
        producer.send(new ProducerRecord<>(topic, key, value), (metadata, e) -> {
            if (e != null) {
                failed.accept(e);
            } else {
                acknowledged.run();
            }
        });
    }

    /** Waits until every record sent so far is acknowledged, then {@link #rethrowFailure()}. */
    public void flush() {
        producer.flush();
        rethrowFailure();
    }

    /** @throws IllegalStateException with the first failed send's cause, if a send failed */
    public void rethrowFailure() {
        Exception e = failure.get();
        if (e != null) {
            throw new IllegalStateException("publishing to Kafka failed: " + e.getMessage(), e);
        }
    }

    /** Closes the producer, waiting at most {@code timeout} for records not yet sent. */
    public void close(Duration timeout) {
        producer.close(timeout);
    }

    @Override
    public void close() {
        producer.close();
    }
}
