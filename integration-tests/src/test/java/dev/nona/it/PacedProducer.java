package dev.nona.it;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Publishes {@code v0..v(n-1)} (keys {@code k<i mod keys>}) at about {@code perSecond} records/s on its own
 * thread, with an idempotent producer that rides through a broker restart. {@link #sent()} lets a test act
 * "mid-stream".
 */
final class PacedProducer implements AutoCloseable {

    private final Thread thread;
    private final AtomicInteger sent = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    PacedProducer(String bootstrap, String topic, int n, int keys, int perSecond) {
        this.thread = new Thread(() -> run(bootstrap, topic, n, keys, perSecond), "paced-producer-" + topic);
        thread.setDaemon(true);
    }

    PacedProducer start() {
        thread.start();
        return this;
    }

    int sent() {
        return sent.get();
    }

    void awaitSent(int count) throws InterruptedException {
        while (sent.get() < count && thread.isAlive()) {
            Thread.sleep(20);
        }
    }

    void join() throws InterruptedException {
        thread.join();
        if (failure.get() != null) {
            throw new IllegalStateException("producer failed", failure.get());
        }
    }

    private void run(String bootstrap, String topic, int n, int keys, int perSecond) {
        try (KafkaProducer<String, String> p = KafkaTestClients.producer(bootstrap, null)) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                p.send(new ProducerRecord<>(topic, "k" + (i % keys), "v" + i), (md, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                });
                sent.incrementAndGet();
                long due = t0 + (long) ((i + 1) * 1e9 / perSecond);
                long wait = due - System.nanoTime();
                if (wait > 1_000_000) {
                    Thread.sleep(wait / 1_000_000);
                }
            }
            p.flush();
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        }
    }

    @Override
    public void close() throws InterruptedException {
        thread.join(60_000);
    }
}
