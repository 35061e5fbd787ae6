package dev.nona.topics.serde;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.topics.Topics;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.ModelCatalogEntry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class RecordLimitsTest {
    private static final String VALID_REQUEST =
            "{\"schemaVersion\":1,\"id\":\"r\",\"model\":\"m\",\"tenant\":\"t\",\"eventTime\":12}";

    private final JsonSerde<InferenceRequest> requests = JsonSerde.forTopic(Topics.INFERENCE_REQUESTS);
    private final JsonSerde<ModelCatalogEntry> catalog = JsonSerde.forTopic(Topics.MODEL_CATALOG);

    @Test
    void forTopic_takesTheTopicsSizeLimit() {
        assertThat(requests.maxRecordBytes()).isEqualTo(64 << 10);
        assertThat(JsonSerde.forTopic(Topics.CLUSTER_TELEMETRY).maxRecordBytes()).isEqualTo(64 << 10);
        assertThat(catalog.maxRecordBytes()).isEqualTo(4 << 20);
        assertThat(JsonSerde.forTopic(Topics.PLACEMENT_DECISIONS).maxRecordBytes())
                .isEqualTo(JsonSerde.DEFAULT_MAX_RECORD_BYTES);
    }

    @Test
    void deadLetterRawBytes_smallForTheHotPathTopics() {
        assertThat(RecordLimits.deadLetterRawBytes(Topics.INFERENCE_REQUESTS)).isEqualTo(4 << 10);
        assertThat(RecordLimits.deadLetterRawBytes(Topics.CLUSTER_TELEMETRY)).isEqualTo(4 << 10);
        assertThat(RecordLimits.deadLetterRawBytes(Topics.MODEL_CATALOG)).isEqualTo(256 << 10);
    }

    @Test
    void size_fiveMegabyteRequest_isRejectedBySizeNamingSizeAndLimit() {
        byte[] big = new byte[5 << 20];
        Arrays.fill(big, (byte) ' ');
        byte[] head = VALID_REQUEST.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(head, 0, big, 0, head.length);

        assertThat(requests.parse(big).reason()).isEqualTo("record size (5242880 bytes) exceeds the limit (65536 bytes)");
    }

    @Test
    void size_requestWithA300KilobyteField_isRejectedBySize() {
        String json = VALID_REQUEST.replace("\"model\":\"m\"", "\"model\":\"" + "x".repeat(300_000) + "\"");

        assertThat(requests.parse(json).reason()).isEqualTo("record size (300067 bytes) exceeds the limit (65536 bytes)");
    }

    @Test
    void depth_5000DeepJson_isRejectedAtTheDepthLimit() {
        String deep = "{\"schemaVersion\":1,\"x\":" + "{\"a\":".repeat(5_000) + "1" + "}".repeat(5_000) + "}";

        assertThat(requests.parse(deep).reason())
                .isEqualTo("record over a parse limit: Document nesting depth (65) exceeds the maximum allowed (64)");
    }

    @Test
    void depth_deepArraysInAField_isRejectedAtTheDepthLimit_beforeTheVersionIsLookedAt() {
        String deep = "{\"x\":" + "[".repeat(5_000);

        assertThat(requests.parse(deep).reason())
                .isEqualTo("record over a parse limit: Document nesting depth (65) exceeds the maximum allowed (64)");
    }

    @Test
    void numberLength_hundredDigitNumber_isRejectedAtTheNumberLimit() {
        String json = VALID_REQUEST.replace("\"eventTime\":12", "\"eventTime\":" + "9".repeat(100));

        assertThat(requests.parse(json).reason())
                .startsWith("record over a parse limit")
                .contains("Number value length (100) exceeds the maximum allowed (64)");
    }

    @Test
    void nameLength_longFieldName_isRejectedAtTheNameLimit() {
        String json = VALID_REQUEST.replace("\"tenant\"", "\"" + "n".repeat(1_000) + "\"");

        assertThat(requests.parse(json).reason())
                .startsWith("record over a parse limit")
                .contains("Name length")
                .endsWith("exceeds the maximum allowed (256)");
    }

    @Test
    void binary_gzipAndNulBytes_failFastNamingTheByte() {
        byte[] gzip = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0};
        byte[] utf16 = VALID_REQUEST.getBytes(StandardCharsets.UTF_16BE);

        assertThat(requests.parse(gzip).reason()).isEqualTo("record is not UTF-8 JSON text (byte at offset 0 is 31; binary input)");
        assertThat(requests.parse(utf16).reason()).isEqualTo("record is not UTF-8 JSON text (byte at offset 0 is 0; binary input)");
        assertThat(requests.parse(new byte[] {' ', '\n', (byte) 0xC3}).reason())
                .isEqualTo("record is not UTF-8 JSON text (byte at offset 2 is 195; binary input)");
    }

    @Test
    void binary_utf8ByteOrderMark_stillParses() {
        byte[] json = VALID_REQUEST.getBytes(StandardCharsets.UTF_8);
        byte[] withBom = new byte[json.length + 3];
        withBom[0] = (byte) 0xEF;
        withBom[1] = (byte) 0xBB;
        withBom[2] = (byte) 0xBF;
        System.arraycopy(json, 0, withBom, 3, json.length);

        assertThat(requests.parse(withBom).ok()).isTrue();
    }

    @Test
    void realisticRecords_parse() {
        ModelCatalogEntry zooSized = chain("big-cnn", 800);
        byte[] value = catalog.serialize(zooSized);

        assertThat(catalog.parse(value).value()).isEqualTo(zooSized);
        assertThat(requests.parse(VALID_REQUEST).ok()).isTrue();
    }

    @Test
    void dagCounts_30000TaskDag_countedWithoutParsing() {
        byte[] value = catalog.serialize(chain("huge", 30_000));

        assertThat(value.length).isLessThan(RecordLimits.CATALOG_RECORD_BYTES);
        assertThat(DagCounts.scan(value)).contains(new DagCounts("huge", 30_000, 29_999));
    }

    @Test
    void dagCounts_notACatalogShape_isEmptyOrZero() {
        assertThat(DagCounts.scan("[1]".getBytes(StandardCharsets.UTF_8))).isEmpty();
        assertThat(DagCounts.scan("{\"dag\":{\"tasks\":[1,2".getBytes(StandardCharsets.UTF_8))).isEmpty();
        assertThat(DagCounts.scan(new byte[] {0, 1, 2})).isEmpty();
        assertThat(DagCounts.scan("{\"schemaVersion\":1}".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(Optional.of(new DagCounts(null, 0, 0)));
    }

    private static ModelCatalogEntry chain(String model, int n) {
        List<CatalogTask> tasks = new ArrayList<>();
        List<CatalogEdge> edges = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            tasks.add(new CatalogTask("t" + i, 1.0e6));
            if (i > 0) {
                edges.add(new CatalogEdge("t" + (i - 1), "t" + i, 1.0e3));
            }
        }
        return ModelCatalogEntry.of(model, new CatalogDag(model, tasks, edges));
    }
}
