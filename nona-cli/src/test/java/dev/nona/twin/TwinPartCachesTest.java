package dev.nona.twin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.OutcomePart;
import dev.nona.topics.record.OutcomeStatus;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.record.StageAssignment;
import dev.nona.workload.ColdStartCost;
import dev.nona.workload.ServerClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The twin with server classes: per-server speed, caches of parts by bytes (the simulator's {@code PartCaches}), cold
 * starts of $F + b/B$, eviction, waiting for memory and refused parts. Server s-0 is class {@code big} ($10^{12}$
 * ops/s, 1e9 bytes), s-1 class {@code small} ($5 \cdot 10^{11}$ ops/s, 6e8 bytes); a cold start is 0.1 s + bytes /
 * 1e9 B/s; the link 1e9 bits/s. Model {@code two}: task a (2e9 ops, 4e8 bytes) then b (3e9 ops, 4e8 bytes), 1 MB from
 * a to b; model {@code other}: task x (1e9 ops, 5e8 bytes).
 */
final class TwinPartCachesTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final TwinModel TWO = new TwinModel("two", new CatalogDag("two",
            List.of(new CatalogTask("a", 2e9, 4e8), new CatalogTask("b", 3e9, 4e8)),
            List.of(new CatalogEdge("a", "b", 1e6))));
    private static final TwinModel OTHER = new TwinModel("other", new CatalogDag("other",
            List.of(new CatalogTask("x", 1e9, 5e8)), List.of()));

    private static TwinCluster cluster() {
        return new TwinCluster(TwinOptions.ofClasses(List.of(new ServerClass("big", 1, 1e12, 1e9),
                new ServerClass("small", 1, 5e11, 6e8)), new ColdStartCost(0.1, 1e9), 1e9, 10, Map.of(), Map.of()), T0);
    }

    private static PlacementDecision decision(String id, TwinModel model, String... servers) {
        List<String> tasks = model == TWO ? List.of("a", "b") : List.of("x");
        List<StageAssignment> stages = new ArrayList<>();
        for (int i = 0; i < tasks.size(); i++) {
            stages.add(new StageAssignment(tasks.get(i), servers[i]));
        }
        return PlacementDecision.of(id, model.name(), "t", 1, false, stages, 0.01, T0);
    }

    private static PlacementOutcome only(List<PlacementOutcome> outcomes) {
        assertThat(outcomes).hasSize(1);
        return outcomes.get(0);
    }

    @Test
    void coldStart_loadsThePartsBytesOnceBeforeItsFirstStage_thenWarm() {
        TwinCluster cluster = cluster();

        cluster.submit(decision("r-1", TWO, "s-0", "s-0"), TWO, T0);
        cluster.advanceTo(T0 + 2_000);
        PlacementOutcome cold = only(cluster.drainOutcomes());
        // 0.1 + 8e8 / 1e9 = 0.9 s of load, then a (2 ms) and b (3 ms) at 1e12 ops/s
        assertThat(cold.observedJctSeconds()).isCloseTo(0.905, within(1e-9));
        assertThat(cold.parts()).extracting(OutcomePart::cold).containsExactly(true);
        assertThat(cold.parts().get(0).computeSeconds()).isCloseTo(0.005, within(1e-12));

        cluster.submit(decision("r-2", TWO, "s-0", "s-0"), TWO, T0 + 2_000);
        cluster.advanceTo(T0 + 3_000);
        PlacementOutcome warm = only(cluster.drainOutcomes());
        assertThat(warm.observedJctSeconds()).isCloseTo(0.005, within(1e-9));
        assertThat(warm.parts()).extracting(OutcomePart::cold).containsExactly(false);
        assertThat(cluster.coldStarts()).isEqualTo(1);
    }

    @Test
    void speed_eachServerComputesAtItsClasssSpeed() {
        TwinCluster cluster = cluster();

        cluster.submit(decision("r-1", TWO, "s-0", "s-1"), TWO, T0);
        cluster.advanceTo(T0 + 3_000);
        PlacementOutcome o = only(cluster.drainOutcomes());
        // s-0: load 0.5 s, a 2 ms; the link 8 ms; s-1: its load (0.5 s) starts when b is ready, b 3e9 / 5e11 = 6 ms
        assertThat(o.observedJctSeconds()).isCloseTo(0.502 + 0.008 + 0.5 + 0.006, within(1e-9));
        assertThat(o.parts().get(1).computeSeconds()).isCloseTo(0.006, within(1e-12));
        assertThat(cluster.classFigures()).extracting(TwinCluster.ClassFigures::name, TwinCluster.ClassFigures::partsRun)
                .containsExactly(tuple("big", 1L), tuple("small", 1L));
    }

    @Test
    void memoryViolation_aPartLargerThanItsServer_isNeverRun_failedOutcomeNamingIt() {
        TwinCluster cluster = cluster();

        assertThat(cluster.submit(decision("r-1", TWO, "s-1", "s-1"), TWO, T0)).isNull();
        PlacementOutcome o = only(cluster.drainOutcomes());

        assertThat(o.status()).isEqualTo(OutcomeStatus.FAILED);
        assertThat(o.reason()).isEqualTo("memory: the part of 2 stages on s-1 needs 800000000 bytes, more than its "
                + "memory (600000000 bytes, class small)");
        assertThat(o.parts()).isEmpty();
        assertThat(cluster.memoryViolations()).isEqualTo(1);
        assertThat(cluster.failed()).isEqualTo(1);
        assertThat(cluster.inFlight()).isZero();
        cluster.advanceTo(T0 + 5_000);
        assertThat(cluster.coldStarts()).isZero();
        assertThat(cluster.telemetry(T0 + 5_000)).filteredOn(t -> t.serverId().equals("s-1"))
                .extracting(ServerTelemetry::ongoingRequests, ServerTelemetry::backlogSeconds)
                .containsExactly(tuple(0, 0.0));
    }

    @Test
    void eviction_anIdlePartMakesRoom_leastRecentlyUsedFirst() {
        TwinCluster cluster = cluster();

        cluster.submit(decision("r-1", TWO, "s-0", "s-1"), TWO, T0); // b (4e8) on s-1
        cluster.advanceTo(T0 + 2_000);
        cluster.submit(decision("r-2", OTHER, "s-1"), OTHER, T0 + 2_000); // x (5e8): 9e8 > 6e8, b is idle: evicted
        cluster.advanceTo(T0 + 4_000);
        cluster.drainOutcomes();
        assertThat(cluster.evictions()).isEqualTo(1);

        cluster.submit(decision("r-3", TWO, "s-0", "s-1"), TWO, T0 + 4_000); // b again: cold on s-1, a warm on s-0
        cluster.advanceTo(T0 + 6_000);
        PlacementOutcome o = only(cluster.drainOutcomes());
        assertThat(o.parts()).extracting(OutcomePart::server, OutcomePart::cold)
                .containsExactly(tuple("s-0", false), tuple("s-1", true));
        assertThat(cluster.evictions()).isEqualTo(2); // x made way for b
        assertThat(cluster.memoryViolations()).isZero();
    }

    @Test
    void waiting_aPartThatFitsOnlyOnceRunningPartsFinish_waitsForThem() {
        TwinCluster cluster = cluster();

        cluster.submit(decision("r-1", OTHER, "s-1"), OTHER, T0); // x pins 5e8 of 6e8 until it finishes
        cluster.submit(decision("r-2", TWO, "s-0", "s-1"), TWO, T0); // b (4e8) waits for x
        cluster.advanceTo(T0 + 5_000);
        List<PlacementOutcome> out = cluster.drainOutcomes();

        assertThat(out).extracting(PlacementOutcome::requestId, PlacementOutcome::status).containsExactly(
                tuple("r-1", OutcomeStatus.OK),
                tuple("r-2", OutcomeStatus.OK));
        // x: load 0.6 s + 2 ms = 0.602; b is ready at 0.510 but waits; then its load 0.5 s (evicting x) and 6 ms
        double xDone = 0.6 + 0.002;
        assertThat(out.get(0).observedJctSeconds()).isCloseTo(xDone, within(1e-9));
        assertThat(out.get(1).observedJctSeconds()).isCloseTo(xDone + 0.5 + 0.006, within(1e-9));
        assertThat(cluster.memoryWaits()).isEqualTo(1);
        assertThat(cluster.memoryViolations()).isZero();
    }

    /** Task a (2e12 ops: 2 s on s-0, 4e8 bytes) then b (3e9 ops, 4e8 bytes), 1 MB from a to b. */
    private static final TwinModel LONG = new TwinModel("long", new CatalogDag("long",
            List.of(new CatalogTask("a", 2e12, 4e8), new CatalogTask("b", 3e9, 4e8)),
            List.of(new CatalogEdge("a", "b", 1e6))));

    @Test
    void noHoldWhileWaiting_aPartWaitingForItsInputsPinsNoMemory_anotherRequestRunsBesideIt() {
        TwinCluster cluster = new TwinCluster(TwinOptions.ofClasses(List.of(new ServerClass("big", 1, 1e12, 1e9),
                new ServerClass("small", 1, 5e11, 6e8)), new ColdStartCost(0.1, 1e9), 1e9, 3.5, Map.of(), Map.of()),
                T0);
        List<StageAssignment> stages = List.of(new StageAssignment("a", "s-0"), new StageAssignment("b", "s-1"));

        cluster.submit(PlacementDecision.of("r-1", "long", "t", 1, false, stages, 0.01, T0), LONG, T0);
        cluster.submit(decision("r-2", OTHER, "s-1"), OTHER, T0); // x (5e8) on s-1, where r-1's b (4e8) will run
        cluster.advanceTo(T0 + 10_000);
        List<PlacementOutcome> out = cluster.drainOutcomes();

        // x runs at once: b, still waiting for a (0.5 s load + 2 s), holds nothing on s-1. Were b's memory pinned
        // from its submission, x would wait for b (done at 3.014 s) and its own load: 3.616 s, past the 3.5 s timeout.
        assertThat(out).extracting(PlacementOutcome::requestId, PlacementOutcome::status).containsExactly(
                tuple("r-2", OutcomeStatus.OK),
                tuple("r-1", OutcomeStatus.OK));
        assertThat(out.get(0).observedJctSeconds()).isCloseTo(0.6 + 0.002, within(1e-9));
        // b is ready at 2.5 + 0.008 = 2.508 s, x long done: its load (evicting x) 0.5 s, then 6 ms
        assertThat(out.get(1).observedJctSeconds()).isCloseTo(2.508 + 0.5 + 0.006, within(1e-9));
        assertThat(cluster.memoryWaits()).isZero();
        assertThat(cluster.evictions()).isEqualTo(1);
    }

    @Test
    void crossedPartsOnFullServers_noHoldWhileWaiting_everyRequestCompletes() {
        // two servers of 6e8, a request every 50 ms: two thirds run a and b crossed between them (a on one, b on the
        // other; each 4e8, so a server holds one at a time), a third x (5e8) on either. Far more than the servers
        // can do in 10 s; a 60 s timeout. Under the rule that pinned a part from its request's arrival, 73 timed out
        // (every request from the 127th on): parts waiting for their inputs held memory that ready stages waited for.
        TwinCluster cluster = new TwinCluster(TwinOptions.ofClasses(List.of(new ServerClass("small", 2, 5e11, 6e8)),
                new ColdStartCost(0.1, 1e9), 1e9, 60, Map.of(), Map.of()), T0);
        Random random = new Random(7);
        int requests = 0;
        for (int i = 0; i < 200; i++) {
            long at = T0 + i * 50L;
            if (random.nextInt(3) == 0) {
                cluster.submit(decision("x-" + i, OTHER, "s-" + random.nextInt(2)), OTHER, at);
            } else {
                int first = random.nextInt(2);
                cluster.submit(decision("r-" + i, TWO, "s-" + first, "s-" + (1 - first)), TWO, at);
            }
            requests++;
        }
        cluster.advanceTo(T0 + 600_000);

        assertThat(cluster.drainOutcomes()).hasSize(requests).allSatisfy(
                o -> assertThat(o.status()).as(o.requestId() + ": " + o.reason()).isEqualTo(OutcomeStatus.OK));
        assertThat(cluster.memoryWaits()).isPositive();
        assertThat(cluster.inFlight()).isZero();
    }

    @Test
    void telemetry_reportsClassMemoryAndTheBytesOfEachLoadedModel() {
        TwinCluster cluster = cluster();
        cluster.submit(decision("r-1", TWO, "s-0", "s-1"), TWO, T0);
        cluster.advanceTo(T0 + 2_000);

        List<ServerTelemetry> status = cluster.telemetry(T0 + 2_000);

        assertThat(status).extracting(ServerTelemetry::serverId, ServerTelemetry::serverClass,
                ServerTelemetry::memoryBytes, ServerTelemetry::opsPerSecond).containsExactly(
                        tuple("s-0", "big", 1e9, 1e12),
                        tuple("s-1", "small", 6e8, 5e11));
        assertThat(status.get(0).cachedModels()).containsExactly(new CachedModel("two", 400_000_000L));
        assertThat(status.get(1).cachedModels()).containsExactly(new CachedModel("two", 400_000_000L));
    }

    @Test
    void telemetry_reportsFreeMemory_theMemoryLessWhatReadyAndRunningStagesPin() {
        TwinCluster cluster = cluster();
        cluster.submit(decision("r-1", OTHER, "s-1"), OTHER, T0); // x pins 5e8 of 6e8 while it loads (0.6 s) and runs
        cluster.advanceTo(T0 + 300);

        List<ServerTelemetry> running = cluster.telemetry(T0 + 300);
        assertThat(running).extracting(ServerTelemetry::serverId, ServerTelemetry::memoryBytes,
                ServerTelemetry::freeMemoryBytes).containsExactly(
                        tuple("s-0", 1e9, 1e9),
                        tuple("s-1", 6e8, 1e8));

        cluster.advanceTo(T0 + 2_000);
        assertThat(only(cluster.drainOutcomes()).status()).isEqualTo(OutcomeStatus.OK);
        List<ServerTelemetry> idle = cluster.telemetry(T0 + 2_000);
        // x stays loaded but idle: a new part may evict it
        assertThat(idle.get(1).cachedModels()).containsExactly(new CachedModel("other", 500_000_000L));
        assertThat(idle).extracting(ServerTelemetry::freeMemoryBytes).containsExactly(1e9, 6e8);
    }

    @Test
    void telemetry_withoutClasses_isAsBefore_noClassNoMemory() {
        TwinCluster cluster = new TwinCluster(new TwinOptions(2, 1e12, 1e9, 0, 0.5, 10, Map.of(), Map.of()), T0);

        assertThat(cluster.telemetry(T0)).allSatisfy(t -> {
            assertThat(t.serverClass()).isNull();
            assertThat(t.memoryBytes()).isNull();
            assertThat(t.freeMemoryBytes()).isNull();
        });
    }
}
