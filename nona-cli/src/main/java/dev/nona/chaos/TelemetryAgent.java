package dev.nona.chaos;

import dev.nona.topics.Topics;
import dev.nona.topics.client.ClientProperties;
import dev.nona.topics.client.RecordPublisher;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.serde.JsonSerde;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The servers of a chaos run: {@code s0 .. s<n-1>}, each reporting {@code up} once per period (as live servers
 * do), holding one of the models warm, with its own producer. Faults stop reports: {@link #stall} all of them (the
 * telemetry path), {@link #silence} one server's (the server), noted by report time in {@link ServerOutages}.
 * Thread safe.
 */
final class TelemetryAgent implements AutoCloseable {
    static final double OPS_PER_SECOND = 1.0e13;
    static final double LINK_BITS_PER_SECOND = 1.0e10;

    private final List<String> models;
    private final int servers;
    private final Duration period;
    private final ServerOutages outages;
    private final RecordPublisher producer;
    private final JsonSerde<ServerTelemetry> telemetry = JsonSerde.forTopic(Topics.CLUSTER_TELEMETRY);
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "nona-chaos-telemetry");
        t.setDaemon(true);
        return t;
    });
    private final long[] lastMade;
    private final Set<String> silenced = new HashSet<>();
    private boolean stalled;
    private long reports;

    TelemetryAgent(String bootstrap, List<String> models, int servers, Duration period, ServerOutages outages) {
        this.models = List.copyOf(models);
        this.servers = servers;
        this.period = period;
        this.outages = outages;
        this.lastMade = new long[servers];
        var p = ClientProperties.producer(bootstrap, 0);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "nona-chaos-telemetry");
        ChaosRun.rideOutOutages(p);
        this.producer = new RecordPublisher(p);
    }

    static String server(int k) {
        return "s" + k;
    }

    /** A first report per server, flushed; then one per server every period. */
    void start() {
        round();
        producer.flush();
        timer.scheduleAtFixedRate(this::round, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Stops (or resumes) every server's reports. */
    synchronized void stall(boolean on) {
        stalled = on;
    }

    /** {@code server} stops reporting; its silence starts at its last report. */
    synchronized void silence(String server) {
        if (silenced.add(server)) {
            outages.silent(server, lastMade[index(server)]);
        }
    }

    /** {@code server} reports again from the next period on. */
    synchronized void resume(String server) {
        silenced.remove(server);
    }

    synchronized long reports() {
        return reports;
    }

    private synchronized void round() {
        long now = System.currentTimeMillis();
        if (stalled) {
            return;
        }
        for (int k = 0; k < servers; k++) {
            String id = server(k);
            if (silenced.contains(id)) {
                continue;
            }
            ServerTelemetry t = ServerTelemetry.of(id, true, OPS_PER_SECOND, k % 4,
                    List.of(new CachedModel(models.get(k % models.size()), 1 << 30)), LINK_BITS_PER_SECOND, now);
            outages.reported(id, now);
            lastMade[k] = now;
            producer.send(Topics.CLUSTER_TELEMETRY.name(), telemetry.keyBytes(t), telemetry.serialize(t));
            reports++;
        }
    }

    private int index(String server) {
        int k = Integer.parseInt(server.substring(1));
        if (k < 0 || k >= servers) {
            throw new IllegalArgumentException("server (" + server + ") must be s0 .. s" + (servers - 1));
        }
        return k;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(10));
    }
}
