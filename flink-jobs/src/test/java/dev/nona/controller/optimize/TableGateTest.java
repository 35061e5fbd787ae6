package dev.nona.controller.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.TestingCluster;
import dev.nona.controller.catalog.DagDigest;
import dev.nona.controller.cluster.ClusterSnapshot;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class TableGateTest {
    private static final SolveInput INPUT = new SolveInput(Map.of("fig1", TestingCluster.figure1()),
            Map.of("fig1", 10.0), TestingCluster.snapshot(2), "rate");

    private static SolveResult result(boolean feasible, double candidate, double current, boolean currentFeasible) {
        return new SolveResult(null, feasible, feasible ? "{}" : null, feasible ? candidate : Double.NaN, 0.5, 0.001,
                Map.of("fig1", 0.02), 3.0, 7, current, currentFeasible, "");
    }

    private static ControllerTable table(long version, boolean fallback) {
        return new ControllerTable(version, fallback, 0, "x", Map.of(), TestingCluster.snapshot(2), 1, 0.5, Map.of(),
                fallback ? null : "{}");
    }

    @Test
    void firstTable_isAlwaysPublished_asVersion1() {
        var v = TableGate.decide(null, INPUT, result(true, 2.0, Double.NaN, false), 5);
        assertThat(v.publish().version()).isEqualTo(1);
        assertThat(v.events()).extracting(ControllerEvent::type)
                .containsExactly(ControllerEventType.REOPTIMIZATION_FINISHED, ControllerEventType.TABLE_PUBLISHED);
        assertThat(v.publish().dagDigests()).as("the DAGs it was solved for, for a later start to check")
                .isEqualTo(Map.of("fig1", DagDigest.of(TestingCluster.figure1())));
    }

    @Test
    void firstTable_afterAFreshStart_followsTheNewestVersionOnTheTopic() {
        var v = TableGate.decide(null, 57, INPUT, result(true, 2.0, Double.NaN, false), 5, Double.POSITIVE_INFINITY);
        assertThat(v.publish().version()).isEqualTo(58);
        assertThat(v.events()).last().satisfies(e -> assertThat(e.details()).containsEntry("tableVersion", 58L));
    }

    @Test
    void betterCandidate_isPublished_andEventRecordsBothPredictions() {
        var v = TableGate.decide(table(3, false), INPUT, result(true, 2.0, 2.5, true), 5);
        assertThat(v.publish().version()).isEqualTo(4);
        ControllerEvent published = v.events().get(1);
        assertThat(published.type()).isEqualTo(ControllerEventType.TABLE_PUBLISHED);
        assertThat(published.details()).containsEntry("candidateObjective", 2.0).containsEntry("currentObjective", 2.5)
                .containsEntry("tableVersion", 4L);
    }

    @Test
    void theOptimisersDiagnostic_isInTheEvents_onlyWhenItSaysSomething() {
        SolveResult r = result(true, 2.0, 2.5, true);
        SolveResult said = new SolveResult(null, true, "{}", 2.0, 0.5, 0.001, Map.of("fig1", 0.02), 3.0, 7, 2.5, true,
                "memory: 'a' (2900000000 bytes), 'b' (2900000000 bytes) fit whole only on the 1 server(s) of ...");

        assertThat(TableGate.decide(table(3, false), INPUT, r, 5).events()).allSatisfy(e ->
                assertThat(e.details()).doesNotContainKey("diagnostic"));
        assertThat(TableGate.decide(table(3, false), INPUT, said, 5).events()).extracting(ControllerEvent::type)
                .containsExactly(ControllerEventType.REOPTIMIZATION_FINISHED, ControllerEventType.TABLE_PUBLISHED);
        assertThat(TableGate.decide(table(3, false), INPUT, said, 5).events()).allSatisfy(e ->
                assertThat(e.details()).containsEntry("diagnostic", said.diagnostic()));
    }

    @Test
    void candidateNotBetter_isRejected_currentStays() {
        var v = TableGate.decide(table(3, false), INPUT, result(true, 2.5, 2.5, true), 5);
        assertThat(v.publish()).isNull();
        assertThat(v.events().get(1).type()).isEqualTo(ControllerEventType.TABLE_REJECTED);
        assertThat(v.events().get(1).details()).containsEntry("candidateObjective", 2.5).containsEntry("currentObjective", 2.5);
    }

    @Test
    void candidateNoBetter_butTheCurrentTableWasSolvedForAnotherCluster_isPublishedAsARefresh() {
        var c = INPUT.cluster();
        var slower = new SolveInput(INPUT.dags(), INPUT.rates(), new ClusterSnapshot(
                c.upServers(), c.opsPerSecond() / 2, c.linkBitsPerSecond()), "calibration: server s0 runs at ...");
        // the current table was solved for the reported speed; the learned one is half: its predictions are stale
        var v = TableGate.decide(table(3, false), slower, result(true, 2.5, 2.5, true), 5, 0.3);
        assertThat(v.publish()).isNotNull();
        assertThat(v.publish().version()).isEqualTo(4);
        assertThat(v.publish().cluster().opsPerSecond()).isEqualTo(c.opsPerSecond() / 2);
        assertThat(v.events().get(1).details()).containsEntry("refreshed", true)
                .hasEntrySatisfying("refreshReason", r -> assertThat((String) r).contains("compute rate"));
        // a worse candidate is still rejected; a move within the threshold does not make the predictions stale
        assertThat(TableGate.decide(table(3, false), slower, result(true, 2.6, 2.5, true), 5, 0.3).publish()).isNull();
        var near = new SolveInput(INPUT.dags(), INPUT.rates(), new ClusterSnapshot(
                c.upServers(), c.opsPerSecond() * 0.9, c.linkBitsPerSecond()), "rate");
        assertThat(TableGate.decide(table(3, false), near, result(true, 2.5, 2.5, true), 5, 0.3).publish()).isNull();
    }

    @Test
    void currentInfeasibleAtNewRates_anyFeasibleCandidateIsPublished() {
        var v = TableGate.decide(table(3, false), INPUT, result(true, 9.0, Double.NaN, false), 5);
        assertThat(v.publish()).isNotNull();
        assertThat(v.publish().fallback()).isFalse();
    }

    @Test
    void infeasibleLoad_publishesFallback_once() {
        var v = TableGate.decide(table(3, false), INPUT, result(false, 0, Double.NaN, false), 5);
        assertThat(v.publish().fallback()).isTrue();
        assertThat(v.publish().version()).isEqualTo(4);
        assertThat(v.events()).extracting(ControllerEvent::type).containsExactly(
                ControllerEventType.REOPTIMIZATION_FINISHED, ControllerEventType.INFEASIBLE_LOAD, ControllerEventType.FALLBACK);
        var again = TableGate.decide(v.publish(), INPUT, result(false, 0, Double.NaN, false), 6);
        assertThat(again.publish()).as("already on the fallback").isNull();
        assertThat(again.events()).extracting(ControllerEvent::type).contains(ControllerEventType.INFEASIBLE_LOAD);
    }

    @Test
    void solverError_keepsCurrent_andSaysWhy() {
        var v = TableGate.decide(table(3, false), INPUT, SolveResult.failed("boom", 1), 5);
        assertThat(v.publish()).isNull();
        assertThat(v.events()).singleElement().satisfies(e -> assertThat(e.details()).containsEntry("error", "boom"));
    }
}
