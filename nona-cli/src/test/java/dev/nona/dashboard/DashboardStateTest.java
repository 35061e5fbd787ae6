package dev.nona.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.groups.Tuple.tuple;

import dev.nona.controller.cluster.ClusterSnapshot;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.sink.TableRecordSerializer;
import dev.nona.dashboard.DashboardSnapshot.ModelView;
import dev.nona.dashboard.DashboardSnapshot.ServerView;
import dev.nona.dashboard.DashboardSnapshot.TableView;
import dev.nona.optimize.CostModel;
import dev.nona.placement.PlacementTable;
import dev.nona.topics.Topics;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.ControllerCommand;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.OutcomePart;
import dev.nona.topics.record.OutcomeStatus;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class DashboardStateTest {
    private static final long T0 = 1_800_000_000_000L;

    private final DashboardState state = new DashboardState("localhost:9092", Duration.ofSeconds(3));

    @Test
    void broker_connectionAndSince_moveOnlyWhenItChanges_andTheLastRecordWhenOneCame() {
        assertThat(state.snapshot(T0).broker()).isEqualTo(DashboardSnapshot.Broker.UNKNOWN);
        state.connection(true, true, T0 + 1_000);
        state.connection(true, false, T0 + 2_000);
        assertThat(state.snapshot(T0 + 2_000).broker()).isEqualTo(new DashboardSnapshot.Broker(true, T0 + 1_000, T0 + 1_000));
        state.connection(false, false, T0 + 3_000);
        state.connection(false, false, T0 + 9_000);
        assertThat(state.snapshot(T0 + 9_000).broker()).isEqualTo(new DashboardSnapshot.Broker(false, T0 + 3_000, T0 + 1_000));
        state.connection(true, true, T0 + 10_000);
        assertThat(state.snapshot(T0 + 10_000).broker()).isEqualTo(new DashboardSnapshot.Broker(true, T0 + 10_000, T0 + 10_000));
    }

    @Test
    void decisions_countPerModel_andRatesPerSecondOfEventTime() {
        for (int s = 0; s < 7; s++) {
            for (int k = 0; k < 4; k++) {
                state.decision(decision("a-" + s + "-" + k, "alexnet", T0 + s * 1000L + k, 0.012));
            }
            state.decision(decision("r-" + s, "resnet18", T0 + s * 1000L, 0.020));
        }

        DashboardSnapshot s = state.snapshot(T0 + 7_000);

        assertThat(s.models()).extracting(ModelView::name).containsExactly("alexnet", "resnet18");
        ModelView alexnet = s.models().get(0);
        assertThat(alexnet.decisions()).isEqualTo(28);
        assertThat(alexnet.ratePerSecond()).isEqualTo(4.0); // the 5 full seconds before the newest
        assertThat(alexnet.jctRequests()).isZero(); // no outcome yet: no JCT to compare
        assertThat(alexnet.predictedMeanJctSeconds()).isNull();
        assertThat(alexnet.observedMeanJctSeconds()).isNull();
        assertThat(s.rates().seconds()).hasSize(7).first().isEqualTo(T0 / 1000);
        assertThat(s.rates().values().get("resnet18")).containsOnly(1L).hasSize(7);
        assertThat(s.totals()).containsEntry("decisions", 35L);
        // every decision has three stages: one on server-0, two on server-1
        assertThat(s.servers()).extracting(ServerView::id).containsExactly("server-0", "server-1");
        assertThat(s.servers().get(0).stagesPerSecond()).isEqualTo(5.0);
        assertThat(s.servers().get(0).requestsPerSecond()).isEqualTo(5.0);
        assertThat(s.servers().get(1).stagesPerSecond()).isEqualTo(10.0);
        assertThat(s.servers().get(1).requestsPerSecond()).isEqualTo(5.0);
    }

    @Test
    void tables_keepTheCurrentAndThePrevious_withTheirGroupings() {
        state.table(table(1, 10.0));
        state.table(table(3, 30.0));
        state.table(table(2, 20.0)); // out of order: still only the two newest versions

        DashboardSnapshot s = state.snapshot(T0);

        assertThat(s.tables()).extracting(TableView::version).containsExactly(3L, 2L);
        TableView current = s.tables().get(0);
        assertThat(current.cause()).isEqualTo("rate drift");
        assertThat(current.linkLoad()).isEqualTo(0.25);
        assertThat(current.models()).hasSize(1);
        assertThat(current.models().get(0).ratePerSecond()).isEqualTo(30.0);
        assertThat(current.models().get(0).predictedJctSeconds()).isEqualTo(0.05);
        var choices = current.models().get(0).subgraphs().get(0).choices();
        assertThat(choices).extracting(DashboardSnapshot.ChoiceView::probability).containsExactly(0.75, 0.25);
        assertThat(choices.get(0).parts()).containsExactly(List.of("b", "c"));
        assertThat(choices.get(1).parts()).containsExactly(List.of("b"), List.of("c"));
    }

    @Test
    void fallbackTable_hasNoGroupings_andNullFigures() {
        ControllerTable fallback = new ControllerTable(4, true, T0, "infeasible load", Map.of("m", 9.0),
                new ClusterSnapshot(List.of("s0"), 1e12, 1e10), Double.NaN, Double.NaN, Map.of(), null);
        state.table(new TableRecordSerializer("placement-tables", "nona").toRecord(fallback));

        TableView t = state.snapshot(T0).tables().get(0);

        assertThat(t.fallback()).isTrue();
        assertThat(t.linkLoad()).isNull();
        assertThat(t.objective()).isNull();
        assertThat(t.models()).singleElement().satisfies(m -> assertThat(m.subgraphs()).isEmpty());
    }

    @Test
    void servers_warmModels_areThoseTheyHoldWhole_byTheCatalogsBytes() {
        JsonSerde<ModelCatalogEntry> serde = JsonSerde.forTopic(Topics.MODEL_CATALOG);
        CatalogDag dag = new CatalogDag("g", List.of(new CatalogTask("a", 1e9), new CatalogTask("b", 3e9)),
                List.of(new CatalogEdge("a", "b", 1e6)));
        state.catalog("alexnet".getBytes(StandardCharsets.UTF_8),
                serde.serialize(ModelCatalogEntry.of("alexnet", dag, 2_000.0)));
        state.catalog("vgg16".getBytes(StandardCharsets.UTF_8),
                serde.serialize(ModelCatalogEntry.of("vgg16", dag, 500.0)));
        state.telemetry(report("s-0", true, "vgg16", "alexnet"), T0 - 500); // 1,000 bytes of each

        ServerView s0 = state.snapshot(T0).servers().get(0);

        assertThat(s0.warmModels()).containsExactly("vgg16");
        assertThat(s0.partlyHeldModels()).as("1,000 of its 2,000 bytes").containsExactly("alexnet");

        state.catalog("alexnet".getBytes(StandardCharsets.UTF_8), null); // removed: warm as reported
        ServerView after = state.snapshot(T0).servers().get(0);
        assertThat(after.warmModels()).containsExactly("alexnet", "vgg16");
        assertThat(after.partlyHeldModels()).isEmpty();
    }

    @Test
    void servers_areUpSilentOrDown_byTheirLastReport() {
        state.telemetry(report("s-up", true, "alexnet"), T0 - 1_000);
        state.telemetry(report("s-silent", true, "vgg16"), T0 - 3_001);
        state.telemetry(report("s-down", false), T0);

        DashboardSnapshot s = state.snapshot(T0);

        assertThat(s.servers()).extracting(ServerView::id, ServerView::state)
                .containsExactly(tuple("s-down", "down"),
                        tuple("s-silent", "silent"),
                        tuple("s-up", "up"));
        assertThat(s.servers().get(2).warmModels()).containsExactly("alexnet");
        assertThat(s.drained()).isEqualTo("drained: none");
    }

    @Test
    void drainCommands_markAnUpServerDrained_untilUndrained() {
        state.telemetry(report("s-0", true), T0 - 500);
        state.telemetry(report("s-1", true), T0 - 500);
        state.telemetry(report("s-2", false), T0 - 500);
        state.command(ControllerCommand.drain("c1", T0, "s-1", true));
        state.command(ControllerCommand.drain("c2", T0, "s-2", true));
        state.command(ControllerCommand.freeze("c3", T0, true)); // not shown

        DashboardSnapshot s = state.snapshot(T0);
        assertThat(s.servers()).extracting(ServerView::id, ServerView::state)
                .containsExactly(tuple("s-0", "up"), tuple("s-1", "drained"), tuple("s-2", "down"));
        assertThat(s.drained()).isEqualTo("drained: s-1, s-2");

        state.command(ControllerCommand.drain("c4", T0, "s-1", false));
        assertThat(state.snapshot(T0).servers().get(1).state()).isEqualTo("up");
        assertThat(state.snapshot(T0).drained()).isEqualTo("drained: s-2");
    }

    @Test
    void events_newestFirst_driftMarked_andCalibrationPerModel() {
        state.event(ControllerEvent.of(ControllerEventType.DRIFT_DETECTED, T0 + 500,
                Map.of("cause", "rate drift", "windowEnd", T0)));
        state.event(ControllerEvent.of(ControllerEventType.TABLE_PUBLISHED, T0 + 900, Map.of("tableVersion", 2)));
        state.event(ControllerEvent.of(ControllerEventType.CALIBRATION, T0 + 1_000,
                Map.of("model.alexnet.calibrationRatio", 1.25, "calibrationRatio", 1.1)));
        state.decision(decision("a", "alexnet", T0, 0.01));
        state.outcome(PlacementOutcome.ok("a", "alexnet", 2, List.of(OutcomePart.of("s0", T0, T0 + 10, false)),
                0, T0 + 20, 0.02));
        state.outcome(PlacementOutcome.ended("b", "alexnet", 2, List.of(), 0, OutcomeStatus.TIMEOUT, T0 + 20, 5.0,
                "timed out"));

        DashboardSnapshot s = state.snapshot(T0 + 2_000);

        assertThat(s.events()).extracting(DashboardSnapshot.EventView::type)
                .containsExactly("CALIBRATION", "TABLE_PUBLISHED", "DRIFT_DETECTED");
        assertThat(s.marks()).extracting(DashboardSnapshot.Mark::kind, DashboardSnapshot.Mark::timeMillis)
                .containsExactly(tuple("DRIFT_DETECTED", T0),
                        tuple("TABLE_PUBLISHED", T0 + 900));
        ModelView m = s.models().get(0);
        assertThat(m.calibrationRatio()).isEqualTo(1.25);
        assertThat(m.outcomes()).isEqualTo(2);
        assertThat(m.jctRequests()).isEqualTo(1); // the timed-out one is not an observed JCT
        assertThat(m.predictedMeanJctSeconds()).isEqualTo(0.01);
        assertThat(m.observedMeanJctSeconds()).isEqualTo(0.02);
        assertThat(m.observedOverPredicted()).isEqualTo(2.0);
    }

    @Test
    void predictedAndObserved_areOverTheSameRequests_inTheSameWindow() {
        // a cold start early in the run, then requests that run as predicted
        state.decision(decision("cold", "alexnet", T0, 0.010));
        state.outcome(PlacementOutcome.ok("cold", "alexnet", 1, List.of(OutcomePart.of("s0", T0, T0 + 2_000, true)),
                0, T0 + 2_000, 2.0));
        long later = T0 + 2_000 + JctPairs.WINDOW_SECONDS * 1000L;
        for (int i = 0; i < 4; i++) {
            state.decision(decision("w-" + i, "alexnet", later, 0.010 + 0.001 * i));
            state.outcome(PlacementOutcome.ok("w-" + i, "alexnet", 1,
                    List.of(OutcomePart.of("s0", later, later + 12, false)), 0, later + 12, 0.012));
        }
        state.decision(decision("undecided-yet", "alexnet", later, 5.0)); // no outcome: not in the figures

        DashboardSnapshot s = state.snapshot(later + 1_000);

        assertThat(s.jctWindowSeconds()).isEqualTo(JctPairs.WINDOW_SECONDS);
        ModelView m = s.models().get(0);
        assertThat(m.outcomes()).isEqualTo(5);
        assertThat(m.jctRequests()).isEqualTo(4); // the cold start completed before the window
        assertThat(m.predictedMeanJctSeconds()).isCloseTo(0.0115, within(1e-12));
        assertThat(m.observedMeanJctSeconds()).isCloseTo(0.012, within(1e-12));
        assertThat(m.observedOverPredicted()).isCloseTo(0.012 / 0.0115, within(1e-12));
        assertThat(m.predictedJctSeconds()).as("the newest decision's, kept for readers of /api/state").isEqualTo(5.0);
    }

    @Test
    void events_keepOnlyTheLast() {
        for (int i = 0; i < DashboardState.MAX_EVENTS + 5; i++) {
            state.event(ControllerEvent.of(ControllerEventType.CLUSTER_CHANGED, T0 + i, Map.of("i", i)));
        }
        DashboardSnapshot s = state.snapshot(T0);
        assertThat(s.events()).hasSize(DashboardState.MAX_EVENTS);
        assertThat(s.events().get(0).details()).containsEntry("i", DashboardState.MAX_EVENTS + 4);
    }

    @Test
    void livenessTimeout_mustBePositive() {
        assertThatThrownBy(() -> new DashboardState("b", Duration.ZERO))
                .hasMessageContaining("liveness timeout (PT0S) must be > 0");
    }

    private static PlacementDecision decision(String id, String model, long eventTime, double jct) {
        return PlacementDecision.of(id, model, "t", 1, false, List.of(new StageAssignment("a", "server-0"),
                new StageAssignment("b", "server-1"), new StageAssignment("c", "server-1")), jct, eventTime);
    }

    private static ServerTelemetry report(String id, boolean up, String... warm) {
        return ServerTelemetry.of(id, up, 1e12, 1, Arrays.stream(warm)
                .map(m -> new CachedModel(m, 1_000L)).toList(), null, T0);
    }

    /** A one-model table whose only subgraph a -> d groups b and c together (0.75) or apart (0.25). */
    static PlacementTableRecord table(long version, double rate) {
        PlacementTable.SubgraphPlacement sub = new PlacementTable.SubgraphPlacement("a", "d", List.of("d"), List.of(
                new PlacementTable.Choice(List.of(List.of("b"), List.of("c")), 0, 1, 0.25),
                new PlacementTable.Choice(List.of(List.of("b", "c")), 0, 0, 0.75)));
        PlacementTable solved = new PlacementTable(version, T0, new PlacementTable.SolvedFor(new Cluster(4, 1e12, 1e10),
                Map.of("m", rate), Background.NONE, CostModel.DEFAULT), true, "", 1.5, 0.25, 0.001, 3.0,
                List.of(new PlacementTable.ModelPlacement("m", rate, 0.05, List.of("a", "b", "c", "d"), List.of("a"),
                        List.of(sub))), 0);
        ControllerTable table = new ControllerTable(version, false, T0 + version, "rate drift", Map.of("m", rate),
                new ClusterSnapshot(List.of("s0", "s1"), 1e12, 1e10), 1.5, 0.25, Map.of("m", 0.05), solved.toJson());
        return new TableRecordSerializer("placement-tables", "nona").toRecord(table);
    }
}
