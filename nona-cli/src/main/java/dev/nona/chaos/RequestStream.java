package dev.nona.chaos;

import dev.nona.controller.catalog.CatalogDags;
import dev.nona.topics.Topics;
import dev.nona.topics.client.ClientProperties;
import dev.nona.topics.client.RecordPublisher;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.zoo.ModelZoo;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The requests of a chaos run on an open-loop schedule, on its own thread: request {@code c-<i>} is due at
 * {@code t0 + i / rate} whatever happened to the ones before it (a broker outage queues them in the producer),
 * stamped with the time it was sent ({@code eventTime}), models in round robin. Also the catalog (zoo models) and
 * the readiness checks ({@code ready-<model>-<k>}). Thread safe.
 */
final class RequestStream implements AutoCloseable {
    private final List<String> models;
    private final RecordPublisher producer;
    private final JsonSerde<InferenceRequest> requests = JsonSerde.forTopic(Topics.INFERENCE_REQUESTS);
    private final AtomicInteger sent = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile long[] sentAt = new long[0];
    private int readyChecks;
    private Thread thread;

    RequestStream(String bootstrap, List<String> models) {
        this.models = List.copyOf(models);
        var p = ClientProperties.producer(bootstrap, 0);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "nona-chaos-requests");
        ChaosRun.rideOutOutages(p);
        this.producer = new RecordPublisher(p);
    }

    /** The models' zoo DAGs on {@code model-catalog}, flushed. */
    void publishCatalog() {
        JsonSerde<ModelCatalogEntry> catalog = JsonSerde.forTopic(Topics.MODEL_CATALOG);
        for (String m : models) {
            ModelCatalogEntry e = ModelCatalogEntry.of(m, CatalogDags.toCatalogDag(ModelZoo.load(m)));
            producer.send(Topics.MODEL_CATALOG.name(), catalog.keyBytes(e), catalog.serialize(e));
        }
        producer.flush();
    }

    /** One request per model, flushed. */
    void publishReadyChecks() {
        for (String m : models) {
            send(InferenceRequest.of(InvariantChecker.READY + m + "-" + readyChecks++, m, "chaos",
                    System.currentTimeMillis(), null));
        }
        producer.flush();
    }

    /** Starts sending {@code count} requests at {@code rate} per second. */
    synchronized void start(double rate, int count) {
        if (thread != null) {
            throw new IllegalStateException("BUG: the request stream runs already");
        }
        sentAt = new long[count];
        thread = new Thread(() -> {
            try {
                publish(rate, count);
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "nona-chaos-requests");
        thread.setDaemon(true);
        thread.start();
    }

    private void publish(double rate, int count) {
        double periodNanos = 1e9 / rate;
        long t0 = System.nanoTime();
        long[] at = sentAt;
        for (int i = 0; i < count; i++) {
            long due = t0 + Math.round(i * periodNanos);
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(Math.max(wait, 200_000));
            }
            long now = System.currentTimeMillis();
            at[i] = now;
            send(InferenceRequest.of(InvariantChecker.PREFIX + i, models.get(i % models.size()), "t" + (i & 15), now,
                    1024L));
            sent.incrementAndGet();
            if ((i & 1023) == 0) {
                producer.rethrowFailure();
            }
        }
        producer.flush();
    }

    private void send(InferenceRequest r) {
        producer.send(Topics.INFERENCE_REQUESTS.name(), requests.keyBytes(r), requests.serialize(r));
    }

    /** Waits until every request is sent and acknowledged; throws what stopped the stream, if anything did. */
    void await(Duration timeout) throws InterruptedException {
        thread.join(timeout.toMillis());
        check();
        if (thread.isAlive()) {
            throw new IllegalStateException("the requests were not all sent within " + timeout);
        }
    }

    /** Throws what stopped the stream, if anything did. */
    void check() {
        Throwable t = failure.get();
        if (t != null) {
            throw new IllegalStateException("sending requests failed: " + t.getMessage(), t);
        }
    }

    /** The requests it sends in all. */
    int count() {
        return sentAt.length;
    }

    int sent() {
        return sent.get();
    }

    /** Epoch ms request {@code c-<i>} was sent at. */
    long sentAt(int i) {
        return sentAt[i];
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
