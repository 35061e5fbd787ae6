package dev.nona.demo;

import dev.nona.twin.ExecutorTwin;
import dev.nona.twin.TwinExecutor;
import dev.nona.twin.TwinOptions;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/** The demo's executor twin, on its own thread from {@link #start} (which returns once it reads decisions) to {@link #close}. */
final class RunningTwin implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final ExecutorTwin twin;
    private final TwinOptions options;
    /** Epoch ms when {@link #start} saw the twin running: shortly after the twin's clock origin (a 20 ms poll). */
    private long originMillis;
    private final long joinMillis;
    private final Thread thread;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicReference<TwinExecutor.Summary> last = new AtomicReference<>();

    private RunningTwin(ExecutorTwin twin, TwinOptions options) {
        this.twin = twin;
        this.options = options;
        this.joinMillis = Math.round(options.timeoutSeconds() * 1000) + 5_000; // it lets running requests end
        this.thread = new Thread(this::run, "nona-demo-executor-twin");
        thread.setDaemon(true);
    }

    static RunningTwin start(String bootstrap, TwinOptions options) throws InterruptedException {
        RunningTwin running = new RunningTwin(new ExecutorTwin(bootstrap, options, false, System::currentTimeMillis),
                options);
        running.thread.start();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (running.twin.summary() == null) {
            running.check();
            if (System.nanoTime() > deadline) {
                running.close();
                throw new IllegalStateException("the executor twin did not start within " + START_TIMEOUT.toSeconds() + " s");
            }
            Thread.sleep(20);
        }
        running.originMillis = System.currentTimeMillis();
        return running;
    }

    private void run() {
        try {
            last.set(twin.run(null));
        } catch (Throwable t) {
            failure.set(t);
        }
    }

    TwinOptions options() {
        return options;
    }

    /** About when the twin's clock started (its silences count from it): shortly after, within {@link #start}'s poll. */
    long originMillis() {
        return originMillis;
    }

    /** A failure of the twin's thread, rethrown. */
    void check() {
        Throwable t = failure.get();
        if (t != null) {
            throw new IllegalStateException("the executor twin failed: " + t.getMessage(), t);
        }
    }

    /** Its counters so far (after {@link #close}: final). */
    TwinExecutor.Summary summary() {
        TwinExecutor.Summary done = last.get();
        return done != null ? done : twin.summary();
    }

    @Override
    public void close() throws InterruptedException {
        twin.stop();
        thread.join(joinMillis);
        twin.close();
    }
}
