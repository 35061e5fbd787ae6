package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.cluster.ClusterSnapshot;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.sink.TableRecordSerializer;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.serde.JsonSerde;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class StartupSnapshotTest {
    private static final Map<String, ModelCatalogEntry> CATALOG = catalog("fig1", "chain");

    private static Map<String, ModelCatalogEntry> catalog(String... models) {
        Map<String, ModelCatalogEntry> m = new LinkedHashMap<>();
        for (String model : models) {
            m.put(model, TestingCluster.entry(model, TestingCluster.figure1()));
        }
        return m;
    }

    private static ControllerTable table(long version, boolean fallback, String... models) {
        Map<String, Double> rates = new LinkedHashMap<>();
        for (String m : models) {
            rates.put(m, 10.0);
        }
        return new ControllerTable(version, fallback, 1_000, "test", rates, new ClusterSnapshot(List.of("s0"), 1e12, 1e10),
                fallback ? Double.NaN : 0.5, fallback ? Double.NaN : 0.1, Map.of("fig1", 0.01), fallback ? null : "{}");
    }

    /** The table as the controller's tables sink writes it to placement-tables. */
    private static byte[] record(String controllerId, ControllerTable table) {
        PlacementTableRecord r = new TableRecordSerializer("placement-tables", controllerId).toRecord(table);
        return new JsonSerde<>(PlacementTableRecord.class, Integer.MAX_VALUE).serialize(r);
    }

    @Test
    void withTable_theNewestSolvedTableOfThisController_forTheCatalogsModels_isTaken() {
        ControllerTable t = table(7, false, "fig1", "chain");
        StartupSnapshot s = StartupSnapshot.withTable(CATALOG, record("c1", t), "c1");
        assertThat(s.table()).isEqualTo(t);
        assertThat(s.tableSkipped()).isEmpty();
        assertThat(s.updates()).hasSize(3);
        assertThat(s.updates().get(0).catalog().model()).isEqualTo("fig1");
        assertThat(s.updates().get(2).table()).isEqualTo(t);
    }

    @Test
    void withTable_aTableForOtherModels_isSkippedWithTheReason() {
        StartupSnapshot s = StartupSnapshot.withTable(CATALOG, record("c1", table(7, false, "fig1")), "c1");
        assertThat(s.table()).isNull();
        assertThat(s.tableSkipped()).contains("version 7").contains("[fig1]").contains("[chain, fig1]");
        assertThat(s.updates()).extracting(u -> u.catalog().model()).containsExactly("fig1", "chain");
    }

    @Test
    void misfit_aFallbackTable_orAnotherControllers_isNotTaken() {
        assertThat(StartupSnapshot.misfit(table(3, true, "fig1", "chain"), CATALOG.keySet(), "c1", "c1"))
                .contains("fallback");
        assertThat(StartupSnapshot.misfit(table(3, false, "fig1", "chain"), CATALOG.keySet(), "c1", "c2"))
                .contains("'c2'").contains("'c1'");
        assertThat(StartupSnapshot.misfit(table(3, false, "fig1", "chain"), CATALOG.keySet(), "c1", "c1")).isNull();
    }

    @Test
    void withTable_anUnreadableRecord_isSkippedWithTheReason() {
        StartupSnapshot s = StartupSnapshot.withTable(CATALOG, "{not json".getBytes(StandardCharsets.UTF_8), "c1");
        assertThat(s.table()).isNull();
        assertThat(s.tableSkipped()).startsWith("the newest table record does not parse");
    }
}
