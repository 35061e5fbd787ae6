package dev.nona.controller.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import dev.nona.controller.TestingCluster;
import dev.nona.controller.cluster.ClusterSnapshot;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.optimize.NonaTableSolver;
import dev.nona.controller.optimize.SolveInput;
import dev.nona.controller.optimize.SolveResult;
import dev.nona.controller.source.RequestRecord;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.controller.DecisionFormat;
import dev.nona.topics.record.DecisionExplanation;
import dev.nona.topics.record.DecisionPart;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.record.StageAssignment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.co.CoBroadcastWithNonKeyedOperator;
import org.apache.flink.streaming.util.BroadcastOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.junit.jupiter.api.Test;

final class PlacementFunctionTest {
    private static BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> harness() throws Exception {
        return ProcessFunctionTestHarnesses.forBroadcastProcessFunction(
                new PlacementFunction("inference-requests", 3, new NonaPlacerFactory()),
                PlacementFunction.BROADCAST_STATES);
    }

    private static RequestRecord request(String id, String model) {
        return request(id, model, 1000);
    }

    private static RequestRecord request(String id, String model, long eventTime) {
        return new RequestRecord(InferenceRequest.of(id, model, "tenant", eventTime, null), null, 2, 42);
    }

    private static ControllerTable solvedTable(long version, int servers, double rate) {
        SolveInput in = new SolveInput(Map.of("fig1", TestingCluster.figure1()), Map.of("fig1", rate),
                TestingCluster.snapshot(servers), "test");
        SolveResult r = new NonaTableSolver(false).solve(in, null);
        return new ControllerTable(version, false, 0, "test", in.rates(), in.cluster(), r.objective(), r.linkLoad(),
                r.predictedJctSeconds(), r.tableJson());
    }

    private static void servers(BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> h,
            int n, String warmOn) throws Exception {
        for (int i = 0; i < n; i++) {
            String id = "s" + i;
            h.processBroadcastElement(BroadcastUpdate.of(id.equals(warmOn)
                    ? TestingCluster.server(id, 0, "fig1") : TestingCluster.server(id, 0)), 0);
        }
    }

    private static List<DeadLetter> deadLetters(BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> h) {
        var out = h.getSideOutput(PlacementFunction.UNPLACED);
        return out == null ? List.of() : out.stream().map(r -> r.getValue()).toList();
    }

    @Test
    void beforeFirstTable_runsEveryStageLocally_onAWarmServer() throws Exception {
        try (var h = harness()) {
            servers(h, 4, "s2");
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            h.processElement(request("r1", "fig1"), 1000);
            PlacementDecision d = h.extractOutputValues().get(0);
            assertThat(d.tableVersion()).isZero();
            assertThat(d.fallback()).isTrue();
            assertThat(d.stages()).extracting(StageAssignment::task).containsExactly("t1", "t2", "t3", "t4");
            assertThat(d.stages()).extracting(StageAssignment::server).containsOnly("s2");
        }
    }

    @Test
    void withTable_tagsEveryOriginalStage_withUpServersAndTheTableVersion() throws Exception {
        try (var h = harness()) {
            servers(h, 4, null);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            h.processBroadcastElement(BroadcastUpdate.of(solvedTable(7, 4, 20)), 0);
            for (int i = 0; i < 200; i++) {
                h.processElement(request("r" + i, "fig1"), 1000);
            }
            List<PlacementDecision> out = h.extractOutputValues();
            assertThat(out).hasSize(200).allSatisfy(d -> {
                assertThat(d.tableVersion()).isEqualTo(7);
                assertThat(d.fallback()).isFalse();
                assertThat(d.stages()).extracting(StageAssignment::task).containsExactlyInAnyOrder("t1", "t2", "t3", "t4");
                assertThat(d.stages()).extracting(StageAssignment::server).allMatch(Set.of("s0", "s1", "s2", "s3")::contains);
                assertThat(d.predictedJctSeconds()).isPositive();
            });
            Set<Set<String>> serverSets = out.stream()
                    .map(d -> d.stages().stream().map(StageAssignment::server).collect(Collectors.toSet()))
                    .collect(Collectors.toSet());
            assertThat(serverSets).as("requests are spread over servers").hasSizeGreaterThan(1);
        }
    }

    @Test
    void withTable_everyDecisionExplainsItsParts_andItsOwnPredictedJct() throws Exception {
        try (var h = harness()) {
            servers(h, 4, "s2");
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            ControllerTable table = solvedTable(7, 4, 20);
            h.processBroadcastElement(BroadcastUpdate.of(table), 0);
            for (int i = 0; i < 50; i++) {
                h.processElement(request("r" + i, "fig1"), 1000);
            }
            List<PlacementDecision> out = h.extractOutputValues();
            assertThat(out).hasSize(50).allSatisfy(d -> {
                DecisionExplanation e = d.explanation();
                assertThat(e).isNotNull();
                Map<String, Long> stagesPerServer = d.stages().stream()
                        .collect(Collectors.groupingBy(StageAssignment::server, Collectors.counting()));
                assertThat(e.parts()).extracting(DecisionPart::server).containsExactlyInAnyOrderElementsOf(stagesPerServer.keySet());
                assertThat(e.parts()).allSatisfy(p -> {
                    assertThat((long) p.stages()).isEqualTo(stagesPerServer.get(p.server()));
                    assertThat(p.warm()).isEqualTo(p.server().equals("s2"));
                    assertThat(p.tasks()).isNull();
                });
                assertThat(e.choices()).isNotEmpty();
                assertThat(e.choiceProbability()).isBetween(0.0, 1.0).isPositive();
                assertThat(e.tableJctSeconds()).isEqualTo(table.predictedJctSeconds().get("fig1"));
                assertThat(e.waitSeconds()).isEqualTo(e.parts().stream()
                        .mapToDouble(DecisionPart::predictedBacklogSeconds).max().orElseThrow());
                assertThat(d.predictedJctSeconds()).isCloseTo(e.tableJctSeconds() + e.waitSeconds(), within(5e-7)); // micros
            });
            // the ledger fills up: later requests see backlog on their servers, so their own JCT is above the table's
            assertThat(out.get(out.size() - 1).explanation().waitSeconds()).isPositive();
            assertThat(out.stream().map(PlacementDecision::predictedJctSeconds).distinct().count()).isGreaterThan(1);
        }
    }

