package dev.nona.controller.placement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.DecisionFormat;
import dev.nona.controller.TestingCluster;
import dev.nona.controller.cluster.ClusterSnapshot;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.optimize.NonaTableSolver;
import dev.nona.controller.optimize.SolveInput;
import dev.nona.controller.optimize.SolveResult;
import dev.nona.controller.source.RequestRecord;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.record.StageAssignment;
import dev.nona.workload.ServerClass;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.streaming.util.BroadcastOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

/**
 * A model no live server holds whole, though each of its tasks fits one, before a table splits it: its requests are
 * held (not dead letters) until the table that splits it arrives, for at most {@code placement.hold-timeout}. The
 * model: a chain of 310 bytes (a 0, b 100, c 100, d 100, e 10) on four servers of 250 bytes, as in
 * {@code NonaTableSolverTest.chainLargerThanEveryUpServer_getsATableSplitIntoPartsThatFit}.
 */
final class SplitAwaitingHoldTest {
    private static final long HOLD_TIMEOUT_MILLIS = 30_000;
    private static final double MEMORY_BYTES = 250;
    static final Map<String, Double> TASK_BYTES = TestingCluster.BIG_CHAIN_TASK_BYTES;
    static final CatalogDag BIG = TestingCluster.bigChain();

    private static BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> harness() throws Exception {
        return ProcessFunctionTestHarnesses.forBroadcastProcessFunction(new PlacementFunction("inference-requests", 3,
                new NonaPlacerFactory(), List.of(), 100, PlacementFunction.DEFAULT_LIVENESS_TIMEOUT_MILLIS,
                DecisionFormat.FULL, HOLD_TIMEOUT_MILLIS), PlacementFunction.BROADCAST_STATES);
    }

