package dev.nona.controller.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.calibration.JctTally;
import dev.nona.controller.TestingCluster;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.optimize.NonaTableSolver;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

final class CalibrationIntakeTest {
    private final TestingLoop loop = new TestingLoop(TestingLoop.settings(Duration.ofMinutes(10)),
            new NonaTableSolver(false));

    private void servers(int n) throws Exception {
        for (int i = 0; i < n; i++) {
            loop.cluster.report(TestingCluster.server("s" + i, 0), loop.io);
        }
        loop.drift.clear(); // the servers' own changes are not what these tests look at
    }

    @Test
    void speedPastTheThreshold_isACause_namingTheServer_andForgetsTheRolledBackTables() throws Exception {
        servers(2);
        loop.rolledBack.update(RolledBack.NONE.with("B"));
        // s1's outcomes show a third of its reported speed; s0's agree with its report (no cause of its own)
        loop.calibration.take(new Learned(0, Map.of("s1", TestingCluster.OPS_PER_SECOND / 3,
                "s0", TestingCluster.OPS_PER_SECOND), Map.of()), loop.io);
        assertThat(loop.drift.value().pendingCause()).as("after the cluster's own change of compute rate")
                .isEqualTo("cluster: compute rate 1.0E12 -> 6.666666666666666E11 ops/s; "
                        + "calibration: server s1 runs at 3.333e+11 ops/s (reports 1.000e+12)");
        assertThat(loop.rolledBack.value()).isNull();
        assertThat(loop.learnedSpeeds.map).containsOnlyKeys("s0", "s1");
    }

    @Test
    void speedsWithinTheThreshold_areUsed_butAreNoCause_andKeepTheRolledBackTables() throws Exception {
        servers(1);
        loop.rolledBack.update(RolledBack.NONE.with("B"));
        loop.calibration.take(new Learned(0, Map.of("s0", TestingCluster.OPS_PER_SECOND * 0.9), Map.of()), loop.io);
        assertThat(loop.drift.value()).isNull();
        assertThat(loop.rolledBack.value().contains("B")).isTrue();
        assertThat(loop.learnedSpeeds.get("s0")).isEqualTo(TestingCluster.OPS_PER_SECOND * 0.9);
    }

    @Test
    void manyServersMoved_nameTheFirstThree_andCountTheRest() throws Exception {
        servers(5);
        Map<String, Double> speeds = new TreeMap<>();
        for (int i = 0; i < 5; i++) {
            speeds.put("s" + i, TestingCluster.OPS_PER_SECOND / 2);
        }
        loop.calibration.take(new Learned(0, speeds, Map.of()), loop.io);
        assertThat(loop.drift.value().pendingCause()).endsWith("; calibration: server s0 runs at 5.000e+11 ops/s "
                + "(reports 1.000e+12), server s1 runs at 5.000e+11 ops/s (reports 1.000e+12), server s2 runs at "
                + "5.000e+11 ops/s (reports 1.000e+12) and 2 more");
    }

    @Test
    void tableOutcomes_goToTheTables() throws Exception {
        ControllerTable v1 = new ControllerTable(1, false, 0, "test", Map.of("fig1", 1.0), TestingCluster.snapshot(1),
                1.0, 0.1, Map.of(), "A");
        loop.tables.publishSolved(v1, loop.io);
        loop.calibration.take(new Learned(0, Map.of(), Map.of(1L, new JctTally(3, 0.3, 0.3))), loop.io);
        loop.calibration.take(new Learned(0, Map.of(), Map.of(1L, new JctTally(2, 0.2, 0.2))), loop.io);
        assertThat(loop.tableOutcomes.get(1L).samples()).isEqualTo(5);
    }
}
