package dev.nona.controller.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.ControllerConfig;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.serde.JsonSerde;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.functions.util.ListCollector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

final class ControlDeserializerTest {
    private static final ControlLimits LIMITS = new ControlLimits(3, 2, Set.of("s-0", "s-1"));

    private final JsonSerde<ServerTelemetry> telemetry =
            new JsonSerde<>(ServerTelemetry.class, JsonSerde.DEFAULT_MAX_RECORD_BYTES);
    private final JsonSerde<ModelCatalogEntry> catalog =
            new JsonSerde<>(ModelCatalogEntry.class, JsonSerde.DEFAULT_MAX_RECORD_BYTES);

    @Test
    void telemetry_fromAKnownServer_isAnInput() {
        ControlRecord r = read(ControlDeserializer.Kind.TELEMETRY, "cluster-telemetry", "s-1",
                telemetry.serialize(ControlLimitsTest.status("s-1")));
        assertThat(r.rejected()).isNull();
        assertThat(r.input().server().serverId()).isEqualTo("s-1");
        assertThat(r.input().partitionOrNone()).as("the partition it was read from").isEqualTo(2);
        assertThat(r.time()).isEqualTo(1_700_000_000_000L);
    }

    @Test
    void telemetry_fromAnUnknownServer_isADeadLetterWithWhereItCameFrom() {
        byte[] value = telemetry.serialize(ControlLimitsTest.status("s-7"));
        ControlRecord r = read(ControlDeserializer.Kind.TELEMETRY, "cluster-telemetry", "s-7", value);
        DeadLetter d = r.rejected();
        assertThat(r.input()).isNull();
        assertThat(r.time()).isZero();
        assertThat(d.reason()).isEqualTo("field 'serverId' ('s-7') is not a known server (cluster.servers: s-0, s-1)");
        assertThat(d.sourceTopic()).isEqualTo("cluster-telemetry");
        assertThat(d.partition()).isEqualTo(2);
        assertThat(d.offset()).isEqualTo(41L);
        assertThat(d.raw()).isEqualTo(value);
    }

    @Test
    void catalog_withinTheLimits_isAnInput() {
        ControlRecord r = read(ControlDeserializer.Kind.CATALOG, "model-catalog", "m",
                catalog.serialize(ControlLimitsTest.chain("m", 3)));
        assertThat(r.rejected()).isNull();
        assertThat(r.input().catalog().model()).isEqualTo("m");
    }

    @Test
    void catalog_overTheTaskLimit_isADeadLetterNamingModelCountAndLimit() {
        byte[] value = catalog.serialize(ControlLimitsTest.chain("big", 4));
        ControlRecord r = read(ControlDeserializer.Kind.CATALOG, "model-catalog", "big", value);
        assertThat(r.input()).isNull();
        assertThat(r.rejected().reason()).isEqualTo("model 'big' has 4 tasks, over catalog.max-tasks (3)");
        assertThat(r.rejected().raw()).isEqualTo(value);
    }

    @Test
    void catalog_justOverTheDefaultTaskLimit_fitsTheSerdeSizeLimit_andIsRejectedByTheTaskLimit() {
        ControlLimits defaults = ControllerConfig.withBootstrap("b").controlLimits();
        byte[] value = catalog.serialize(ControlLimitsTest.chain("big", defaults.maxTasks() + 1));
        assertThat(value.length).isLessThan(JsonSerde.DEFAULT_MAX_RECORD_BYTES);
        List<ControlRecord> out = new ArrayList<>();
        new ControlDeserializer(ControlDeserializer.Kind.CATALOG, defaults).deserialize(
                new ConsumerRecord<>("model-catalog", 0, 0L, "big".getBytes(StandardCharsets.UTF_8), value),
                new ListCollector<>(out));
        assertThat(out.get(0).rejected().reason()).isEqualTo("model 'big' has 10001 tasks, over catalog.max-tasks (10000)");
    }

    @Test
    void catalog_30000TaskDag_isADeadLetterFromItsCounts_withTheTaskLimitsReason() {
        ControlLimits defaults = ControllerConfig.withBootstrap("b").controlLimits();
        byte[] value = catalog.serialize(ControlLimitsTest.chain("huge", 30_000));
        List<ControlRecord> out = new ArrayList<>();
        new ControlDeserializer(ControlDeserializer.Kind.CATALOG, defaults).deserialize(
                new ConsumerRecord<>("model-catalog", 0, 0L, "huge".getBytes(StandardCharsets.UTF_8), value),
                new ListCollector<>(out));
        assertThat(out.get(0).rejected().reason()).isEqualTo("model 'huge' has 30000 tasks, over catalog.max-tasks (10000)");
    }

    @Test
    void catalog_overTheTaskLimitButBroken_isRejectedByItsCountsFirst() {
        String broken = new String(catalog.serialize(ControlLimitsTest.chain("big", 4)), StandardCharsets.UTF_8)
                .replace("\"schemaVersion\":1", "\"schemaVersion\":7");
        ControlRecord r = read(ControlDeserializer.Kind.CATALOG, "model-catalog", "big",
                broken.getBytes(StandardCharsets.UTF_8));
        assertThat(r.rejected().reason()).isEqualTo("model 'big' has 4 tasks, over catalog.max-tasks (3)");
    }

    @Test
    void telemetry_withFreeMemoryAboveItsMemory_isADeadLetterNamingBoth() {
        String json = "{\"schemaVersion\":1,\"serverId\":\"s-1\",\"up\":true,\"opsPerSecond\":1.0,"
                + "\"ongoingRequests\":0,\"cachedModels\":[],\"eventTime\":1,\"memoryBytes\":8.0E10,"
                + "\"freeMemoryBytes\":9.0E10}";
        byte[] value = json.getBytes(StandardCharsets.UTF_8);
        ControlRecord r = read(ControlDeserializer.Kind.TELEMETRY, "cluster-telemetry", "s-1", value);
        assertThat(r.input()).isNull();
        assertThat(r.rejected().reason())
                .contains("field 'freeMemoryBytes' (9.0E10) must not be above field 'memoryBytes' (8.0E10)");
        assertThat(r.rejected().sourceTopic()).isEqualTo("cluster-telemetry");
        assertThat(r.rejected().raw()).isEqualTo(value);

        ControlRecord ok = read(ControlDeserializer.Kind.TELEMETRY, "cluster-telemetry", "s-1",
                json.replace("9.0E10", "2.0E10").getBytes(StandardCharsets.UTF_8));
        assertThat(ok.rejected()).isNull();
        assertThat(ok.input().server().freeMemoryBytes()).isEqualTo(2.0e10);
    }

    @Test
    void serdeErrors_winOverTheLimits() {
        String nan = "{\"schemaVersion\":1,\"serverId\":\"s-9\",\"up\":true,\"opsPerSecond\":-1.0,"
                + "\"ongoingRequests\":0,\"cachedModels\":[],\"eventTime\":1}";
        ControlRecord r = read(ControlDeserializer.Kind.TELEMETRY, "cluster-telemetry", "s-9",
                nan.getBytes(StandardCharsets.UTF_8));
        assertThat(r.rejected().reason()).contains("opsPerSecond").doesNotContain("known server");
    }

    private static ControlRecord read(ControlDeserializer.Kind kind, String topic, String key, byte[] value) {
        List<ControlRecord> out = new ArrayList<>();
        new ControlDeserializer(kind, LIMITS).deserialize(
                new ConsumerRecord<>(topic, 2, 41L, key.getBytes(StandardCharsets.UTF_8), value), new ListCollector<>(out));
        assertThat(out).hasSize(1);
        return out.get(0);
    }
}
