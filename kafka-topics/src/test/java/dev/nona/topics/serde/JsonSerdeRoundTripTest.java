package dev.nona.topics.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.topics.TopicSpec;
import dev.nona.topics.Topics;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.OutcomePart;
import dev.nona.topics.record.OutcomeStatus;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.record.TopicRecord;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

final class JsonSerdeRoundTripTest {

    static final InferenceRequest REQUEST = InferenceRequest.of("r-1", "resnet50", "acme", 1_700_000_000_000L, 4096L);
    static final ServerTelemetry TELEMETRY = ServerTelemetry.of("s-1", true, 2.5e12, 3,
            List.of(new CachedModel("resnet50", 102_400_000L), new CachedModel("bert", 440_000_000L)), 1e10,
            1_700_000_000_500L, 0.75);
    static final ModelCatalogEntry CATALOG = ModelCatalogEntry.of("resnet50", new CatalogDag("resnet50",
            List.of(new CatalogTask("a", 1e9), new CatalogTask("b", 2e9), new CatalogTask("c", 5e8)),
            List.of(new CatalogEdge("a", "b", 1e6), new CatalogEdge("a", "c", 2e6), new CatalogEdge("b", "c", 0))));
    static final PlacementDecision DECISION = PlacementDecision.of("r-1", "resnet50", "acme", 7, false,
            List.of(new StageAssignment("a", "s-1"), new StageAssignment("b", "s-2")), 0.0123, 1_700_000_000_000L);
    static final PlacementOutcome OUTCOME = PlacementOutcome.ok("r-1", "resnet50", 7,
            List.of(new OutcomePart("s-1", 1_700_000_000_010L, 1_700_000_000_040L, true, List.of("a"), 0.004),
                    OutcomePart.of("s-2", 1_700_000_000_045L, 1_700_000_000_060L, false)),
            1_000_000L, 1_700_000_000_061L, 0.061);
    static final PlacementTableRecord TABLE = PlacementTableRecord.of("controller-1", 7, 1_700_000_001_000L,
            "{\"version\":7,\"rates\":{\"resnet50\":120.5},\"theta\":[{\"p\":0.25}]}");
    static final ControllerEvent EVENT = ControllerEvent.of(ControllerEventType.REOPTIMIZATION_FINISHED,
            1_700_000_002_000L, Map.of("objective", 1.75, "solveMillis", 412, "published", true, "model", "resnet50"));
    static final DeadLetter DEAD = DeadLetter.of("{not json".getBytes(StandardCharsets.UTF_8), "inference-requests",
            2, 41L, "malformed JSON", 1_700_000_003_000L);

    @Test
    void roundTrip_everyTopicValue_isEqualAfterWriteAndRead() {
        assertRoundTrip(Topics.INFERENCE_REQUESTS, REQUEST);
        assertRoundTrip(Topics.CLUSTER_TELEMETRY, TELEMETRY);
        assertRoundTrip(Topics.MODEL_CATALOG, CATALOG);
        assertRoundTrip(Topics.PLACEMENT_DECISIONS, DECISION);
        assertRoundTrip(Topics.PLACEMENT_OUTCOMES, OUTCOME);
        assertRoundTrip(Topics.PLACEMENT_OUTCOMES, PlacementOutcome.ended("r-2", "bert", 7, List.of(), 0,
                OutcomeStatus.TIMEOUT, 1_700_000_030_000L, 30.0, "deadline 30 s"));
        assertRoundTrip(Topics.PLACEMENT_TABLES, TABLE);
        assertRoundTrip(Topics.CONTROLLER_EVENTS, EVENT);
        assertRoundTrip(Topics.DEAD_LETTERS, DEAD);
    }

    @Test
    void roundTrip_optionalFieldsAbsent_areOmittedAndReadBackAsNull() {
        InferenceRequest bare = InferenceRequest.of("r-2", "bert", "acme", 5L, null);
        JsonSerde<InferenceRequest> serde = JsonSerde.forTopic(Topics.INFERENCE_REQUESTS);

        String json = new String(serde.serialize(bare), StandardCharsets.UTF_8);

        assertThat(json).isEqualTo("{\"schemaVersion\":1,\"id\":\"r-2\",\"model\":\"bert\",\"tenant\":\"acme\",\"eventTime\":5}");
        assertThat(serde.parse(json).value().payloadBytes()).isNull();
    }

