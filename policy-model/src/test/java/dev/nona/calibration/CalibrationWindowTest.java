package dev.nona.calibration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

final class CalibrationWindowTest {

    @Test
    void workedExample_model_meanP99AndRatioOfMeans() {
        CalibrationWindow w = new CalibrationWindow();
        // observed 2, 4, 6 s against predicted 1, 2, 3 s: means 4 and 2, ratio 2
        w.ok("m", 2, 1, List.of());
        w.ok("m", 4, 2, List.of());
        w.ok("m", 6, 3, List.of());
        w.failed("m");
        w.timedOut("m");
        w.missing("m");
        w.unmatched("m");
        ModelCalibration m = w.report().models().get("m");
        assertThat(m.outcomes()).isEqualTo(5);
        assertThat(m.ok()).isEqualTo(3);
        assertThat(m.failed()).isEqualTo(1);
        assertThat(m.timeouts()).isEqualTo(1);
        assertThat(m.missingOutcomes()).isEqualTo(1);
        assertThat(m.unmatchedOutcomes()).isEqualTo(1);
        assertThat(m.observedMeanJctSeconds()).isCloseTo(4, within(1e-12));
        assertThat(m.predictedMeanJctSeconds()).isCloseTo(2, within(1e-12));
        assertThat(m.calibrationRatio()).isCloseTo(2, within(1e-12));
        assertThat(m.observedP99JctSeconds()).isCloseTo(6, within(0.06));
    }

    @Test
    void ratioOfMeans_notMeanOfRatios() {
        CalibrationWindow w = new CalibrationWindow();
        // per-request ratios 10 and 1 (mean 5.5); ratio of means (1 + 10) / (0.1 + 10) = 1.089...
        w.ok("m", 1, 0.1, List.of());
        w.ok("m", 10, 10, List.of());
        assertThat(w.report().models().get("m").calibrationRatio()).isCloseTo(11 / 10.1, within(1e-12));
    }

    @Test
    void all_mergesModels() {
        CalibrationWindow w = new CalibrationWindow();
        w.ok("a", 1, 1, List.of());
        w.ok("b", 3, 1, List.of());
        w.missing("b");
        ModelCalibration all = w.report().all();
        assertThat(all.ok()).isEqualTo(2);
        assertThat(all.missingOutcomes()).isEqualTo(1);
        assertThat(all.observedMeanJctSeconds()).isCloseTo(2, within(1e-12));
        assertThat(all.calibrationRatio()).isCloseTo(2, within(1e-12));
        assertThat(all.observedP99JctSeconds()).isCloseTo(3, within(0.03));
    }

    @Test
    void noOkOutcome_jctFiguresAreNaN() {
        CalibrationWindow w = new CalibrationWindow();
        w.missing("m");
        ModelCalibration m = w.report().models().get("m");
        assertThat(m.observedMeanJctSeconds()).isNaN();
        assertThat(m.observedP99JctSeconds()).isNaN();
        assertThat(m.calibrationRatio()).isNaN();
        assertThat(m.missingOutcomes()).isEqualTo(1);
    }

    @Test
    void workedExample_servers_speedColdStartAndWhatCounts() {
        CalibrationWindow w = new CalibrationWindow();
        w.ok("m", 5, 5, List.of(
                // 2e12 ops in 4 s of reported compute
                new PartObservation("s1", 2e12, 4.5, 4.0, false),
                // cold, 1e12 ops in 1 s of compute within a 3 s span: a 2 s cold start
                new PartObservation("s2", 1e12, 3.0, 1.0, true)));
        w.ok("m", 5, 5, List.of(
                // warm, no compute reported: its 2 s span is its compute time
                new PartObservation("s1", 1e12, 2.0, null, false),
                // cold, no compute reported: counts in neither speed nor cold start
                new PartObservation("s2", 1e12, 9.0, null, true)));
        w.failed("m"); // a failed request's parts are not given
        CalibrationReport r = w.report();
        ServerTally s1 = r.servers().get("s1");
        assertThat(s1.parts()).isEqualTo(2);
        assertThat(s1.effectiveOpsPerSecond()).isCloseTo(3e12 / 6.0, within(1.0)); // 5e11
        assertThat(s1.meanColdStartSeconds()).isNaN();
        ServerTally s2 = r.servers().get("s2");
        assertThat(s2.parts()).isEqualTo(2);
        assertThat(s2.timedParts()).isEqualTo(1);
        assertThat(s2.effectiveOpsPerSecond()).isCloseTo(1e12, within(1.0));
        assertThat(s2.coldStarts()).isEqualTo(1);
        assertThat(s2.meanColdStartSeconds()).isCloseTo(2.0, within(1e-12));
    }

    @Test
    void unknownOps_partCountsButNotInSpeed() {
        ServerTally t = ServerTally.EMPTY.plus(new PartObservation("s", Double.NaN, 1.0, 1.0, false));
        assertThat(t.parts()).isEqualTo(1);
        assertThat(t.timedParts()).isZero();
        assertThat(t.effectiveOpsPerSecond()).isNaN();
    }

    @Test
    void coldStart_neverNegative_spanRoundedToMilliseconds() {
        PartObservation p = new PartObservation("s", 1, 0.001, 0.0014, true);
        assertThat(p.coldStartSeconds()).isZero();
    }

    @Test
    void restore_givesTheSameReport() {
        CalibrationWindow w = new CalibrationWindow();
        w.ok("m", 2, 1, List.of(new PartObservation("s1", 1e12, 2, 1.0, true)));
        w.missing("n");
        w.version(3, 2, 1);
        CalibrationWindow restored = CalibrationWindow.restore(w.state());
        assertThat(restored.report()).isEqualTo(w.report());
        assertThat(restored.isEmpty()).isFalse();
        assertThat(new CalibrationWindow().isEmpty()).isTrue();
    }

    @Test
    void versions_tallyEachTablesOkOutcomes() {
        CalibrationWindow w = new CalibrationWindow();
        w.version(1, 2, 1);
        w.version(1, 4, 1);
        w.version(2, 9, 3);
        CalibrationReport r = w.report();
        assertThat(r.versions()).containsOnlyKeys(1L, 2L);
        assertThat(r.versions().get(1L)).isEqualTo(new JctTally(2, 6, 2));
        assertThat(r.versions().get(2L).ratio()).isEqualTo(3.0);
        CalibrationWindow justVersions = new CalibrationWindow();
        justVersions.version(1, 1, 1);
        assertThat(justVersions.isEmpty()).isFalse();
    }
}
