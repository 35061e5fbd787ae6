package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.record.SchemaVersions;
import dev.nona.topics.serde.JsonSerde;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

final class KafkaTableVersionsTest {
    @Test
    void version_isTheTopLevelField_notOneInsideTheTable() {
        byte[] record = new JsonSerde<>(PlacementTableRecord.class, 1 << 20).serialize(new PlacementTableRecord(
                SchemaVersions.CURRENT, "nona-1", 42, 1_000, "{\"version\":7,\"stages\":[{\"version\":9}]}"));
        assertThat(KafkaTableVersions.version(record)).isEqualTo(42);
        assertThat(KafkaTableVersions.version(
                "{\"table\":{\"version\":9},\"version\":3}".getBytes(StandardCharsets.UTF_8))).isEqualTo(3);
    }

    @Test
    void version_ofSomethingElse_isZero_soItDoesNotMoveTheFloor() {
        assertThat(KafkaTableVersions.version("not json".getBytes(StandardCharsets.UTF_8))).isZero();
        assertThat(KafkaTableVersions.version("[1,2]".getBytes(StandardCharsets.UTF_8))).isZero();
        assertThat(KafkaTableVersions.version("{\"version\":\"7\"}".getBytes(StandardCharsets.UTF_8))).isZero();
        assertThat(KafkaTableVersions.version("{\"version\":-4}".getBytes(StandardCharsets.UTF_8))).isZero();
    }
}
