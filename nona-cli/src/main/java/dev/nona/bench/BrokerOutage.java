package dev.nona.bench;

import dev.nona.check.Checks;
import dev.nona.local.LocalKafkaBroker;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The broker killed with SIGKILL ({@code kill -9}), down for a set time, and started again on the same data
 * directory and ports ({@link LocalKafkaBroker} runs as a child JVM). The fault ends when the broker <em>accepts
 * writes again</em>: when the restarted broker acknowledges a record of a {@link WriteProbe} (connected before the
 * kill). Not thread safe.
 */
public final class BrokerOutage implements Fault, AutoCloseable {
    private final LocalKafkaBroker broker;
    private final Duration down;
    private final WriteProbe probe;

    /** @param down how long the broker stays down, {@code > 0} */
    public BrokerOutage(LocalKafkaBroker broker, Duration down) throws Exception {
        this.broker = Objects.requireNonNull(broker, "broker");
        Checks.positive(down.toMillis(), "down time (ms)");
        this.down = down;
        this.probe = new WriteProbe(broker.bootstrapServers());
    }

    @Override
    public String name() {
        return "broker-kill";
    }

    /** Kills the broker, waits the down time, starts it again and waits until it acknowledges a probe record. */
    @Override
    public Window inject() throws Exception {
        long start = System.nanoTime();
        long startMillis = System.currentTimeMillis();
        broker.kill();
        long sleep = down.toNanos() - (System.nanoTime() - start);
        if (sleep > 0) {
            TimeUnit.NANOSECONDS.sleep(sleep);
        }
        broker.start();
        probe.write();
        return Window.endingNow(start, startMillis);
    }

    @Override
    public void close() {
        probe.close();
    }
}
