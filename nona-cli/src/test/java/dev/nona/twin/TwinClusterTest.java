package dev.nona.twin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.OutcomePart;
import dev.nona.topics.record.OutcomeStatus;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.record.StageAssignment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * The twin's cluster driven by a fake wall clock (epoch milliseconds passed in), on a two-task model: task a
 * (2e9 ops) then task b (3e9 ops), with 1 MB from a to b. At $\nu = 10^{12}$ ops/s a takes 2 ms and b 3 ms; at
 * $\mu = 10^9$ bits/s the 8e6-bit transfer takes 8 ms.
 */
final class TwinClusterTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final TwinModel TWO = new TwinModel("two", new CatalogDag("two",
            List.of(new CatalogTask("a", 2e9), new CatalogTask("b", 3e9)), List.of(new CatalogEdge("a", "b", 1e6))));
    private static final TwinModel OTHER = new TwinModel("other", new CatalogDag("other",
            List.of(new CatalogTask("x", 1e9)), List.of()));

    private static TwinOptions options(int cacheSlots, Map<String, Double> slow, Map<String, Double> silence) {
        return new TwinOptions(2, 1e12, 1e9, cacheSlots, 0.5, 10, slow, silence);
    }

    private static PlacementDecision decision(String id, TwinModel model, long eventTime, String... servers) {
        List<String> tasks = model == TWO ? List.of("a", "b") : List.of("x");
        List<StageAssignment> stages = new ArrayList<>();
        for (int i = 0; i < tasks.size(); i++) {
            stages.add(new StageAssignment(tasks.get(i), servers[i]));
        }
        return PlacementDecision.of(id, model.name(), "t", 3, false, stages, 0.013, eventTime);
    }

    @Test
    void submit_twoPartsOnTwoServers_outcomeIsComputePlusTransferPlusCompute() {
        TwinCluster cluster = new TwinCluster(options(0, Map.of(), Map.of()), T0);

        assertThat(cluster.submit(decision("r-1", TWO, T0 + 90, "s-0", "s-1"), TWO, T0 + 100)).isNull();
        cluster.advanceTo(T0 + 112);
        assertThat(cluster.drainOutcomes()).isEmpty();
        cluster.advanceTo(T0 + 114); // 113 ms is a hair past 0.113 s in floating point
        List<PlacementOutcome> out = cluster.drainOutcomes();

        // a: 100..102 ms on s-0; transfer 102..110 ms; b: 110..113 ms on s-1
        assertThat(out).hasSize(1);
        PlacementOutcome o = out.get(0);
        assertThat(o.status()).isEqualTo(OutcomeStatus.OK);
        assertThat(o.requestId()).isEqualTo("r-1");
        assertThat(o.tableVersion()).isEqualTo(3);
        assertThat(o.linkBytes()).isEqualTo(1_000_000L);
        assertThat(o.completedAt()).isEqualTo(T0 + 113);
        assertThat(o.observedJctSeconds()).isCloseTo(0.013, within(1e-9)); // from receipt (100 ms), not eventTime
        assertThat(o.parts()).extracting(OutcomePart::server, OutcomePart::startedAt, OutcomePart::finishedAt,
                OutcomePart::cold).containsExactly(
                        Tuple.tuple("s-0", T0 + 100, T0 + 102, false),
                        Tuple.tuple("s-1", T0 + 110, T0 + 113, false));
        assertThat(o.parts().get(0).computeSeconds()).isCloseTo(0.002, within(1e-12));
        assertThat(o.parts().get(1).computeSeconds()).isCloseTo(0.003, within(1e-12));
        assertThat(cluster.inFlight()).isZero();
    }

    @Test
    void submit_bothTasksOnOneServer_noTransferAndFifoBehindAnEarlierRequest() {
        TwinCluster cluster = new TwinCluster(options(0, Map.of(), Map.of()), T0);

        cluster.submit(decision("r-1", TWO, T0, "s-0", "s-0"), TWO, T0);
        cluster.submit(decision("r-2", TWO, T0, "s-0", "s-0"), TWO, T0 + 1);
        cluster.advanceTo(T0 + 1_000);
        List<PlacementOutcome> out = cluster.drainOutcomes();

        // r-1's a runs 0..2 ms. r-2 arrives at 1 ms and its a queues; when r-1's a finishes, the server starts the
        // queued r-2 a (2..4) before r-1's b joins the queue (FIFO): r-1's b runs 4..7, r-2's b 7..10
        assertThat(out).extracting(PlacementOutcome::requestId).containsExactly("r-1", "r-2");
        assertThat(out.get(0).observedJctSeconds()).isCloseTo(0.007, within(1e-9));
        assertThat(out.get(0).linkBytes()).isZero();
        assertThat(out.get(1).observedJctSeconds()).isCloseTo(0.009, within(1e-9));
        assertThat(out.get(1).parts()).singleElement().satisfies(p -> {
            assertThat(p.startedAt()).isEqualTo(T0 + 2);
            assertThat(p.finishedAt()).isEqualTo(T0 + 10);
            assertThat(p.computeSeconds()).isCloseTo(0.005, within(1e-12));
        });
    }

    @Test
    void submit_modelNotLoaded_startsColdThenWarmThenColdAgainAfterEviction() {
        TwinCluster cluster = new TwinCluster(options(1, Map.of(), Map.of()), T0);

        cluster.submit(decision("r-1", TWO, T0, "s-0", "s-0"), TWO, T0);
        cluster.advanceTo(T0 + 1_000);
        cluster.submit(decision("r-2", TWO, T0, "s-0", "s-0"), TWO, T0 + 1_000);
        cluster.advanceTo(T0 + 2_000);
        cluster.submit(decision("r-3", OTHER, T0, "s-0"), OTHER, T0 + 2_000); // one slot: evicts "two"
        cluster.advanceTo(T0 + 3_000);
        cluster.submit(decision("r-4", TWO, T0, "s-0", "s-0"), TWO, T0 + 3_000);
        cluster.advanceTo(T0 + 4_000);
        List<PlacementOutcome> out = cluster.drainOutcomes();

        assertThat(out).extracting(o -> o.parts().get(0).cold()).containsExactly(true, false, true, true);
        assertThat(out.get(0).observedJctSeconds()).isCloseTo(0.505, within(1e-9)); // T_CS 0.5 s + 5 ms
        assertThat(out.get(0).parts().get(0).computeSeconds()).isCloseTo(0.005, within(1e-12)); // without the load
        assertThat(out.get(1).observedJctSeconds()).isCloseTo(0.005, within(1e-9));
        assertThat(cluster.coldStarts()).isEqualTo(3);
        assertThat(cluster.telemetry(T0 + 4_000).get(0).cachedModels()).extracting(c -> c.model()).containsExactly("two");
    }

    @Test
    void slowServer_computesFactorTimesLongerAndReportsItsNominalSpeed() {
        TwinCluster cluster = new TwinCluster(options(0, Map.of("s-1", 2.0), Map.of()), T0);

        cluster.submit(decision("r-1", TWO, T0, "s-0", "s-1"), TWO, T0);
        cluster.advanceTo(T0 + 1_000);
        PlacementOutcome o = cluster.drainOutcomes().get(0);

        // a 0..2 ms, transfer 2..10 ms, b 10..16 ms (3 ms x 2)
        assertThat(o.observedJctSeconds()).isCloseTo(0.016, within(1e-9));
        assertThat(o.parts().get(1).computeSeconds()).isCloseTo(0.006, within(1e-12));
        assertThat(cluster.telemetry(T0 + 1_000)).extracting(ServerTelemetry::opsPerSecond).containsOnly(1e12);
    }

    @Test
    void silencedServer_stopsReportingAndItsRequestsTimeOutWhileOthersComplete() {
        TwinCluster cluster = new TwinCluster(options(0, Map.of(), Map.of("s-1", 1.0)), T0);
        assertThat(cluster.telemetry(T0 + 999)).extracting(ServerTelemetry::serverId).containsExactly("s-0", "s-1");

        cluster.submit(decision("split", TWO, T0, "s-0", "s-1"), TWO, T0 + 2_000);
        cluster.submit(decision("local", TWO, T0, "s-0", "s-0"), TWO, T0 + 2_000);
        cluster.advanceTo(T0 + 11_999);
        List<PlacementOutcome> early = cluster.drainOutcomes();
        cluster.advanceTo(T0 + 12_000);
        List<PlacementOutcome> late = cluster.drainOutcomes();

        assertThat(cluster.telemetry(T0 + 12_000)).extracting(ServerTelemetry::serverId).containsExactly("s-0");
        assertThat(early).singleElement().satisfies(o -> {
            assertThat(o.requestId()).isEqualTo("local");
            assertThat(o.status()).isEqualTo(OutcomeStatus.OK);
        });
        assertThat(late).singleElement().satisfies(o -> {
            assertThat(o.requestId()).isEqualTo("split");
            assertThat(o.status()).isEqualTo(OutcomeStatus.TIMEOUT);
            assertThat(o.completedAt()).isEqualTo(T0 + 12_000);
            assertThat(o.observedJctSeconds()).isCloseTo(10.0, within(1e-9));
            assertThat(o.parts()).extracting(OutcomePart::server).containsExactly("s-0"); // a ran; b never did
            assertThat(o.reason()).isEqualTo("not complete 10 s after the twin received it: 1 of 2 stages left, "
                    + "on s-1 (silent)");
        });
        assertThat(cluster.inFlight()).isZero();
        assertThat(cluster.timedOut()).isEqualTo(1);
    }

    @Test
    void telemetry_countsOngoingRequestsAndTheirUnfinishedNominalWork() {
        TwinCluster cluster = new TwinCluster(options(0, Map.of("s-1", 2.0), Map.of()), T0);

        cluster.submit(decision("r-1", TWO, T0, "s-0", "s-1"), TWO, T0);
        List<ServerTelemetry> atStart = cluster.telemetry(T0);
        cluster.advanceTo(T0 + 5);
        List<ServerTelemetry> afterA = cluster.telemetry(T0 + 5);
        cluster.advanceTo(T0 + 100);
        List<ServerTelemetry> done = cluster.telemetry(T0 + 100);

        assertThat(atStart).extracting(ServerTelemetry::ongoingRequests).containsExactly(1, 1);
        assertThat(atStart).extracting(ServerTelemetry::backlogSeconds).containsExactly(0.002, 0.003); // nominal
        assertThat(afterA).extracting(ServerTelemetry::ongoingRequests).containsExactly(0, 1);
        assertThat(afterA).extracting(ServerTelemetry::backlogSeconds).containsExactly(0.0, 0.003);
        assertThat(done).extracting(ServerTelemetry::ongoingRequests).containsExactly(0, 0);
        assertThat(done).extracting(ServerTelemetry::linkBitsPerSecond).containsOnly(1e9);
        assertThat(done).allSatisfy(t -> assertThat(t.up()).isTrue());
    }

    @Test
    void submit_badStages_isRejectedWithAKindAndAReason() {
        TwinCluster cluster = new TwinCluster(options(0, Map.of(), Map.of()), T0);

        TwinCluster.Rejection unknownServer = cluster.submit(decision("r-1", TWO, T0, "s-0", "s-7"), TWO, T0);
        TwinCluster.Rejection missing = cluster.submit(PlacementDecision.of("r-2", "two", "t", 1, false,
                List.of(new StageAssignment("a", "s-0")), 0.01, T0), TWO, T0);
        TwinCluster.Rejection unknownTask = cluster.submit(PlacementDecision.of("r-3", "two", "t", 1, false,
                List.of(new StageAssignment("a", "s-0"), new StageAssignment("zz", "s-0")), 0.01, T0), TWO, T0);

        assertThat(unknownServer).isEqualTo(new TwinCluster.Rejection("unknown server",
                "stage 'b' names server 's-7', not one of s-0 .. s-1"));
        assertThat(missing).isEqualTo(new TwinCluster.Rejection("stages not the model's tasks",
                "1 stages for the 2 tasks of model 'two'"));
        assertThat(unknownTask.reason()).isEqualTo("stage task 'zz' is not a task of model 'two'");
        assertThat(cluster.inFlight()).isZero();
    }
}
