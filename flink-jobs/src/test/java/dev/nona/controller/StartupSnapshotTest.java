package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.catalog.DagDigest;
import dev.nona.controller.cluster.ClusterSnapshot;
import dev.nona.controller.command.ActiveCommands;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.sink.TableRecordSerializer;
import dev.nona.topics.record.ControllerCommand;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.serde.JsonSerde;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

final class StartupSnapshotTest {
    private static final Map<String, ModelCatalogEntry> CATALOG = catalog("fig1", "chain");
    private static final ActiveCommands DRAIN_S3 = ActiveCommands.NONE.with(ControllerCommand.drain("d", 1, "s3", true));
    private static final Set<String> UP = Set.of("s0");

    private static Map<String, ModelCatalogEntry> catalog(String... models) {
        Map<String, ModelCatalogEntry> m = new LinkedHashMap<>();
        for (String model : models) {
            m.put(model, TestingCluster.entry(model, TestingCluster.figure1()));
        }
        return m;
    }

    private static StartupSnapshot read() {
        return new StartupSnapshot(CATALOG, DRAIN_S3, Map.of(new TopicPartition("controller-commands", 0), 4L), null, "");
    }

    /** A solved table for {@code models}, each solved for figure 1's DAG, on s0. */
    static ControllerTable table(long version, String... models) {
        Map<String, Double> rates = new LinkedHashMap<>();
        Map<String, String> digests = new LinkedHashMap<>();
        for (String m : models) {
            rates.put(m, 10.0);
            digests.put(m, DagDigest.of(TestingCluster.figure1()));
        }
        return new ControllerTable(version, false, 1_000, "test", rates, new ClusterSnapshot(List.of("s0"), 1e12, 1e10),
                0.5, 0.1, Map.of("fig1", 0.01), "{}", Double.NaN, digests);
    }

    /** The table as the controller's tables sink writes it to placement-tables. */
    private static byte[] record(String controllerId, ControllerTable table) {
        PlacementTableRecord r = new TableRecordSerializer("placement-tables", controllerId).toRecord(table);
        return new JsonSerde<>(PlacementTableRecord.class, Integer.MAX_VALUE).serialize(r);
    }

    @Test
    void withTable_aFittingTable_isTaken_afterTheCatalogAndTheCommands() {
        ControllerTable t = table(7, "fig1", "chain");
        StartupSnapshot s = read().withTable(record("c1", t), "c1", UP);
        assertThat(s.table()).isEqualTo(t);
        assertThat(s.table().dagDigests()).as("read back from the record").containsOnlyKeys("fig1", "chain");
        assertThat(s.tableSkipped()).isEmpty();
        assertThat(s.commands()).isEqualTo(DRAIN_S3);
        assertThat(s.commandOffsets()).containsEntry(new TopicPartition("controller-commands", 0), 4L);
        assertThat(s.updates()).hasSize(4);
        assertThat(s.updates().get(0).catalog().model()).isEqualTo("fig1");
        assertThat(s.updates().get(2).commands()).isEqualTo(DRAIN_S3);
        assertThat(s.updates().get(3).table()).isEqualTo(t);
    }

    @Test
    void withTable_aMisfit_isSkippedWithTheReason_theCatalogAndCommandsKept() {
        StartupSnapshot s = read().withTable(record("c1", table(7, "fig1")), "c1", UP);
        assertThat(s.table()).isNull();
        assertThat(s.tableSkipped()).contains("version 7").contains("[fig1]").contains("[chain, fig1]");
        assertThat(s.newestTableVersion()).as("the fresh control loop numbers on from it").isEqualTo(7);
        assertThat(s.updates()).extracting(u -> u.catalog() != null ? u.catalog().model() : "commands")
                .containsExactly("fig1", "chain", "commands");
    }

    @Test
    void withTable_anUnreadableRecord_isSkippedWithTheReason() {
        StartupSnapshot s = read().withTable("{not json".getBytes(StandardCharsets.UTF_8), "c1", UP);
        assertThat(s.table()).isNull();
        assertThat(s.tableSkipped()).startsWith("the newest table record does not parse");
    }

    @Test
    void updates_noCommandsInForce_noCommandsUpdate() {
        StartupSnapshot s = new StartupSnapshot(CATALOG, ActiveCommands.NONE, Map.of(), null, "");
        assertThat(s.updates()).allMatch(u -> u.catalog() != null);
        assertThat(StartupSnapshot.empty("not read").updates()).isEmpty();
    }
}