    /** Four servers of 250 bytes reporting at {@code now}, and the chain in the catalog. */
    private static void cluster(BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> h,
            long now) throws Exception {
        h.setProcessingTime(now);
        for (int i = 0; i < 4; i++) {
            h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("s" + i, true, TestingCluster.OPS_PER_SECOND,
                    0, List.of(), TestingCluster.LINK_BITS_PER_SECOND, now).withClass("s", MEMORY_BYTES)), now);
        }
        h.processBroadcastElement(BroadcastUpdate.of(ModelCatalogEntry.of("big", BIG)), now);
    }

    static ControllerTable splitTable(long version) {
        ClusterSnapshot small = new ClusterSnapshot(List.of("s0", "s1", "s2", "s3"), TestingCluster.OPS_PER_SECOND,
                TestingCluster.LINK_BITS_PER_SECOND,
                List.of(new ServerClass("s", 4, TestingCluster.OPS_PER_SECOND, MEMORY_BYTES)));
        SolveInput in = new SolveInput(Map.of("big", BIG), Map.of("big", 10.0), small, "test");
        SolveResult r = new NonaTableSolver(false).solve(in, null);
        assertThat(r.error()).isNull();
        return new ControllerTable(version, false, 0, "test", in.rates(), in.cluster(), r.objective(), r.linkLoad(),
                r.predictedJctSeconds(), r.tableJson());
    }

    private static RequestRecord request(String id, long eventTime) {
        return new RequestRecord(InferenceRequest.of(id, "big", "tenant", eventTime, null), null, 2, 42);
    }

    private static List<DeadLetter> deadLetters(BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> h) {
        var out = h.getSideOutput(PlacementFunction.UNPLACED);
        return out == null ? List.of() : out.stream().map(r -> r.getValue()).toList();
    }

    private static List<ControllerEvent> events(BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> h) {
        var out = h.getSideOutput(PlacementFunction.EVENTS);
        return out == null ? List.of() : out.stream().map(r -> r.getValue()).toList();
    }

    /** Each server's bytes of the decision's tasks. */
    private static Map<String, Double> bytesPerServer(PlacementDecision d) {
        return d.stages().stream().collect(Collectors.groupingBy(StageAssignment::server,
                Collectors.summingDouble(st -> TASK_BYTES.get(st.task()))));
    }

    @Test
    void beforeTheFirstTable_requestsAreHeld_thenPlacedInPartsThatFit_whenTheTableArrives() throws Exception {
        try (var h = harness()) {
            cluster(h, 1_000);
            h.processElement(request("r0", 1_000), 1_000);
            h.setProcessingTime(2_000);
            h.processElement(request("r1", 2_000), 2_000);

            assertThat(h.extractOutputValues()).as("nothing places the chain whole").isEmpty();
            assertThat(deadLetters(h)).as("held, not dead letters").isEmpty();
            assertThat(events(h)).singleElement().satisfies(e -> {
                assertThat(e.type()).isEqualTo(ControllerEventType.REQUESTS_HELD);
                assertThat(e.details()).containsEntry("reason", "no table splits the model yet");
            });

            h.setProcessingTime(5_000);
            h.processBroadcastElement(BroadcastUpdate.of(splitTable(1)), 5_000);

            List<PlacementDecision> out = h.extractOutputValues();
            assertThat(out).extracting(PlacementDecision::requestId).containsExactly("r0", "r1");
            assertThat(out).allSatisfy(d -> {
                assertThat(d.tableVersion()).isEqualTo(1);
                assertThat(d.stages()).extracting(StageAssignment::task).containsExactlyInAnyOrder("a", "b", "c", "d", "e");
                assertThat(bytesPerServer(d)).as("split over servers, each part within its memory").hasSizeGreaterThan(1)
                        .allSatisfy((server, bytes) -> assertThat(bytes).isLessThanOrEqualTo(MEMORY_BYTES));
            });
            assertThat(deadLetters(h)).isEmpty();
            assertThat(events(h)).hasSize(2).last().satisfies(e -> {
                assertThat(e.type()).isEqualTo(ControllerEventType.REQUESTS_RELEASED);
                assertThat(e.details()).containsEntry("placed", 2).containsEntry("deadLettered", 0)
                        .containsEntry("heldForMillis", 4_000L);
            });
        }
    }

    /** A report that changes nothing keeps the request held; a server that holds the model whole places it there. */
    @Test
    void aServerLargeEnoughForTheWhole_placesTheHeldRequestWholeThere() throws Exception {
        try (var h = harness()) {
            cluster(h, 1_000);
            h.processElement(request("r0", 1_000), 1_000);
            h.setProcessingTime(2_000);
            h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("s0", true, TestingCluster.OPS_PER_SECOND,
                    0, List.of(), TestingCluster.LINK_BITS_PER_SECOND, 2_000).withClass("s", MEMORY_BYTES)), 2_000);
            assertThat(h.extractOutputValues()).isEmpty();

            h.processBroadcastElement(BroadcastUpdate.of(ServerTelemetry.of("big", true, TestingCluster.OPS_PER_SECOND,
                    0, List.of(), TestingCluster.LINK_BITS_PER_SECOND, 2_000).withClass("b", 400.0)), 2_000);

            assertThat(h.extractOutputValues()).singleElement().satisfies(d -> {
                assertThat(d.requestId()).isEqualTo("r0");
                assertThat(d.tableVersion()).isZero();
                assertThat(d.stages()).extracting(StageAssignment::server).containsOnly("big");
            });
            assertThat(deadLetters(h)).isEmpty();
        }
    }

    @Test
    void noTableWithinTheHoldTimeout_makesEachADeadLetterNamingTheWait() throws Exception {
        try (var h = harness()) {
            cluster(h, 0);
            h.processElement(request("r0", 0), 0);
            h.setProcessingTime(HOLD_TIMEOUT_MILLIS);
            assertThat(deadLetters(h)).isEmpty();

            h.setProcessingTime(HOLD_TIMEOUT_MILLIS + 1);

            assertThat(deadLetters(h)).singleElement().satisfies(dl -> assertThat(dl.reason()).isEqualTo(
                    "held for more than placement.hold-timeout (30000 ms) while the model fits no live server whole "
                            + "and no placement table splits it into parts yet"));
            assertThat(h.extractOutputValues()).isEmpty();
        }
    }

    @Test
    void underTheFallbackTable_aRequestIsADeadLetterAtOnce_forTheFallbackPlacesWhole() throws Exception {
        try (var h = harness()) {
            cluster(h, 1_000);
            h.processBroadcastElement(BroadcastUpdate.of(new ControllerTable(1, true, 0, "infeasible load",
                    Map.of("big", 10.0), null, Double.NaN, Double.NaN, Map.of(), null)), 1_000);

            h.processElement(request("r0", 1_000), 1_000);

            assertThat(deadLetters(h)).singleElement().satisfies(dl -> assertThat(dl.reason())
                    .startsWith("MODEL_UNPLACEABLE: model 'big' (310 bytes) fits no live server whole"));
            assertThat(events(h)).as("no hold").isEmpty();
        }
    }
}