    @Test
    void wireFormat_outcome_isTheDocumentedOne() {
        String json = new String(JsonSerde.forTopic(Topics.PLACEMENT_OUTCOMES).serialize(OUTCOME), StandardCharsets.UTF_8);

        assertThat(json).isEqualTo("{\"schemaVersion\":1,\"requestId\":\"r-1\",\"model\":\"resnet50\",\"tableVersion\":7,"
                + "\"parts\":[{\"server\":\"s-1\",\"startedAt\":1700000000010,\"finishedAt\":1700000000040,\"cold\":true,"
                + "\"tasks\":[\"a\"],\"computeSeconds\":0.004},{\"server\":\"s-2\",\"startedAt\":1700000000045,"
                + "\"finishedAt\":1700000000060,\"cold\":false}],\"linkBytes\":1000000,\"status\":\"ok\","
                + "\"completedAt\":1700000000061,\"observedJctSeconds\":0.061}");
    }

    @Test
    void wireFormat_placementTable_isNestedObjectNotString() {
        String json = new String(JsonSerde.forTopic(Topics.PLACEMENT_TABLES).serialize(TABLE), StandardCharsets.UTF_8);

        assertThat(json).contains("\"table\":{\"version\":7,");
        assertThat(TABLE.tableTree().get("rates").get("resnet50").asDouble()).isEqualTo(120.5);
    }

    @Test
    void wireFormat_catalogDag_isPolicyModelDagFormat() {
        String json = new String(JsonSerde.forTopic(Topics.MODEL_CATALOG).serialize(CATALOG), StandardCharsets.UTF_8);

        assertThat(json).startsWith("{\"schemaVersion\":1,\"model\":\"resnet50\",\"dag\":{\"name\":\"resnet50\","
                + "\"tasks\":[{\"id\":\"a\",\"ops\":1.0E9}");
        assertThat(json).contains("\"edges\":[{\"from\":\"a\",\"to\":\"b\",\"bytes\":1000000.0}");
    }

    @Test
    void wireFormat_heterogeneousFields_areAdditiveAndOmittedWhenAbsent() {
        JsonSerde<ServerTelemetry> telemetry = JsonSerde.forTopic(Topics.CLUSTER_TELEMETRY);
        JsonSerde<ModelCatalogEntry> catalog = JsonSerde.forTopic(Topics.MODEL_CATALOG);
        ServerTelemetry withClass = TELEMETRY.withClass("a100", 8.0e10);
        ModelCatalogEntry sized = ModelCatalogEntry.of("m", new CatalogDag("m",
                List.of(new CatalogTask("a", 1e9, 3.0e9), new CatalogTask("b", 2e9, 5.0e9)),
                List.of(new CatalogEdge("a", "b", 1e6))), 8.0e9);

        String plain = new String(telemetry.serialize(TELEMETRY), StandardCharsets.UTF_8);
        String classed = new String(telemetry.serialize(withClass), StandardCharsets.UTF_8);
        String catalogJson = new String(catalog.serialize(sized), StandardCharsets.UTF_8);

        assertThat(plain).doesNotContain("serverClass").doesNotContain("memoryBytes");
        assertThat(classed).isEqualTo(plain.substring(0, plain.length() - 1)
                + ",\"serverClass\":\"a100\",\"memoryBytes\":8.0E10}");
        assertThat(telemetry.parse(classed).value()).isEqualTo(withClass);
        assertThat(new String(catalog.serialize(CATALOG), StandardCharsets.UTF_8)).doesNotContain("sizeBytes");
        assertThat(catalogJson).contains("{\"id\":\"a\",\"ops\":1.0E9,\"sizeBytes\":3.0E9}")
                .endsWith("]},\"sizeBytes\":8.0E9}");
        assertThat(catalog.parse(catalogJson).value()).isEqualTo(sized);
    }

