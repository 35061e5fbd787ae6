package dev.nona.demo;

import dev.nona.topics.Topics;
import dev.nona.topics.client.ClientProperties;
import dev.nona.topics.client.RecordPublisher;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.serde.JsonSerde;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Publishes the demo's inputs: the models to {@code model-catalog} (the zoo's, or a workload file's), Poisson requests to {@code
 * inference-requests} at the scenario's rates (ids {@code r-0, r-1, ...}), and malformed records spread over the
 * run (ids {@code bad-k}). Idempotent producer with {@code acks=all}: nothing published is lost or doubled. The
 * servers' telemetry is not scripted: the executor twin publishes it from its execution of the decisions.
 */
final class DemoPublisher implements AutoCloseable {

    /** The malformed records, one per kind; the demo cycles through them. */
    static final List<String> MALFORMED_KINDS = List.of("truncated JSON", "unknown model", "unknown schema version",
            "negative payload size", "missing field", "not JSON");

    /** Warm-up requests (not counted): ids {@code warmup-<model>-<k>}. */
    static final String WARMUP_PREFIX = "warmup-";
    private static final Duration TICK = Duration.ofMillis(20);
    private int warmups;

    private final DemoScenario scenario;
    private final Map<String, ModelCatalogEntry> entries;
    private final DemoCounters counters;
    private final RecordPublisher producer;
    private final JsonSerde<InferenceRequest> requests = JsonSerde.forTopic(Topics.INFERENCE_REQUESTS);
    private final JsonSerde<ModelCatalogEntry> catalog = JsonSerde.forTopic(Topics.MODEL_CATALOG);
    private final SplittableRandom random;

    /** @param entries per model of the scenario, its {@code model-catalog} entry */
    DemoPublisher(String bootstrap, DemoScenario scenario, Map<String, ModelCatalogEntry> entries, DemoCounters counters) {
        this.scenario = scenario;
        this.entries = Map.copyOf(entries);
        this.counters = counters;
        this.random = new SplittableRandom(scenario.seed());
        Properties p = ClientProperties.producer(bootstrap, 5);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "nona-demo-publisher");
        this.producer = new RecordPublisher(p);
    }

    DemoCounters counters() {
        return counters;
    }

    /** The catalog, flushed: the controller (and the executor twin) need it before requests are placed. */
    void publishCatalog() {
        for (String model : scenario.models()) {
            ModelCatalogEntry e = entries.get(model);
            producer.send(Topics.MODEL_CATALOG.name(), catalog.keyBytes(e), catalog.serialize(e));
        }
        producer.flush();
    }

    /**
     * One warm-up request for each of {@code models}. The controller's placement operator learns the catalog
     * and the servers on its broadcast input, which may lag behind the control loop's events; a decided
     * warm-up request shows that it has both. Warm-ups are excluded from every count of the summary.
     */
    void publishWarmups(Collection<String> models) {
        for (String model : models) {
            InferenceRequest r = InferenceRequest.of(WARMUP_PREFIX + model + "-" + warmups++, model, "warmup",
                    System.currentTimeMillis(), null);
            producer.send(Topics.INFERENCE_REQUESTS.name(), requests.keyBytes(r), requests.serialize(r));
        }
        producer.flush();
    }

    int warmups() {
        return warmups;
    }

    /** Publishes requests for the scenario's duration; returns when done (everything flushed). */
    void publishRequests() throws InterruptedException {
        long t0 = System.nanoTime();
        long duration = scenario.duration().toNanos();
        int malformedSent = 0;
        long seq = 0;
        long last = t0;
        while (true) {
            long now = System.nanoTime();
            long elapsed = now - t0;
            if (elapsed >= duration) {
                break;
            }
            double dtSeconds = (now - last) / 1e9; // the real tick: sleeping overshoots under load
            last = now;
            for (String model : scenario.models()) {
                double lambda = scenario.rate(model, Duration.ofNanos(elapsed)) * dtSeconds;
                for (int k = poisson(lambda); k > 0; k--) {
                    InferenceRequest r = InferenceRequest.of("r-" + seq++, model, "tenant-" + (seq % 3),
                            System.currentTimeMillis(), 150_528L * 4);
                    producer.send(Topics.INFERENCE_REQUESTS.name(), requests.keyBytes(r), requests.serialize(r));
                    counters.request(model);
                }
            }
            if (malformedSent < scenario.malformed() && elapsed >= duration * (malformedSent + 1) / (scenario.malformed() + 1)) {
                sendMalformed(malformedSent++);
            }
            producer.rethrowFailure();
            long sleep = TICK.toNanos() - (System.nanoTime() - now);
            if (sleep > 0) {
                Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
            }
        }
        while (malformedSent < scenario.malformed()) {
            sendMalformed(malformedSent++);
        }
        producer.flush();
    }

    /** Malformed record number {@code k} (kinds in {@link #MALFORMED_KINDS} order, cycling). */
    static String malformed(int k, long eventTime) {
        String id = "bad-" + k;
        return switch (k % MALFORMED_KINDS.size()) {
            case 0 -> "{\"schemaVersion\":1,\"id\":\"" + id + "\",\"model\":\"resnet18\",\"tena";
            case 1 -> "{\"schemaVersion\":1,\"id\":\"" + id + "\",\"model\":\"no-such-model\",\"tenant\":\"t\",\"eventTime\":"
                    + eventTime + "}";
            case 2 -> "{\"schemaVersion\":99,\"id\":\"" + id + "\",\"model\":\"resnet18\",\"tenant\":\"t\",\"eventTime\":"
                    + eventTime + "}";
            case 3 -> "{\"schemaVersion\":1,\"id\":\"" + id + "\",\"model\":\"resnet18\",\"tenant\":\"t\",\"eventTime\":"
                    + eventTime + ",\"payloadBytes\":-5}";
            case 4 -> "{\"schemaVersion\":1,\"id\":\"" + id + "\",\"model\":\"resnet18\",\"eventTime\":" + eventTime + "}";
            default -> "this is not JSON";
        };
    }

    private void sendMalformed(int k) {
        String value = malformed(k, System.currentTimeMillis());
        producer.send(Topics.INFERENCE_REQUESTS.name(), ("bad-" + k).getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8));
        counters.malformed.incrementAndGet();
    }

    /** Knuth's method; fine for the small means of one tick. */
    private int poisson(double lambda) {
        double limit = Math.exp(-lambda);
        double p = random.nextDouble();
        int k = 0;
        while (p > limit) {
            p *= random.nextDouble();
            k++;
        }
        return k;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
