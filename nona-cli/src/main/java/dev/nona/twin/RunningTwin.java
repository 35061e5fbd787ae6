package dev.nona.twin;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The executor twin ({@link ExecutorTwin}) on a thread of this JVM, from {@link #start} (which returns once it reads
 * decisions) to {@link #stop} or {@link #close}: the demo's and the soak benchmark's. A failure of the twin's thread
 * is kept and rethrown by {@link #check}.
 */
public final class RunningTwin implements AutoCloseable {
    /** How long {@link #start(String, TwinOptions)} waits for the twin to read decisions. */
    public static final Duration START_TIMEOUT = Duration.ofSeconds(60);

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
        this.thread = new Thread(this::run, "nona-executor-twin");
        thread.setDaemon(true);
    }

    /** Starts the twin against the broker at {@code bootstrap}, waiting up to {@link #START_TIMEOUT}. */
    public static RunningTwin start(String bootstrap, TwinOptions options) throws InterruptedException {
        return start(bootstrap, options, START_TIMEOUT);
    }

    /** Starts the twin against the broker at {@code bootstrap}; fails when it does not run within {@code timeout}. */
    public static RunningTwin start(String bootstrap, TwinOptions options, Duration timeout)
            throws InterruptedException {
        RunningTwin running = new RunningTwin(new ExecutorTwin(bootstrap, options, false, System::currentTimeMillis),
                options);
        running.thread.start();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (running.twin.summary() == null) {
            running.check();
            if (System.nanoTime() > deadline) {
                running.close();
                throw new IllegalStateException("the executor twin did not start within " + timeout.toSeconds() + " s");
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

    public TwinOptions options() {
        return options;
    }

    /** About when the twin's clock started (its silences count from it): shortly after, within {@link #start}'s
     *  poll. */
    public long originMillis() {
        return originMillis;
    }

    /** A failure of the twin's thread, rethrown. */
    public void check() {
        Throwable t = failure.get();
        if (t != null) {
            throw new IllegalStateException("the executor twin failed: " + t.getMessage(), t);
        }
    }

    /** Its counters so far (after {@link #stop} or {@link #close}: final). */
    public TwinExecutor.Summary summary() {
        TwinExecutor.Summary done = last.get();
        return done != null ? done : twin.summary();
    }

    /** Stops reading decisions, lets the requests it runs end, rethrows a failure, and returns its final counters. */
    public TwinExecutor.Summary stop() throws InterruptedException {
        twin.stop();
        thread.join(joinMillis);
        check();
        return summary();
    }

    @Override
    public void close() throws InterruptedException {
        twin.stop();
        thread.join(joinMillis);
        twin.close();
    }
}
