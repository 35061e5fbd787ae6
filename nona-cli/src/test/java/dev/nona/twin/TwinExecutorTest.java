package dev.nona.twin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.nona.topics.Topics;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.OutcomeStatus;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.workload.ColdStartCost;
import dev.nona.workload.ServerClass;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The twin's record handling with a fake clock: catalog, first decision wins, bad records counted, telemetry. */
final class TwinExecutorTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final JsonSerde<ModelCatalogEntry> CATALOG = JsonSerde.forTopic(Topics.MODEL_CATALOG);
    private static final JsonSerde<PlacementDecision> DECISIONS = JsonSerde.forTopic(Topics.PLACEMENT_DECISIONS);

    private final TwinExecutor twin = new TwinExecutor(new TwinOptions(2, 1e12, 1e9, 0, 0.5, 10, Map.of(), Map.of()), T0);

    private void catalog(String model, double ops) {
        ModelCatalogEntry e = ModelCatalogEntry.of(model, new CatalogDag(model, List.of(new CatalogTask("x", ops)), List.of()));
        twin.catalog(CATALOG.keyBytes(e), CATALOG.serialize(e));
    }

    private static byte[] decision(String id, String model, String server) {
        return DECISIONS.serialize(PlacementDecision.of(id, model, "t", 1, false,
                List.of(new StageAssignment("x", server)), 0.004, T0));
    }

    @Test
    void decision_duplicateRequestId_firstWinsAndTheLaterOneIsCounted() {
        catalog("m", 4e9);

        twin.decision(decision("r-1", "m", "s-0"), T0);
        twin.decision(decision("r-1", "m", "s-1"), T0 + 1);
        List<PlacementOutcome> out = twin.tick(T0 + 100).outcomes();

        assertThat(out).singleElement().satisfies(o -> {
            assertThat(o.parts().get(0).server()).isEqualTo("s-0");
            assertThat(o.observedJctSeconds()).isEqualTo(0.004);
        });
        assertThat(twin.summary().duplicateDecisions()).isEqualTo(1);
        assertThat(twin.summary().executed()).isEqualTo(1);
        assertThat(twin.summary().okOutcomes()).isEqualTo(1);
    }

    @Test
    void decision_badRecords_areCountedByKindAndTheTwinGoesOn() {
        catalog("m", 4e9);

        twin.decision("not json".getBytes(StandardCharsets.UTF_8), T0);
        twin.decision(decision("r-1", "nope", "s-0"), T0);
        twin.decision(decision("r-2", "m", "s-9"), T0);
        twin.decision(decision("r-3", "m", "s-9"), T0);
        twin.decision(decision("r-4", "m", "s-1"), T0);
        twin.tick(T0 + 100);

        assertThat(twin.summary().rejected()).isEqualTo(Map.of("unparseable decision", 1L, "unknown model", 1L,
                "unknown server", 2L));
        assertThat(twin.summary().okOutcomes()).isEqualTo(1);
    }

    @Test
    void catalog_tombstoneRemovesTheModel_andANewEntryReplacesItsDag() {
        catalog("m", 4e9);
        twin.catalog("m".getBytes(StandardCharsets.UTF_8), null);
        twin.decision(decision("r-1", "m", "s-0"), T0);
        catalog("m", 8e9);
        twin.decision(decision("r-2", "m", "s-0"), T0);

        List<PlacementOutcome> out = twin.tick(T0 + 100).outcomes();

        assertThat(twin.summary().rejected()).isEqualTo(Map.of("unknown model", 1L));
        assertThat(out).singleElement().satisfies(o -> assertThat(o.observedJctSeconds()).isEqualTo(0.008));
    }

    @Test
    void tick_publishesTelemetryOnceASecond() {
        List<ServerTelemetry> first = twin.tick(T0).telemetry();
        List<ServerTelemetry> soon = twin.tick(T0 + 999).telemetry();
        List<ServerTelemetry> second = twin.tick(T0 + 1_000).telemetry();

        assertThat(first).extracting(ServerTelemetry::serverId).containsExactly("s-0", "s-1");
        assertThat(first).extracting(ServerTelemetry::eventTime).containsOnly(T0);
        assertThat(soon).isEmpty();
        assertThat(second).hasSize(2);
        assertThat(twin.summary().telemetryPublished()).isEqualTo(4);
        assertThat(twin.nextDueMillis()).isEqualTo(T0 + 2_000);
    }

    @Test
    void serverClasses_entrysSizeBytesSpreadByOps_tooLargeIsAFailedOutcome_andTheSummaryCountsIt() {
        TwinExecutor classes = new TwinExecutor(TwinOptions.ofClasses(List.of(new ServerClass("big", 1, 1e12, 1e9),
                new ServerClass("small", 1, 1e12, 5e8)), new ColdStartCost(0, 1e9), 1e9, 10, Map.of(), Map.of()), T0);
        // 8e8 bytes over two tasks of 1e9 and 3e9 ops: 2e8 and 6e8 bytes
        ModelCatalogEntry e = ModelCatalogEntry.of("m", new CatalogDag("m",
                List.of(new CatalogTask("x", 1e9), new CatalogTask("y", 3e9)), List.of()), 8e8);
        classes.catalog(CATALOG.keyBytes(e), CATALOG.serialize(e));

        classes.decision(DECISIONS.serialize(PlacementDecision.of("r-1", "m", "t", 1, false,
                List.of(new StageAssignment("x", "s-1"), new StageAssignment("y", "s-0")), 0.004, T0)), T0);
        classes.decision(DECISIONS.serialize(PlacementDecision.of("r-2", "m", "t", 1, false,
                List.of(new StageAssignment("x", "s-0"), new StageAssignment("y", "s-1")), 0.004, T0)), T0);
        List<PlacementOutcome> out = classes.tick(T0 + 5_000).outcomes();

        assertThat(out).extracting(PlacementOutcome::requestId, PlacementOutcome::status).containsExactlyInAnyOrder(
                tuple("r-1", OutcomeStatus.OK),
                tuple("r-2", OutcomeStatus.FAILED));
        TwinExecutor.Summary summary = classes.summary();
        assertThat(summary.memoryViolations()).isEqualTo(1);
        assertThat(summary.failedOutcomes()).isEqualTo(1);
        assertThat(summary.okOutcomes()).isEqualTo(1);
        assertThat(summary.coldStarts()).isEqualTo(2); // r-1's two parts, each loaded once
        assertThat(summary.classes()).extracting(TwinCluster.ClassFigures::name, TwinCluster.ClassFigures::partsRun)
                .containsExactly(tuple("big", 1L),
                        tuple("small", 1L));
    }
}
