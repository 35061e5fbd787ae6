package dev.nona.twin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nona.topics.Topics;
import dev.nona.topics.admin.TopicProvisioner;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.OutcomeStatus;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.testing.InProcessKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The executor twin on a real in-process KRaft broker: a catalog and decisions in, one outcome per decided
 * request and telemetry from every live server out. Server s-3 is silenced from the start (its requests time out
 * after 2 s; it never reports); a duplicate decision and one naming an unknown server are counted, not executed.
 */
final class ExecutorTwinIT {
    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    private static final JsonSerde<ModelCatalogEntry> CATALOG = JsonSerde.forTopic(Topics.MODEL_CATALOG);
    private static final JsonSerde<PlacementDecision> DECISIONS = JsonSerde.forTopic(Topics.PLACEMENT_DECISIONS);
    private static final JsonSerde<PlacementOutcome> OUTCOMES = JsonSerde.forTopic(Topics.PLACEMENT_OUTCOMES);
    private static final JsonSerde<ServerTelemetry> TELEMETRY = JsonSerde.forTopic(Topics.CLUSTER_TELEMETRY);

    @Test
    void decisionsIn_oneOutcomePerRequestAndTelemetryOut() throws Exception {
        try (Admin admin = KAFKA.admin()) {
            new TopicProvisioner(admin, Duration.ofSeconds(30)).ensure(Topics.all(), Optional.empty(), Optional.of((short) 1));
        }
        TwinOptions options = new TwinOptions(4, 1e12, 1e9, 2, 0.05, 2, Map.of("s-1", 2.0), Map.of("s-3", 0.0));
        ExecutorTwin twin = new ExecutorTwin(KAFKA.bootstrapServers(), options, false, System::currentTimeMillis);
        CompletableFuture<TwinExecutor.Summary> run = CompletableFuture.supplyAsync(() -> twin.run(null));
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer()) {
            awaitTrue(() -> twin.summary() != null, "the twin started");
            ModelCatalogEntry entry = ModelCatalogEntry.of("pair", new CatalogDag("pair",
                    List.of(new CatalogTask("a", 2e9), new CatalogTask("b", 3e9)), List.of(new CatalogEdge("a", "b", 1e6))));
            producer.send(new ProducerRecord<>(Topics.MODEL_CATALOG.name(), CATALOG.keyBytes(entry), CATALOG.serialize(entry)));
            producer.flush();
            awaitTrue(() -> twin.summary().catalogEntries() == 1, "the twin read the catalog");

            Set<String> expected = new HashSet<>();
            for (int i = 0; i < 20; i++) {
                String id = "r-" + i;
                send(producer, decision(id, "s-" + (i % 3), "s-" + ((i + 1) % 3)));
                expected.add(id);
            }
            send(producer, decision("r-0", "s-2", "s-2")); // a later duplicate: ignored
            send(producer, decision("bad-server", "s-0", "server-9")); // rejected
            send(producer, decision("silent", "s-0", "s-3")); // times out: s-3 is silent
            expected.add("silent");
            producer.flush();

            Map<String, PlacementOutcome> outcomes = readOutcomes(expected.size());

            assertThat(outcomes.keySet()).isEqualTo(expected);
            assertThat(outcomes.get("silent").status()).isEqualTo(OutcomeStatus.TIMEOUT);
            assertThat(outcomes.get("silent").reason()).contains("s-3 (silent)");
            outcomes.remove("silent");
            assertThat(outcomes.values()).allSatisfy(o -> {
                assertThat(o.status()).isEqualTo(OutcomeStatus.OK);
                assertThat(o.parts()).hasSize(2);
                assertThat(o.linkBytes()).isEqualTo(1_000_000L);
                // at least a (2 ms) + transfer (8 ms) + b (3 ms), whatever the queues and cold starts add
                assertThat(o.observedJctSeconds()).isGreaterThanOrEqualTo(0.013 - 1e-9);
            });
            assertThat(outcomes.get("r-0").parts()).extracting(p -> p.server()).containsExactly("s-0", "s-1");
            Map<String, ServerTelemetry> lastStatus = readTelemetry();
            assertThat(lastStatus.keySet()).containsExactlyInAnyOrder("s-0", "s-1", "s-2");
            assertThat(lastStatus.values()).allSatisfy(t -> {
                assertThat(t.up()).isTrue();
                assertThat(t.opsPerSecond()).isEqualTo(1e12);
                assertThat(t.linkBitsPerSecond()).isEqualTo(1e9);
            });
            assertThat(lastStatus.get("s-0").cachedModels()).extracting(c -> c.model()).containsExactly("pair");
        } finally {
            twin.stop();
            TwinExecutor.Summary summary = run.get();
            twin.close();
            assertThat(summary.duplicateDecisions()).isEqualTo(1);
            assertThat(summary.rejected()).isEqualTo(Map.of("unknown server", 1L));
            assertThat(summary.okOutcomes()).isEqualTo(20);
            assertThat(summary.timeoutOutcomes()).isEqualTo(1);
        }
    }

    private static PlacementDecision decision(String id, String serverA, String serverB) {
        return PlacementDecision.of(id, "pair", "t", 1, false,
                List.of(new StageAssignment("a", serverA), new StageAssignment("b", serverB)), 0.013,
                System.currentTimeMillis());
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, PlacementDecision d) {
        producer.send(new ProducerRecord<>(Topics.PLACEMENT_DECISIONS.name(), DECISIONS.keyBytes(d), DECISIONS.serialize(d)));
    }

    /** Outcomes by request id, read until {@code n} distinct ones arrived (at most 30 s); a second one per id fails. */
    private static Map<String, PlacementOutcome> readOutcomes(int n) {
        Map<String, PlacementOutcome> out = new HashMap<>();
        List<String> doubled = new ArrayList<>();
        List<String> misKeyed = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = KAFKA.consumerFromStart(Topics.PLACEMENT_OUTCOMES.name(), true)) {
            await().atMost(Duration.ofSeconds(30)).pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ZERO)
                    .untilAsserted(() -> {
                        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                            PlacementOutcome o = OUTCOMES.parse(r.value()).value();
                            if (!new String(r.key(), StandardCharsets.UTF_8).equals(o.requestId())) {
                                misKeyed.add(o.requestId());
                            }
                            if (out.put(o.requestId(), o) != null) {
                                doubled.add(o.requestId());
                            }
                        }
                        assertThat(out).as("requests with an outcome").hasSizeGreaterThanOrEqualTo(n);
                    });
        }
        assertThat(misKeyed).as("outcomes not keyed by their request id").isEmpty();
        assertThat(doubled).as("requests with two outcomes").isEmpty();
        return out;
    }

    private static Map<String, ServerTelemetry> readTelemetry() {
        Map<String, ServerTelemetry> last = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : KAFKA.readFromStart(Topics.CLUSTER_TELEMETRY.name(), true)) {
            ServerTelemetry t = TELEMETRY.parse(r.value()).value();
            last.merge(t.serverId(), t, (a, b) -> a.eventTime() >= b.eventTime() ? a : b);
        }
        return last;
    }

    private static void awaitTrue(Callable<Boolean> condition, String what) {
        await().alias(what).atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                .until(condition);
    }
}
