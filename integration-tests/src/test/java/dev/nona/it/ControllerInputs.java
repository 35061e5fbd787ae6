package dev.nona.it;

import dev.nona.topics.Topics;
import dev.nona.topics.client.ClientProperties;
import dev.nona.topics.client.RecordPublisher;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.serde.JsonSerde;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;

/** Publishes the controller's inputs (catalog, telemetry, requests, raw bad records) to a {@link ControllerTopics}. */
final class ControllerInputs implements AutoCloseable {

    static final double OPS_PER_SECOND = 1.0e12;
    private final ControllerTopics topics;
    private final RecordPublisher producer;
    private final JsonSerde<InferenceRequest> requests = JsonSerde.forTopic(Topics.INFERENCE_REQUESTS);
    private final JsonSerde<ServerTelemetry> telemetry = JsonSerde.forTopic(Topics.CLUSTER_TELEMETRY);
    private final JsonSerde<ModelCatalogEntry> catalog = JsonSerde.forTopic(Topics.MODEL_CATALOG);

    ControllerInputs(String bootstrap, ControllerTopics topics) {
        this.topics = topics;
        Properties p = ClientProperties.producer(bootstrap, 10);
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(4 << 20));
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "180000");
        this.producer = new RecordPublisher(p);
    }

    /** A small fork-join model (Nona's Fig. 1 shape): t1 -> {t2, t3} -> t4. */
    static CatalogDag forkJoin(String name, double edgeBytes) {
        return new CatalogDag(name,
                List.of(new CatalogTask("t1", 1e9), new CatalogTask("t2", 1e10), new CatalogTask("t3", 1e10),
                        new CatalogTask("t4", 1e9)),
                List.of(new CatalogEdge("t1", "t2", edgeBytes), new CatalogEdge("t2", "t4", edgeBytes),
                        new CatalogEdge("t1", "t3", edgeBytes / 10), new CatalogEdge("t3", "t4", edgeBytes / 10)));
    }

    void catalog(String model, CatalogDag dag) {
        ModelCatalogEntry e = ModelCatalogEntry.of(model, dag);
        sendSync(topics.catalog(), catalog.keyBytes(e), catalog.serialize(e));
    }

    /** {@code servers} servers, all up, each warm for every model in {@code warm}. */
    void servers(int servers, double linkBitsPerSecond, List<String> warm) {
        for (int i = 0; i < servers; i++) {
            ServerTelemetry s = ServerTelemetry.of("server-" + i, true, OPS_PER_SECOND, 0,
                    warm.stream().map(m -> new CachedModel(m, 1000)).toList(), linkBitsPerSecond,
                    System.currentTimeMillis());
            sendSync(topics.telemetry(), telemetry.keyBytes(s), telemetry.serialize(s));
        }
    }

    void request(String id, String model, long eventTime) {
        InferenceRequest r = InferenceRequest.of(id, model, "it", eventTime, null);
        producer.send(topics.requests(), requests.keyBytes(r), requests.serialize(r));
    }

    void raw(String topic, String key, byte[] value) {
        sendSync(topic, key == null ? null : key.getBytes(StandardCharsets.UTF_8), value);
    }

    void raw(String topic, String key, String value) {
        raw(topic, key, value.getBytes(StandardCharsets.UTF_8));
    }

    /** Waits until every record sent is acknowledged; throws if any send failed. */
    void flush() {
        producer.flush();
    }

    private void sendSync(String topic, byte[] key, byte[] value) {
        producer.send(topic, key, value);
        producer.flush();
    }

    @Override
    public void close() {
        producer.close();
    }
}
