package dev.nona.it;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Publishes requests {@code r-0, r-1, ...} (fj-a for even i, fj-b for odd) at a steady rate on its own thread, on an
 * open-loop schedule (a late send is not made up by a pause), until {@code limit} are sent or it is stopped.
 */
final class RequestPublisher {

    private final ControllerInputs in;
    private final int rate;
    private final int limit;
    private final AtomicInteger sent = new AtomicInteger();
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread thread;

    RequestPublisher(ControllerInputs in, int rate, int limit) {
        this.in = in;
        this.rate = rate;
        this.limit = limit;
        this.thread = new Thread(this::run, "it-publisher");
    }

    /** Until stopped. */
    static RequestPublisher unbounded(ControllerInputs in, int rate) {
        return new RequestPublisher(in, rate, Integer.MAX_VALUE);
    }

    RequestPublisher start() {
        thread.start();
        return this;
    }

    int sent() {
        return sent.get();
    }

    /** Waits until {@code k} requests are sent, or the publisher stopped. */
    void awaitSent(int k) {
        await().forever().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                .until(() -> sent.get() >= k || !thread.isAlive());
    }

    /** Waits until all {@code limit} requests are sent and acknowledged; throws if publishing failed. */
    void join() throws InterruptedException {
        thread.join();
        if (failure.get() != null) {
            throw new IllegalStateException("publisher failed", failure.get());
        }
    }

    /** Stops, waits until every request sent is acknowledged by the broker, and returns how many were sent. */
    int stop() throws InterruptedException {
        stopping.set(true);
        join();
        return sent.get();
    }

    private void run() {
        try {
            int batch = Math.max(1, rate / 50); // pace every 20 ms of sends
            long t0 = System.nanoTime();
            for (int i = 0; i < limit && !stopping.get(); i++) {
                in.request("r-" + i, i % 2 == 0 ? "fj-a" : "fj-b", System.currentTimeMillis());
                sent.incrementAndGet();
                if (i % batch == batch - 1) {
                    long wait = t0 + (long) ((i + 1) * 1e9 / rate) - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                }
            }
            in.flush();
        } catch (Throwable t) {
            failure.set(t);
        }
    }
}
