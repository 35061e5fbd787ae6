package dev.nona.bench;

import dev.nona.controller.catalog.CatalogDags;
import dev.nona.topics.Topics;
import dev.nona.topics.client.ClientProperties;
import dev.nona.topics.client.RecordPublisher;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.zoo.ModelZoo;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The latency benchmark's producer: the catalog, a report per server every second (as live servers send), and
 * requests at a fixed rate on an open-loop schedule: request {@code i} is due at {@code t0 + i / rate} whatever
 * happened to the ones before it; each is sent as soon as it is due and stamped with its due time, so a producer
 * that falls behind adds its lag to the measured latency. No batching delay ({@code linger.ms=0}), {@code acks=all}, idempotent,
 * one produce request in flight at a time: records that come due while one is in flight go in the next request, so
 * batches grow with the rate and nothing waits at low rates (the publisher shares the broker and the CPU with the
 * controller it measures, so it should not send more requests than it must). It wakes at most every
 * {@link #MIN_PARK_NANOS} and then sends every request that is due, each stamped with its own due time.
 */
final class LatencyPublisher implements AutoCloseable {
    private final List<String> models;
    private final int servers;
    private final RecordPublisher producer;
    private final JsonSerde<InferenceRequest> requests = JsonSerde.forTopic(Topics.INFERENCE_REQUESTS);
    private final JsonSerde<ServerTelemetry> telemetry = JsonSerde.forTopic(Topics.CLUSTER_TELEMETRY);
    private final JsonSerde<ModelCatalogEntry> catalog = JsonSerde.forTopic(Topics.MODEL_CATALOG);
    private final ScheduledExecutorService reports = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "nona-latency-telemetry");
        t.setDaemon(true);
        return t;
    });
    private int readyChecks;
    /** Servers that no longer report ({@link #silence}). */
    private final Set<String> silenced = ConcurrentHashMap.newKeySet();
    /** The time of the latest round of reports, epoch milliseconds. */
    private long lastReportMillis;
    /** Indexes of requests whose send failed, when counted ({@link #countSendFailures}); else null. */
    private volatile Set<Integer> failedSends;
    /**
     * The shortest sleep between sends: at 20,000 requests/s a wake-up per request (every 50 us, longer than that with
     * the kernel's timer slack) cost more CPU than the send; requests due meanwhile wait at most this long, and
     * that wait counts in their latency.
     */
    static final long MIN_PARK_NANOS = 200_000;

    LatencyPublisher(String bootstrap, List<String> models, int servers) {
        this(bootstrap, models, servers, Map.of());
    }

    /** @param producerSettings producer settings that replace the defaults (e.g. reconnect backoffs) */
    LatencyPublisher(String bootstrap, List<String> models, int servers, Map<String, String> producerSettings) {
        this.models = List.copyOf(models);
        this.servers = servers;
        Properties p = ClientProperties.producer(bootstrap, 0);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "nona-latency-publisher");
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        p.putAll(producerSettings);
        this.producer = new RecordPublisher(p);
    }

    /**
     * From now on a request whose send fails (the broker never accepted it) is counted ({@link #failedSends()}) rather
     * than failing the run; telemetry and the catalog still fail it.
     */
    void countSendFailures() {
        failedSends = ConcurrentHashMap.newKeySet();
    }

    /** The indexes of the requests whose send failed (empty unless {@link #countSendFailures} was called). */
    Set<Integer> failedSends() {
        Set<Integer> f = failedSends;
        return f == null ? Set.of() : Set.copyOf(f);
    }

    /**
     * Server {@code server} stops reporting (as a server that hangs without saying {@code up=false}); returns the
     * time of its last report, epoch milliseconds (0: it has made none).
     */
    synchronized long silence(String server) {
        silenced.add(server);
        return lastReportMillis;
    }

    /** The id of server {@code s} (0-based) as its reports name it. */
    static String serverId(int s) {
        return "s" + s;
    }

    /** The catalog and a first report per server, flushed; then a report per server every second. */
    void publishCatalogAndServers() {
        publishCatalog();
        publishReports();
        producer.flush();
        reports.scheduleAtFixedRate(this::publishReports, 1, 1, TimeUnit.SECONDS);
    }

    /** The catalog alone, flushed (when others, e.g. the executor twin, report the servers). */
    void publishCatalog() {
        for (String m : models) {
            ModelCatalogEntry e = ModelCatalogEntry.of(m, m.equals(PipelineBenchmark.FIGURE_1)
                    ? PipelineBenchmark.figure1() : CatalogDags.toCatalogDag(ModelZoo.load(m)));
            producer.send(Topics.MODEL_CATALOG.name(), catalog.keyBytes(e), catalog.serialize(e));
        }
        producer.flush();
    }

    /** One request per model (ids {@code ready-<model>-<k>}); the reader notes which models got a decision. */
    void publishReadyChecks() {
        for (String m : models) {
            InferenceRequest r = InferenceRequest.of(LatencyReader.READY + m + "-" + readyChecks++, m, "bench",
                    System.currentTimeMillis(), null);
            producer.send(Topics.INFERENCE_REQUESTS.name(), requests.keyBytes(r), requests.serialize(r));
        }
        producer.flush();
    }

    /**
     * Sends {@code count} requests (ids {@code prefix + i}) at {@code rate} per second on an open-loop schedule,
     * noting each one's due time in each of {@code recorders}, and in {@code acked} (if not null) also the time the
     * broker acknowledged it: the produce leg alone. Returns the largest lag behind the schedule, in milliseconds.
     */
    double publishAtRate(double rate, long count, String prefix, LatencyRecorder acked,
            LatencyRecorder... recorders) {
        return publishAtRate(rate, count, prefix, 0, acked, recorders);
    }

    /**
     * {@link #publishAtRate(double, long, String, LatencyRecorder, LatencyRecorder...)} with the index in each id
     * written with at least {@code digits} digits, zero-padded ({@link #requestId}).
     */
    double publishAtRate(double rate, long count, String prefix, int digits, LatencyRecorder acked,
            LatencyRecorder... recorders) {
        double periodNanos = 1e9 / rate;
        long t0 = System.nanoTime();
        long maxLag = 0;
        for (long i = 0; i < count; i++) {
            long due = t0 + Math.round(i * periodNanos);
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(Math.max(wait, MIN_PARK_NANOS));
            }
            maxLag = Math.max(maxLag, System.nanoTime() - due);
            for (LatencyRecorder recorder : recorders) {
                recorder.scheduled((int) i, due);
            }
            InferenceRequest r = InferenceRequest.of(requestId(prefix, i, digits),
                    models.get((int) (i % models.size())), "t" + (i & 15), System.currentTimeMillis(), 1024L);
            int index = (int) i;
            Set<Integer> failures = failedSends;
            if (acked != null) {
                acked.scheduled(index, due);
            }
            Runnable onAck = acked == null ? () -> { } : () -> acked.received(index, System.nanoTime());
            if (failures != null) {
                producer.send(Topics.INFERENCE_REQUESTS.name(), requests.keyBytes(r), requests.serialize(r), onAck,
                        e -> failures.add(index));
            } else if (acked == null) {
                producer.send(Topics.INFERENCE_REQUESTS.name(), requests.keyBytes(r), requests.serialize(r));
            } else {
                producer.send(Topics.INFERENCE_REQUESTS.name(), requests.keyBytes(r), requests.serialize(r), onAck);
            }
            if ((i & 1023) == 0) {
                producer.rethrowFailure();
            }
        }
        producer.flush();
        return Math.round(maxLag / 10_000.0) / 100.0;
    }

    /**
     * {@code prefix} and {@code i} with at least {@code digits} digits, zero-padded ({@code m-}, 42, 7:
     * {@code m-0000042}); 0 digits: {@code i} as it is.
     */
    static String requestId(String prefix, long i, int digits) {
        String n = Long.toString(i);
        return n.length() >= digits ? prefix + n : prefix + "0".repeat(digits - n.length()) + n;
    }

    /**
     * One round of reports: server {@code s} is up, warm for model {@code s mod models} and reports
     * {@code (servers - 1 - s) mod 4} ongoing requests, so the last server (the one a recovery run silences,
     * {@link RecoveryBenchmark#silentServer}) reports none: the warm-first rule sends a server its model's requests
     * only while its ongoing requests are below the target of 2 ({@code LiveServers}), and a silent server that was
     * never a first choice would prove nothing about liveness. (With {@code s mod 4} it reported 3 and got stages only
     * when the rule fell back to the least-loaded server: 961 and 11,244 stages in two runs, 0 in two others.)
     */
    private synchronized void publishReports() {
        long now = System.currentTimeMillis();
        lastReportMillis = now;
        for (int s = 0; s < servers; s++) {
            if (silenced.contains(serverId(s))) {
                continue;
            }
            ServerTelemetry t = ServerTelemetry.of(serverId(s), true, 1.0e13, (servers - 1 - s) % 4,
                    List.of(new CachedModel(models.get(s % models.size()), 1 << 30)), 1.0e10, now);
            producer.send(Topics.CLUSTER_TELEMETRY.name(), telemetry.keyBytes(t), telemetry.serialize(t));
        }
    }

    @Override
    public void close() {
        reports.shutdownNow();
        try {
            reports.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(10));
    }
}