    @Test
    void wireFormat_freeMemory_isAdditiveLastAndRoundTrips() {
        JsonSerde<ServerTelemetry> telemetry = JsonSerde.forTopic(Topics.CLUSTER_TELEMETRY);
        ServerTelemetry classed = TELEMETRY.withClass("a100", 8.0e10);
        ServerTelemetry free = classed.withFreeMemoryBytes(3.0e10);
        ServerTelemetry freeOnly = TELEMETRY.withFreeMemoryBytes(0.0);

        String classedJson = new String(telemetry.serialize(classed), StandardCharsets.UTF_8);
        String freeJson = new String(telemetry.serialize(free), StandardCharsets.UTF_8);

        assertThat(classedJson).doesNotContain("freeMemoryBytes");
        assertThat(freeJson).isEqualTo(classedJson.substring(0, classedJson.length() - 1) + ",\"freeMemoryBytes\":3.0E10}");
        assertThat(telemetry.parse(freeJson).value()).isEqualTo(free);
        assertThat(telemetry.parse(telemetry.serialize(freeOnly)).value()).isEqualTo(freeOnly);
        assertThat(telemetry.parse(freeJson).value().freeMemoryBytes()).isEqualTo(3.0e10);
        assertThat(telemetry.parse(classedJson).value().freeMemoryBytes()).isNull();
    }

    @Test
    void keyBytes_followDesignTable() {
        assertThat(new String(JsonSerde.forTopic(Topics.INFERENCE_REQUESTS).keyBytes(REQUEST), StandardCharsets.UTF_8))
                .isEqualTo("r-1");
        assertThat(new String(JsonSerde.forTopic(Topics.CLUSTER_TELEMETRY).keyBytes(TELEMETRY), StandardCharsets.UTF_8))
                .isEqualTo("s-1");
        assertThat(new String(JsonSerde.forTopic(Topics.MODEL_CATALOG).keyBytes(CATALOG), StandardCharsets.UTF_8))
                .isEqualTo("resnet50");
        assertThat(new String(JsonSerde.forTopic(Topics.PLACEMENT_TABLES).keyBytes(TABLE), StandardCharsets.UTF_8))
                .isEqualTo("controller-1");
        assertThat(JsonSerde.forTopic(Topics.CONTROLLER_EVENTS).keyBytes(EVENT)).isNull();
        assertThat(JsonSerde.forTopic(Topics.DEAD_LETTERS).keyBytes(DEAD)).isNull();
    }

    @Test
    void javaSerialization_serdeTravelsLikeAFlinkFunctionField_andStillParses() throws Exception {
        JsonSerde<InferenceRequest> serde = JsonSerde.forTopic(Topics.INFERENCE_REQUESTS, 4096);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(serde);
        }
        @SuppressWarnings("unchecked")
        JsonSerde<InferenceRequest> copy = (JsonSerde<InferenceRequest>)
                new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray())).readObject();

        assertThat(copy.maxRecordBytes()).isEqualTo(4096);
        assertThat(copy.parse(serde.serialize(REQUEST)).value()).isEqualTo(REQUEST);
    }

    @Test
    void kafkaAdapters_roundTripAndRejectWithReason() {
        JsonSerde<InferenceRequest> serde = JsonSerde.forTopic(Topics.INFERENCE_REQUESTS);
        byte[] bytes = serde.kafkaSerializer().serialize("inference-requests", REQUEST);

        assertThat(serde.kafkaDeserializer().deserialize("inference-requests", bytes)).isEqualTo(REQUEST);
        assertThat(serde.kafkaSerializer().serialize("inference-requests", null)).isNull();
        assertThatThrownBy(() -> serde.kafkaDeserializer()
                        .deserialize("inference-requests", "{}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SerializationException.class)
                .hasMessage("topic 'inference-requests': field 'schemaVersion' is missing");
    }

    private static <T extends TopicRecord> void assertRoundTrip(TopicSpec<T> topic, T value) {
        JsonSerde<T> serde = JsonSerde.forTopic(topic);
        Parsed<T> parsed = serde.parse(serde.serialize(value));
        assertThat(parsed.ok()).as("%s: %s", topic.name(), parsed).isTrue();
        assertThat(parsed.value()).as(topic.name()).isEqualTo(value);
    }
}