    /**
     * The bootstrap snapshot's server statuses give way one server at a time: a report replaces its own server's status
     * (when newer), and the servers that have not reported yet keep theirs.
     */
    @Test
    void bootstrapServers_giveWayPerServer_toNewerReports() throws Exception {
        List<BroadcastUpdate> bootstrap = List.of(BroadcastUpdate.of(TestingCluster.server("b0", 1_000, "fig1")),
                BroadcastUpdate.of(TestingCluster.server("b1", 1_000, "fig1")),
                BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())));
        try (var h = ProcessFunctionTestHarnesses.forBroadcastProcessFunction(
                new PlacementFunction("inference-requests", 3, new NonaPlacerFactory(), bootstrap, 0),
                PlacementFunction.BROADCAST_STATES)) {
            h.processElement(request("r0", "fig1"), 1000); // before any report: the bootstrap's servers
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.down("b1", 2_000)), 0);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.down("b0", 500)), 0); // older than b0's status
            for (int i = 1; i <= 10; i++) {
                h.processElement(request("r" + i, "fig1"), 1000);
            }
            List<PlacementDecision> out = h.extractOutputValues();
            assertThat(out).hasSize(11);
            assertThat(out.subList(1, 11)).allSatisfy(d -> assertThat(d.stages()).allSatisfy(
                    st -> assertThat(st.server()).isEqualTo("b0")));
        }
        try (var restored = ProcessFunctionTestHarnesses.forBroadcastProcessFunction(
                new PlacementFunction("inference-requests", 3, new NonaPlacerFactory(), bootstrap, 0),
                PlacementFunction.BROADCAST_STATES)) {
            // b1's newer status in the broadcast state before the first request (as after a restore) outweighs the
            // bootstrap's
            restored.processBroadcastElement(BroadcastUpdate.of(TestingCluster.down("b1", 2_000)), 0);
            for (int i = 0; i < 10; i++) {
                restored.processElement(request("q" + i, "fig1"), 1000);
            }
            assertThat(restored.extractOutputValues()).hasSize(10).allSatisfy(d -> assertThat(d.stages()).allSatisfy(
                    st -> assertThat(st.server()).isEqualTo("b0")));
        }
    }

    /**
     * The bootstrap snapshot's catalog and table (what the controller read from Kafka before it started) place the
     * first request under that table, with no catalog record in the broadcast state yet; the job's own first table
     * then replaces it whatever its version; a model removed from the catalog since is no longer placed.
     */
    @Test
    void bootstrapCatalogAndTable_placeTheFirstRequest_untilTheJobsOwnTableAndRemovals() throws Exception {
        List<BroadcastUpdate> bootstrap = List.of(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())),
                BroadcastUpdate.of(solvedTable(42, 4, 10)));
        try (var h = ProcessFunctionTestHarnesses.forBroadcastProcessFunction(
                new PlacementFunction("inference-requests", 3, new NonaPlacerFactory(), bootstrap, 0),
                PlacementFunction.BROADCAST_STATES)) {
            servers(h, 4, null);
            h.processElement(request("r0", "fig1"), 1000);
            h.processBroadcastElement(BroadcastUpdate.of(solvedTable(1, 4, 10)), 0);
            h.processElement(request("r1", "fig1"), 1000);
            h.processBroadcastElement(BroadcastUpdate.removed("fig1"), 0);
            h.processElement(request("r2", "fig1"), 1000);
            assertThat(h.extractOutputValues()).extracting(PlacementDecision::requestId, PlacementDecision::tableVersion,
                    PlacementDecision::fallback).containsExactly(tuple("r0", 42L, false),
                    tuple("r1", 1L, false));
            assertThat(h.getSideOutput(PlacementFunction.UNPLACED)).singleElement()
                    .satisfies(dl -> assertThat(dl.getValue().reason()).isEqualTo("model 'fig1' is not in the model catalog"));
        }
    }

    @Test
    void compactFormat_omitsStages_partsNameTheSameMapping() throws Exception {
        try (var full = harness(); var compact = ProcessFunctionTestHarnesses.forBroadcastProcessFunction(
                new PlacementFunction("inference-requests", 3, new NonaPlacerFactory(), List.of(),
                        PlacementFunction.DEFAULT_STARTUP_BUFFER, PlacementFunction.DEFAULT_LIVENESS_TIMEOUT_MILLIS,
                        DecisionFormat.COMPACT),
                PlacementFunction.BROADCAST_STATES)) {
            for (var h : List.of(full, compact)) {
                servers(h, 4, null);
                h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
                h.processBroadcastElement(BroadcastUpdate.of(solvedTable(7, 4, 20)), 0);
                for (int i = 0; i < 30; i++) {
                    h.processElement(request("r" + i, "fig1"), 1000);
                }
            }
            List<PlacementDecision> a = full.extractOutputValues();
            List<PlacementDecision> b = compact.extractOutputValues();
            assertThat(b).hasSize(30);
            for (int i = 0; i < a.size(); i++) {
                assertThat(b.get(i).stages()).isNull();
                assertThat(b.get(i).compact()).isTrue();
                assertThat(b.get(i).placedStages()).containsExactlyInAnyOrderElementsOf(a.get(i).stages());
                assertThat(b.get(i).predictedJctSeconds()).isEqualTo(a.get(i).predictedJctSeconds());
            }
        }
    }

    @Test
    void sourceStage_prefersTheWarmServer_upToTheTargetCountingItsOwnDecisions() throws Exception {
        try (var h = harness()) {
            servers(h, 4, "s3");
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            h.processBroadcastElement(BroadcastUpdate.of(solvedTable(1, 4, 20)), 0);
            for (int i = 0; i < 40; i++) {
                h.processElement(request("r" + i, "fig1"), 1000);
            }
            List<String> sources = h.extractOutputValues().stream().map(d -> d.stages().get(0).server()).toList();
            // the target (3 in flight) on the warm server first; then the least loaded, so no server runs away
            assertThat(sources.subList(0, 3)).containsOnly("s3");
            assertThat(sources.get(3)).isNotEqualTo("s3");
            // without the ledger every one of the 40 would start on s3 (no report came in between)
            assertThat(sources.stream().filter("s3"::equals).count()).isLessThan(20);
            // s3 reports again, idle, after the requests (a report older than them would not count them): it is
            // preferred again
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s3", 2_000, "fig1")), 0);
            h.processElement(request("after-report", "fig1"), 1000);
            List<PlacementDecision> all = h.extractOutputValues();
            assertThat(all.get(all.size() - 1).stages().get(0).server()).isEqualTo("s3");
        }
    }

    /**
     * Two warm servers, one request in flight each: s0 reports 5 s of work, s1 0.1 s. Fig. 1's model needs 22 ms on
     * one server (before the first table every request runs locally), so s1 takes requests until its predicted
     * backlog passes s0's or it reaches the target (3 in flight: it has 1, so 2 more); then s0, at the target too
     * after 2; then the least predicted backlog, s1 again.
     */
    @Test
    void reportedBacklog_steersRequestsToTheServerWithLessWork() throws Exception {
        try (var h = harness()) {
            List<CachedModel> warm = List.of(new CachedModel("fig1", 1000));
            h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("s0", true, TestingCluster.OPS_PER_SECOND, 1,
                    warm, TestingCluster.LINK_BITS_PER_SECOND, 1_000, 5.0)), 0);
            h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("s1", true, TestingCluster.OPS_PER_SECOND, 1,
                    warm, TestingCluster.LINK_BITS_PER_SECOND, 1_000, 0.1)), 0);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            for (int i = 0; i < 5; i++) {
                h.processElement(request("r" + i, "fig1"), 1000);
            }
            List<String> servers = h.extractOutputValues().stream().map(d -> d.stages().get(0).server()).toList();
            assertThat(servers).containsExactly("s1", "s1", "s0", "s0", "s1");
        }
    }

    /**
     * Two servers of 100 MB, a one-task model of 50 MB: s0 holds it and is idle, s1 is cold with 0.5 s of backlog, so
     * by memory alone every request goes to s0. A free memory of 10 MB reported by s0 (its other parts pin the rest)
     * sends them to s1, where the part fits now; when neither has room now they go where it fits the whole memory
     * and finishes first, s0. The free memory is kept in the operator's state: after a restore, without a new report,
     * s1 still gets them.
     */
    @Test
    void reportedFreeMemory_sendsAPartWhereItFitsNow_andSurvivesARestore() throws Exception {
        assertThat(placeOneTask(null, null)).containsOnly("s0");
        assertThat(placeOneTask(1.0e7, null)).containsOnly("s1");
        assertThat(placeOneTask(1.0e7, 0.0)).containsOnly("s0");
        assertThat(placeOneTask(null, 1.0e7)).containsOnly("s0");

        OperatorSubtaskState snapshot;
        try (var h = harness()) {
            h.setProcessingTime(1_000);
            memoryServers(h, 1.0e7, null);
            snapshot = h.snapshot(1, 1_000);
        }
        var operator = new CoBroadcastWithNonKeyedOperator<>(
                new PlacementFunction("inference-requests", 3, new NonaPlacerFactory()),
                List.of(PlacementFunction.BROADCAST_STATES));
        try (var restored = new BroadcastOperatorTestHarness<>(operator, 1, 1, 0)) {
            restored.setProcessingTime(1_000);
            restored.initializeState(snapshot);
            restored.open();
            for (int i = 0; i < 5; i++) {
                restored.processElement(request("after-" + i, "one"), 1_000);
            }
            assertThat(restored.extractOutputValues()).hasSize(5)
                    .flatExtracting(PlacementDecision::stages).extracting(StageAssignment::server).containsOnly("s1");
        }
    }

    /** The servers each request of {@link #reportedFreeMemory_sendsAPartWhereItFitsNow_andSurvivesARestore} used. */
    private static List<String> placeOneTask(Double freeOnS0, Double freeOnS1) throws Exception {
        try (var h = harness()) {
            h.setProcessingTime(1_000);
            memoryServers(h, freeOnS0, freeOnS1);
            for (int i = 0; i < 20; i++) {
                h.processElement(request("r" + i, "one"), 1_000);
            }
            List<PlacementDecision> out = h.extractOutputValues();
            assertThat(out).hasSize(20);
            return out.stream().flatMap(d -> d.stages().stream()).map(StageAssignment::server).toList();
        }
    }

    private static void memoryServers(BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> h,
            Double freeOnS0, Double freeOnS1) throws Exception {
        h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("s0", true, TestingCluster.OPS_PER_SECOND, 0,
                List.of(new CachedModel("one", 50_000_000)), TestingCluster.LINK_BITS_PER_SECOND, 1_000, 0.0)
                .withClass("gpu", 1.0e8).withFreeMemoryBytes(freeOnS0)), 1_000);
        h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("s1", true, TestingCluster.OPS_PER_SECOND, 0,
                List.of(), TestingCluster.LINK_BITS_PER_SECOND, 1_000, 0.5)
                .withClass("gpu", 1.0e8).withFreeMemoryBytes(freeOnS1)), 1_000);
        h.processBroadcastElement(BroadcastUpdate.of(ModelCatalogEntry.of("one", new CatalogDag("one",
                List.of(new CatalogTask("x", 1e9, 5.0e7)), List.of()))), 1_000);
    }

    @Test
    void olderTableArrivingLate_isIgnored() throws Exception {
        try (var h = harness()) {
            servers(h, 2, null);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            h.processBroadcastElement(BroadcastUpdate.of(solvedTable(5, 2, 20)), 0);
            h.processBroadcastElement(BroadcastUpdate.of(solvedTable(4, 2, 20)), 0);
            h.processElement(request("r1", "fig1"), 1000);
            assertThat(h.extractOutputValues().get(0).tableVersion()).isEqualTo(5);
        }
    }

    @Test
    void sameRequestAndTable_sameDecision() throws Exception {
        ControllerTable table = solvedTable(3, 4, 20);
        List<PlacementDecision> runs = new ArrayList<>();
        for (int run = 0; run < 2; run++) {
            try (var h = harness()) {
                servers(h, 4, null);
                h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
                h.processBroadcastElement(BroadcastUpdate.of(table), 0);
                h.processElement(request("replayed", "fig1"), 1000);
                runs.add(h.extractOutputValues().get(0));
            }
        }
        assertThat(runs.get(1)).isEqualTo(runs.get(0));
    }

    @Test
    void unknownModel_becomesDeadLetterWithReasonAndOffset() throws Exception {
        try (var h = harness()) {
            servers(h, 2, null);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            h.processElement(request("r1", "nosuchmodel"), 1000);
            assertThat(h.extractOutputValues()).isEmpty();
            assertThat(deadLetters(h)).singleElement().satisfies(dl -> {
                assertThat(dl.reason()).isEqualTo("model 'nosuchmodel' is not in the model catalog");
                assertThat(dl.partition()).isEqualTo(2);
                assertThat(dl.offset()).isEqualTo(42);
                assertThat(dl.raw()).isNotEmpty();
            });
        }
    }

    @Test
    void requestsBeforeTelemetryAndCatalog_areHeld_thenPlaced() throws Exception {
        try (var h = harness()) {
            h.processElement(request("early-1", "fig1"), 1000);
            servers(h, 2, null);
            h.processElement(request("early-2", "fig1"), 1000);
            assertThat(h.extractOutputValues()).as("no catalog yet").isEmpty();
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            assertThat(h.extractOutputValues()).extracting(PlacementDecision::requestId)
                    .containsExactly("early-1", "early-2");
            assertThat(deadLetters(h)).isEmpty();
        }
    }

    @Test
    void fullStartupBuffer_deadLettersTheOverflow() throws Exception {
        var fn = new PlacementFunction("inference-requests", 3, new NonaPlacerFactory(), List.of(), 1);
        try (var h = ProcessFunctionTestHarnesses.forBroadcastProcessFunction(fn,
                PlacementFunction.BROADCAST_STATES)) {
            h.processElement(request("held", "fig1"), 1000);
            h.processElement(request("overflow", "fig1"), 1000);
            assertThat(deadLetters(h)).singleElement().satisfies(dl -> assertThat(dl.reason()).isEqualTo(
                    "no server is up (no telemetry yet, or every server is down) and the startup buffer (1 requests) is full"));
        }
    }

    @Test
    void heldRequests_surviveACheckpoint() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness()) {
            h.processElement(request("held-across-restart", "fig1"), 1000);
            snapshot = h.snapshot(1, 0);
        }
        var operator = new CoBroadcastWithNonKeyedOperator<>(
                new PlacementFunction("inference-requests", 3, new NonaPlacerFactory()),
                List.of(PlacementFunction.BROADCAST_STATES));
        try (var restored = new BroadcastOperatorTestHarness<>(operator, 1, 1, 0)) {
            restored.initializeState(snapshot);
            restored.open();
            servers(restored, 2, null);
            restored.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            assertThat(restored.extractOutputValues()).extracting(PlacementDecision::requestId)
                    .containsExactly("held-across-restart");
        }
    }

    /**
     * Timeout 3 s. s7 reported at 0 s and fell silent; s0 reports every second to 10 s; a checkpoint; the job restored
     * at 40 s. Each restored server counts as heard at its report time, so s7 stays silent (and s0, the stream's
     * newest, live), and s7's late report made at 2 s does not revive it.
     */
    @Test
    void restore_keepsASilentServerSilent_andItsLateReportsDoNotReviveIt() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness()) {
            h.setProcessingTime(0);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s7", 0, "fig1")), 0);
            for (long t = 0; t <= 10_000; t += 1_000) {
                h.setProcessingTime(t);
                h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s0", t, "fig1")), t);
                place(h, "t" + t, 1, t);
            }
            snapshot = h.snapshot(1, 10_000);
        }
        var operator = new CoBroadcastWithNonKeyedOperator<>(
                new PlacementFunction("inference-requests", 3, new NonaPlacerFactory()),
                List.of(PlacementFunction.BROADCAST_STATES));
        try (var restored = new BroadcastOperatorTestHarness<>(operator, 1, 1, 0)) {
            restored.setProcessingTime(40_000);
            restored.initializeState(snapshot);
            restored.open();
            assertThat(place(restored, "a", 40, 40_000)).containsExactly("s0");
            restored.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s7", 2_000, "fig1")), 40_000);
            assertThat(place(restored, "b", 40, 40_000)).containsExactly("s0");
        }
    }

    @Test
    void fallbackTable_placesLocally_withItsVersion() throws Exception {
        try (var h = harness()) {
            servers(h, 3, null);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            h.processBroadcastElement(BroadcastUpdate.of(new ControllerTable(9, true, 0, "infeasible", Map.of(),
                    new ClusterSnapshot(List.of("s0", "s1", "s2"), 1e12, 1e10), Double.NaN, Double.NaN, Map.of(), null)), 0);
            h.processElement(request("r1", "fig1"), 1000);
            PlacementDecision d = h.extractOutputValues().get(0);
            assertThat(d.tableVersion()).isEqualTo(9);
            assertThat(d.fallback()).isTrue();
            assertThat(d.stages().stream().map(StageAssignment::server).distinct()).hasSize(1);
        }
    }

    /**
     * Liveness on the processing-time clock (timeout 3 s): s0 and s1 report at 0 s; s1 reports again at 2 s and 4 s,
     * s0 never again. From 3.001 s no request goes to s0, even though no telemetry arrives between 2 s and 4 s; s2
     * reports opsPerSecond 0 and never gets a stage; s3 reports up=false and gets none after that report.
     */
    @Test
    void silentServer_downServer_andZeroRateServer_getNoStages() throws Exception {
        try (var h = harness()) {
            h.setProcessingTime(0);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            for (String id : List.of("s0", "s1", "s3")) {
                h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server(id, 0, "fig1")), 0);
            }
            h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("s2", true, 0, 0,
                    List.of(new CachedModel("fig1", 0)), null, 0)), 0);
            h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("s3", false, 1e9, 0, List.of(), null, 1)), 0);
            int i = 0;
            Set<String> before = new HashSet<>();
            Set<String> after = new HashSet<>();
            for (long t = 0; t <= 6_000; t += 100) {
                h.setProcessingTime(t);
                if (t == 2_000 || t == 4_000) {
                    h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("s1", true, 1e9, 0,
                            List.of(new CachedModel("fig1", 0)), null, t)), t);
                }
                h.processElement(request("r" + i++, "fig1"), t);
                PlacementDecision d = h.extractOutputValues().get(h.extractOutputValues().size() - 1);
                (t <= 3_000 ? before : after).addAll(d.stages().stream().map(StageAssignment::server).toList());
            }
            assertThat(before).as("requests spread over the live servers").containsExactlyInAnyOrder("s0", "s1");
            assertThat(after).as("s0 silent for more than 3 s").containsExactly("s1");
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s0", 7_000, "fig1")), 7_000);
            Set<String> back = new HashSet<>();
            for (int k = 0; k < 10; k++) {
                h.processElement(request("r" + i++, "fig1"), 7_000);
                PlacementDecision d = h.extractOutputValues().get(h.extractOutputValues().size() - 1);
                back.addAll(d.stages().stream().map(StageAssignment::server).toList());
            }
            assertThat(back).as("s0 reported again").contains("s0");
        }
    }

    /** The servers used by {@code n} requests placed at processing time {@code t}. */
    private static Set<String> place(BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> h,
            String prefix, int n, long t) throws Exception {
        Set<String> used = new HashSet<>();
        for (int k = 0; k < n; k++) {
            h.processElement(request(prefix + k, "fig1"), t);
            PlacementDecision d = h.extractOutputValues().get(h.extractOutputValues().size() - 1);
            used.addAll(d.stages().stream().map(StageAssignment::server).toList());
        }
        return used;
    }

    /**
     * Timeout 3 s. s0 and s1 report at 0 s, then no telemetry at all arrives: at 20 s both, the servers last known
     * live, still get stages (the whole stream stalled; it says nothing about the servers). s0's next report resumes
     * the stream; s1's reports may still be on their way, so requests made now wait until the stream has flowed for
     * 3 s without them (s0 reporting every second): then a timer places them, none on s1.
     */
    @Test
    void telemetryStall_keepsPlacingOnTheServersLastKnownLive() throws Exception {
        try (var h = harness()) {
            h.setProcessingTime(0);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s0", 0, "fig1")), 0);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s1", 0, "fig1")), 0);
            assertThat(place(h, "a", 20, 0)).containsExactlyInAnyOrder("s0", "s1");
            h.setProcessingTime(20_000);
            assertThat(place(h, "b", 20, 20_000)).containsExactlyInAnyOrder("s0", "s1");
            for (long t = 20_000; t <= 22_000; t += 1_000) {
                h.setProcessingTime(t);
                h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s0", t, "fig1")), t);
            }
            assertThat(placeMade(h, "c", 20, 22_000)).as("made after s1's last report plus 3 s: wait").isEmpty();
            h.setProcessingTime(23_000);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s0", 23_000, "fig1")), 23_000);
            int before = h.extractOutputValues().size();
            h.setProcessingTime(23_001);
            List<PlacementDecision> released = h.extractOutputValues().subList(before, h.extractOutputValues().size());
            assertThat(released).as("placed at a timer once s1 is idle").hasSize(20);
            assertThat(servers(released)).containsExactly("s0");
            assertThat(placeMade(h, "d", 20, 23_001)).containsExactly("s0");
        }
    }

    /** The servers used by {@code n} requests made and placed at {@code t}. */
    private static Set<String> placeMade(BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> h,
            String prefix, int n, long t) throws Exception {
        int before = h.extractOutputValues().size();
        for (int k = 0; k < n; k++) {
            h.processElement(madeAt(prefix + k, t), t);
        }
        return servers(h.extractOutputValues().subList(before, h.extractOutputValues().size()));
    }

    private static RequestRecord madeAt(String id, long eventTime) {
        return new RequestRecord(InferenceRequest.of(id, "fig1", "tenant", eventTime, null), null, 2, 42);
    }

    private static Set<String> servers(List<PlacementDecision> decisions) {
        return decisions.stream().flatMap(d -> d.stages().stream()).map(StageAssignment::server)
                .collect(Collectors.toSet());
    }

    /**
     * The broker-kill run, on one operator. Timeout 3 s. s0 reports every second to 20 s, s7 to 19 s (then falls
     * silent); a request a second, made and placed at once. The broker is down from 20.5 s to 34.5 s: at 34.6 s the
     * requests made meanwhile (one every 500 ms) arrive before any report. Those made up to 22 s (s7's last report
     * plus the timeout: s7 was not idle when the stream stalled) are placed; the others are held, with one
     * {@code REQUESTS_HELD} event naming telemetry. s0's backlog arrives at 35 s, its reports go on every second: s7
     * turns idle 3 s of flowing time after the stream resumed, at 37.001 s, and a timer places every held request
     * then, none on s7.
     */
    @Test
    void requestsAheadOfTelemetry_waitForItsClock_andNeverReachTheServerSilentBeforeTheOutage() throws Exception {
        try (var h = harness()) {
            h.setProcessingTime(0);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            for (long t = 0; t <= 20_000; t += 1_000) {
                h.setProcessingTime(t);
                h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s0", t, "fig1")), t);
                if (t <= 19_000) {
                    h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s7", t, "fig1")), t);
                }
                h.processElement(madeAt("live-" + t, t), t);
            }
            assertThat(servers(h.extractOutputValues())).as("s7 used while it reported").contains("s7");
            int before = h.extractOutputValues().size();
            h.setProcessingTime(34_600);
            for (long t = 20_600; t <= 34_500; t += 500) {
                h.processElement(madeAt("outage-" + t, t), t);
            }
            List<PlacementDecision> early = h.extractOutputValues().subList(before, h.extractOutputValues().size());
            assertThat(early).extracting(PlacementDecision::eventTime).allMatch(t -> t <= 22_000).hasSize(3);
            assertThat(events(h)).singleElement().satisfies(e -> assertThat(e.details())
                    .containsEntry("reason", "telemetry is behind"));
            h.setProcessingTime(35_000);
            for (long t = 21_000; t <= 35_000; t += 1_000) {
                h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s0", t, "fig1")), 35_000);
            }
            for (long t = 36_000; t <= 37_000; t += 1_000) {
                h.setProcessingTime(t);
                h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s0", t, "fig1")), t);
            }
            assertThat(h.extractOutputValues()).as("still held").hasSize(before + 3);
            h.setProcessingTime(37_001);
            List<PlacementDecision> late = h.extractOutputValues().subList(before + 3, h.extractOutputValues().size());
            assertThat(late).hasSize(25).allMatch(d -> d.eventTime() > 22_000);
            assertThat(servers(late)).containsExactly("s0");
            assertThat(deadLetters(h)).isEmpty();
            assertThat(events(h)).last().satisfies(e -> {
                assertThat(e.type()).isEqualTo(ControllerEventType.REQUESTS_RELEASED);
                assertThat(e.details()).containsEntry("placed", 25).containsEntry("deadLettered", 0);
            });
        }
    }

    /**
     * Timeout 3 s. s0 and s1 report at 0 s, then nothing; at 20 s a batch of requests made then arrives, and nothing
     * more: they wait, then a timer places them on the servers last known live once requests have flowed for the
     * timeout without a report (23.001 s).
     */
    @Test
    void stall_placesHeldRequestsOnTheServersLastKnownLive_atATimer() throws Exception {
        try (var h = harness()) {
            h.setProcessingTime(0);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s0", 0, "fig1")), 0);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s1", 0, "fig1")), 0);
            h.setProcessingTime(20_000);
            for (int k = 0; k < 20; k++) {
                h.processElement(madeAt("b" + k, 20_000), 20_000);
            }
            assertThat(h.extractOutputValues()).isEmpty();
            h.setProcessingTime(23_000);
            assertThat(h.extractOutputValues()).isEmpty();
            h.setProcessingTime(23_001);
            assertThat(h.extractOutputValues()).hasSize(20);
            assertThat(servers(h.extractOutputValues())).containsExactlyInAnyOrder("s0", "s1");
        }
    }

    /** Hold timeout 2 s, below the liveness timeout: a request telemetry has not caught up with expires, saying so. */
    @Test
    void requestHeldForTelemetry_pastTheHoldTimeout_isADeadLetterNamingTelemetry() throws Exception {
        try (var h = ProcessFunctionTestHarnesses.forBroadcastProcessFunction(new PlacementFunction(
                "inference-requests", 3, new NonaPlacerFactory(), List.of(), 100,
                PlacementFunction.DEFAULT_LIVENESS_TIMEOUT_MILLIS, DecisionFormat.FULL, 2_000),
                PlacementFunction.BROADCAST_STATES)) {
            h.setProcessingTime(0);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s0", 0, "fig1")), 0);
            h.setProcessingTime(20_000);
            h.processElement(madeAt("r", 20_000), 20_000);
            h.setProcessingTime(22_001);
            assertThat(deadLetters(h)).singleElement().satisfies(dl -> assertThat(dl.reason()).isEqualTo(
                    "held for more than placement.hold-timeout (2000 ms) while telemetry has not reached the "
                            + "request's time (which servers were live then is not known yet)"));
        }
    }

    /**
     * Timeout 3 s. s7 reported at 0 s and fell silent; at 30 s its reports made at 9 s and 10 s arrive (held up, as a
     * producer's buffer does while the broker is down): they are 20 s old and do not make it live again.
     */
    @Test
    void staleReports_ofASilentServer_doNotReviveIt() throws Exception {
        try (var h = harness()) {
            h.setProcessingTime(0);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s0", 0, "fig1")), 0);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s7", 0, "fig1")), 0);
            assertThat(place(h, "a", 20, 0)).containsExactlyInAnyOrder("s0", "s7");
            for (long t = 1_000; t <= 30_000; t += 1_000) {
                h.setProcessingTime(t);
                h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s0", t, "fig1")), t);
                place(h, "t" + t, 1, t);
            }
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s7", 9_000, "fig1")), 30_000);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s7", 10_000, "fig1")), 30_000);
            assertThat(place(h, "b", 40, 30_000)).containsExactly("s0");
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s7", 29_000, "fig1")), 30_000);
            assertThat(place(h, "c", 40, 30_000)).as("a timely report does").contains("s7");
        }
    }

    private static List<ControllerEvent> events(
            BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> h) {
        var out = h.getSideOutput(PlacementFunction.EVENTS);
        return out == null ? List.of() : out.stream().map(StreamRecord::getValue).toList();
    }

    /**
     * Hold timeout 30 s, no server ever up: r0 held at 0 s, r1 at 10 s. With no further input, the hold's timer
     * makes r0 a dead letter at 30.001 s and r1 at 40.001 s, each naming the timeout; one {@code REQUESTS_HELD}
     * event at the start and one {@code REQUESTS_RELEASED} (0 placed, 2 dead letters) at the end, and no timer left.
     */
    @Test
    void heldRequests_becomeDeadLettersAfterTheHoldTimeout_evenWithNoFurtherInput() throws Exception {
        try (var h = ProcessFunctionTestHarnesses.forBroadcastProcessFunction(new PlacementFunction(
                "inference-requests", 3, new NonaPlacerFactory(), List.of(), 100,
                PlacementFunction.DEFAULT_LIVENESS_TIMEOUT_MILLIS, DecisionFormat.FULL, 30_000),
                PlacementFunction.BROADCAST_STATES)) {
            h.setProcessingTime(0);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            h.processElement(request("r0", "fig1"), 0);
            h.setProcessingTime(10_000);
            h.processElement(request("r1", "fig1"), 10_000);
            assertThat(events(h)).singleElement().satisfies(e -> {
                assertThat(e.type()).isEqualTo(ControllerEventType.REQUESTS_HELD);
                assertThat(e.details()).containsEntry("reason", "no server is up").containsEntry("holdTimeoutMillis", 30_000L);
            });
            h.setProcessingTime(30_000);
            assertThat(deadLetters(h)).isEmpty();
            h.setProcessingTime(30_001);
            assertThat(deadLetters(h)).singleElement().satisfies(dl -> assertThat(dl.reason()).isEqualTo(
                    "held for more than placement.hold-timeout (30000 ms) while no server is up (no telemetry yet, "
                            + "or every server is down)"));
            h.setProcessingTime(40_001);
            assertThat(deadLetters(h)).hasSize(2);
            assertThat(h.extractOutputValues()).isEmpty();
            assertThat(events(h)).hasSize(2).last().satisfies(e -> {
                assertThat(e.type()).isEqualTo(ControllerEventType.REQUESTS_RELEASED);
                assertThat(e.details()).containsEntry("placed", 0).containsEntry("deadLettered", 2)
                        .containsEntry("heldForMillis", 40_001L);
            });
            assertThat(h.getProcessingTimeService().getNumActiveTimers()).as("no timer left").isZero();
        }
    }

    /** Requests held until telemetry arrives within the timeout are placed, and the hold's end counts them. */
    @Test
    void heldRequests_placedWhenAServerReports_endTheHold() throws Exception {
        try (var h = harness()) {
            h.setProcessingTime(0);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
            h.processElement(request("r0", "fig1"), 0);
            h.processElement(request("r1", "fig1"), 0);
            h.setProcessingTime(5_000);
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s0", 5_000, "fig1")), 5_000);
            assertThat(h.extractOutputValues()).hasSize(2);
            assertThat(events(h)).extracting(ControllerEvent::type)
                    .containsExactly(ControllerEventType.REQUESTS_HELD, ControllerEventType.REQUESTS_RELEASED);
            assertThat(events(h).get(1).details()).containsEntry("placed", 2).containsEntry("deadLettered", 0)
                    .containsEntry("heldForMillis", 5_000L);
            h.setProcessingTime(60_000);
            assertThat(deadLetters(h)).isEmpty();
        }
    }

    /**
     * The idle gate comes from the table, read again for each new version. A one-task model of 1 ms at $\nu$ = 1e12
     * ops/s, warm on two servers of named classes (so the rule is the expected finish): s0 four times as fast, reporting 0.4 ms of backlog and one request ongoing (marginal
     * cost 0.4 + 0.25 + min(0.25, 0.4) = 0.9 ms), s1 idle (1 ms). The rule's least cost is s0; under a table whose gate
     * is 4 the request goes to s1 instead (1 ms is within 4 &times; 0.9 ms), under 1.05 it stays on s0 (1 ms is above
     * 0.945 ms). One operator, a request a second, both servers reporting the same again before each, under tables of
     * gates 4, 0, 1.05 and 4 in turn.
     */
    @Test
    void idleGate_ofEachTableVersion_sendsAPartToAnIdleSlowerServer() throws Exception {
        CatalogDag one = new CatalogDag("one", List.of(new CatalogTask("x", 1e9)), List.of());
        SolveInput in = new SolveInput(Map.of("one", one), Map.of("one", 10.0), TestingCluster.snapshot(2), "test");
        SolveResult r = new NonaTableSolver(false).solve(in, null);
        double[] gates = {4, 0, 1.05, 4};
        List<String> first = new ArrayList<>();
        try (var h = harness()) {
            h.processBroadcastElement(BroadcastUpdate.of(ModelCatalogEntry.of("one", one)), 0);
            for (int v = 0; v < gates.length; v++) {
                long now = 1_000L * (v + 1);
                h.setProcessingTime(now);
                List<CachedModel> warm = List.of(new CachedModel("one", 1000));
                h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("s0", true,
                        4 * TestingCluster.OPS_PER_SECOND, 1, warm, TestingCluster.LINK_BITS_PER_SECOND, now, 4.0e-4).withClass("fast", 1.0e10)), now);
                h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("s1", true,
                        TestingCluster.OPS_PER_SECOND, 0, warm, TestingCluster.LINK_BITS_PER_SECOND, now, 0.0).withClass("slow", 1.0e10)), now);
                var json = (com.fasterxml.jackson.databind.node.ObjectNode) new com.fasterxml.jackson.databind
                        .ObjectMapper().readTree(r.tableJson());
                json.put("idleGate", gates[v]);
                h.processBroadcastElement(BroadcastUpdate.of(new ControllerTable(v + 1, false, 0, "test", in.rates(),
                        in.cluster(), r.objective(), r.linkLoad(), r.predictedJctSeconds(), json.toString())), now);
                h.processElement(request("r" + v, "one"), now);
            }
            for (PlacementDecision d : h.extractOutputValues()) {
                first.add(d.tableVersion() + ":" + d.stages().get(0).server());
            }
        }
        assertThat(first).containsExactly("1:s1", "2:s0", "3:s0", "4:s1");
    }

    /**
     * A server is warm for a model only where its report covers the model's bytes by the catalog. A one-task model of
     * 1 ms and 50 MB, a cold start of 0.2 s: s0 idle, reporting 25 MB of it loaded (an executor evicted part of it),
     * s1 holding all 50 MB with 50 ms of backlog and one request ongoing (0.05 + 0.001 + 0.001 s). s0 counted warm
     * would take the request (1 ms); it is cold (0.201 s), so s1 does. Once s0 reports all 50 MB, the next request
     * goes to it. Without the model's bytes in the catalog, the reported models are warm as they stand.
     */
    @Test
    void partlyLoadedModel_isColdThere_untilTheServerHoldsItWhole() throws Exception {
        assertThat(placeAfterReports(5.0e7, 2.5e7)).containsExactly("s1", "s0");
        assertThat(placeAfterReports(5.0e7, 5.0e7)).first().isEqualTo("s0");
        assertThat(placeAfterReports(null, 2.5e7)).first().isEqualTo("s0");
    }

    /**
     * The servers of two requests: the first after s0 reports {@code s0Bytes} of model "one" ({@code modelBytes} by
     * the catalog, null: not given) and s1 all of it, the second after s0 reports holding all of it.
     */
    private static List<String> placeAfterReports(Double modelBytes, double s0Bytes) throws Exception {
        CatalogDag one = new CatalogDag("one", List.of(new CatalogTask("x", 1e9, modelBytes)), List.of());
        try (var h = ProcessFunctionTestHarnesses.forBroadcastProcessFunction(
                new PlacementFunction("inference-requests", 3, new NonaPlacerFactory()).coldStart(0.2, 0),
                PlacementFunction.BROADCAST_STATES)) {
            h.setProcessingTime(1_000);
            h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("s0", true, TestingCluster.OPS_PER_SECOND,
                    0, List.of(new CachedModel("one", Math.round(s0Bytes))), TestingCluster.LINK_BITS_PER_SECOND, 1_000,
                    0.0).withClass("gpu", 1.0e8)), 1_000);
            h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("s1", true, TestingCluster.OPS_PER_SECOND,
                    1, List.of(new CachedModel("one", 50_000_000)), TestingCluster.LINK_BITS_PER_SECOND, 1_000, 0.05)
                    .withClass("gpu", 1.0e8)), 1_000);
            h.processBroadcastElement(BroadcastUpdate.of(ModelCatalogEntry.of("one", one)), 1_000);
            h.processElement(request("r0", "one"), 1_000);
            h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("s0", true, TestingCluster.OPS_PER_SECOND,
                    0, List.of(new CachedModel("one", 50_000_000)), TestingCluster.LINK_BITS_PER_SECOND, 1_001, 0.0)
                    .withClass("gpu", 1.0e8)), 1_001);
            h.processElement(request("r1", "one"), 1_001);
            return h.extractOutputValues().stream().map(d -> d.stages().get(0).server()).toList();
        }
    }

    /**
     * {@code placement.cold-start.weight} reaches the rule: s0 is idle and does not hold the model (a 0.2 s load), s1
     * holds it behind 0.5 s of work. At weight 1 the load is cheaper than the wait and the request goes to s0; at
     * weight 10 the load is priced 2 s, and it waits on s1.
     */
    @Test
    void coldStartWeight_pricesTheLoad_inTheOperatorsRule() throws Exception {
        assertThat(placeWithWeight(1)).isEqualTo("s0");
        assertThat(placeWithWeight(10)).isEqualTo("s1");
    }

    private static String placeWithWeight(double weight) throws Exception {
        try (var h = ProcessFunctionTestHarnesses.forBroadcastProcessFunction(
                new PlacementFunction("inference-requests", 3, new NonaPlacerFactory()).coldStart(0.2, 0, weight),
                PlacementFunction.BROADCAST_STATES)) {
            h.setProcessingTime(1_000);
            h.processBroadcastElement(BroadcastUpdate.of(ModelCatalogEntry.of("one",
                    new CatalogDag("one", List.of(new CatalogTask("x", 1e9, 5.0e7)), List.of()))), 1_000);
            h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("s0", true, TestingCluster.OPS_PER_SECOND,
                    0, List.of(), TestingCluster.LINK_BITS_PER_SECOND, 1_000, 0.0).withClass("gpu", 1.0e8)), 1_000);
            h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("s1", true, TestingCluster.OPS_PER_SECOND,
                    1, List.of(new CachedModel("one", 50_000_000)), TestingCluster.LINK_BITS_PER_SECOND, 1_000, 0.5)
                    .withClass("gpu", 1.0e8)), 1_000);
            h.processElement(request("r0", "one"), 1_000);
            return h.extractOutputValues().get(0).stages().get(0).server();
        }
    }

    /**
     * {@code placement.cold-start.rent-half-life} reaches the rule. At weight 10 a load of s0 (idle, cold, 0.2 s) is
     * priced 2 s, so each request waits on s1 (warm, 0.5 s of work); every second a request comes and both servers
     * report the same, and each time not loading on s0 costs the request 0.501 s. With a half-life of 60 s the rent
     * adds up (0.50, 1.00, 1.48, 1.96, 2.44 s) and the fifth request loads the model on s0; with 500 ms it is a
     * quarter of itself a second later, tends to 0.501 / (1 - 1/4) = 0.67 s, and all six wait on s1.
     */
    @Test
    void rentHalfLife_decaysTheRent_inTheOperatorsRule() throws Exception {
        assertThat(placeEverySecond(Duration.ofSeconds(60))).containsExactly("s1", "s1", "s1", "s1", "s0", "s1");
        assertThat(placeEverySecond(Duration.ofMillis(500))).containsOnly("s1");
    }

    private static List<String> placeEverySecond(Duration halfLife) throws Exception {
        try (var h = ProcessFunctionTestHarnesses.forBroadcastProcessFunction(
                new PlacementFunction("inference-requests", 3, new NonaPlacerFactory()).coldStart(0.2, 0, 10)
                        .rentHalfLife(halfLife), PlacementFunction.BROADCAST_STATES)) {
            h.setProcessingTime(1_000);
            h.processBroadcastElement(BroadcastUpdate.of(ModelCatalogEntry.of("one",
                    new CatalogDag("one", List.of(new CatalogTask("x", 1e9, 5.0e7)), List.of()))), 1_000);
            for (int i = 0; i < 6; i++) {
                long now = 1_000 + 1_000L * i;
                h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("s0", true,
                        TestingCluster.OPS_PER_SECOND, 0, List.of(), TestingCluster.LINK_BITS_PER_SECOND, now, 0.0)
                        .withClass("gpu", 1.0e8)), now);
                h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("s1", true,
                        TestingCluster.OPS_PER_SECOND, 1, List.of(new CachedModel("one", 50_000_000)),
                        TestingCluster.LINK_BITS_PER_SECOND, now, 0.5).withClass("gpu", 1.0e8)), now);
                h.processElement(request("r" + i, "one", now), now);
            }
            return h.extractOutputValues().stream().map(d -> d.stages().get(0).server()).toList();
        }
    }

    /**
     * The model's bytes are read again when its catalog entry changes: without bytes, s0's 25 MB of the model count
     * as warm and the first request goes there; once the entry gives 50 MB, s0's next report of 25 MB is cold
     * (0.2 s to load the rest) and the request goes to s1, which holds all of it behind 50 ms of backlog.
     */
    @Test
    void catalogEntryGivingTheModelsBytes_rejudgesTheNextReports() throws Exception {
        try (var h = ProcessFunctionTestHarnesses.forBroadcastProcessFunction(
                new PlacementFunction("inference-requests", 3, new NonaPlacerFactory()).coldStart(0.2, 0),
                PlacementFunction.BROADCAST_STATES)) {
            h.setProcessingTime(1_000);
            h.processBroadcastElement(BroadcastUpdate.of(ModelCatalogEntry.of("one",
                    new CatalogDag("one", List.of(new CatalogTask("x", 1e9)), List.of()))), 1_000);
            for (int i = 0; i < 2; i++) {
                long now = 1_000 + i;
                if (i == 1) {
                    h.processBroadcastElement(BroadcastUpdate.of(ModelCatalogEntry.of("one",
                            new CatalogDag("one", List.of(new CatalogTask("x", 1e9, 5.0e7)), List.of()))), now);
                }
                h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("s0", true,
                        TestingCluster.OPS_PER_SECOND, 0, List.of(new CachedModel("one", 25_000_000)),
                        TestingCluster.LINK_BITS_PER_SECOND, now, 0.0).withClass("gpu", 1.0e8)), now);
                h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("s1", true,
                        TestingCluster.OPS_PER_SECOND, 1, List.of(new CachedModel("one", 50_000_000)),
                        TestingCluster.LINK_BITS_PER_SECOND, now, 0.05).withClass("gpu", 1.0e8)), now);
                h.processElement(request("r" + i, "one"), now);
            }
            assertThat(h.extractOutputValues()).extracting(d -> d.stages().get(0).server()).containsExactly("s0", "s1");
        }
    }
}
