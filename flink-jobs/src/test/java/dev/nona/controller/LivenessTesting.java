package dev.nona.controller;

import static org.awaitility.Awaitility.await;

import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.record.TopicRecord;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.testing.InProcessKafka;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * What the liveness ITs share on a real broker: requests for {@link TestingCluster#figure1()} ("fig1"), servers'
 * reports made at a given time, and waits on the job's decisions.
 */
final class LivenessTesting {
    private final InProcessKafka kafka;
    private final JsonSerde<InferenceRequest> requests = new JsonSerde<>(InferenceRequest.class, 1 << 20);
    private final JsonSerde<ServerTelemetry> telemetry = new JsonSerde<>(ServerTelemetry.class, 1 << 20);
    private final JsonSerde<PlacementDecision> decisions = new JsonSerde<>(PlacementDecision.class, 1 << 20);

    LivenessTesting(InProcessKafka kafka) {
        this.kafka = Objects.requireNonNull(kafka, "broker");
    }

    /** Sends {@code n} requests for fig1, named {@code prefix + i} ({@code prefix} alone when {@code n} is 1). */
    void send(KafkaProducer<byte[], byte[]> producer, ControllerConfig.Topics t, String prefix, int n) {
        for (int i = 1; i <= n; i++) {
            String id = n == 1 ? prefix : prefix + i;
            InferenceRequest r = InferenceRequest.of(id, "fig1", "tenant", System.currentTimeMillis(), null);
            producer.send(new ProducerRecord<>(t.requests(), id.getBytes(), requests.serialize(r)));
        }
        producer.flush();
    }

    /** A report of server {@code id}, holding fig1 warm, made at {@code madeAt}: its {@code eventTime} and record timestamp. */
    void report(KafkaProducer<byte[], byte[]> producer, ControllerConfig.Topics t, String id, boolean up, long madeAt) {
        ServerTelemetry s = ServerTelemetry.of(id, up, TestingCluster.OPS_PER_SECOND, 0,
                List.of(new CachedModel("fig1", 1000)), 1.0e10, madeAt, 0.0);
        producer.send(new ProducerRecord<>(t.telemetry(), null, madeAt, id.getBytes(), telemetry.serialize(s)));
    }

    /** The decisions of the requests whose ids start with {@code prefix}, once there are {@code expected} of them. */
    List<PlacementDecision> awaitDecisions(String topic, String prefix, int expected, Duration timeout) {
        return await().atMost(timeout).pollInterval(Duration.ofMillis(500))
                .until(() -> readAll(topic, decisions).stream().filter(d -> d.requestId().startsWith(prefix)).toList(),
                        out -> out.stream().map(PlacementDecision::requestId).distinct().count() >= expected);
    }

    /** Every record of {@code topic}, from its start. */
    <T extends TopicRecord> List<T> readAll(String topic, JsonSerde<T> serde) {
        return kafka.readFromStart(topic, false).stream().map(r -> serde.parse(r.value()).value()).toList();
    }

    /** Whether the decision put a stage on {@code server}. */
    static boolean uses(PlacementDecision d, String server) {
        return d.stages().stream().map(StageAssignment::server).anyMatch(server::equals);
    }
}
