package dev.nona.calibration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

final class RollbackRuleTest {
    private final RollbackRule rule = new RollbackRule(0.2, 100);

    private static JctTally tally(long n, double observedMean, double predictedMean) {
        return new JctTally(n, n * observedMean, n * predictedMean);
    }

    @Test
    void sameRates_newTableObservedThreeTimesWorse_isRolledBack_withBothFigures() {
        // previous: observed 0.10 s against 0.08 s predicted (r = 1.25); at unchanged rates it is predicted 0.08 s
        // again, so it would give 1.25 * 0.08 = 0.10 s; the new table observed 0.30 s > 1.2 * 0.10 s.
        var verdict = rule.judge(tally(200, 0.30, 0.05), tally(150, 0.10, 0.08), 0.08);
        assertThat(verdict).isPresent();
        assertThat(verdict.get().observedMeanJctSeconds()).isCloseTo(0.30, within(1e-12));
        assertThat(verdict.get().previousExpectedMeanJctSeconds()).isCloseTo(0.10, within(1e-12));
        assertThat(verdict.get().previousObservedMeanJctSeconds()).isCloseTo(0.10, within(1e-12));
        assertThat(verdict.get().previousCalibrationRatio()).isCloseTo(1.25, within(1e-12));
    }

    @Test
    void withinTheMargin_isKept() {
        // 0.119 s <= 1.2 * 0.10 s
        assertThat(rule.judge(tally(200, 0.119, 0.05), tally(150, 0.10, 0.08), 0.08)).isEmpty();
    }

    @Test
    void higherLoad_theNewTableIsSlowerThanThePreviousWas_butFasterThanThePreviousWouldBeNow_isKept() {
        // The rates rose: the previous table was observed at 0.10 s (r = 1.0) but is predicted 0.40 s at the new
        // rates. The new table's 0.30 s is three times the previous observation, and still better than 0.40 s.
        assertThat(rule.judge(tally(500, 0.30, 0.28), tally(500, 0.10, 0.10), 0.40)).isEmpty();
    }

    @Test
    void unknownPrediction_fallsBackToThePreviousObservedMean() {
        assertThat(rule.judge(tally(200, 0.13, 0.05), tally(150, 0.10, 0.08), Double.NaN)).isPresent();
        assertThat(rule.judge(tally(200, 0.11, 0.05), tally(150, 0.10, 0.08), Double.NaN)).isEmpty();
    }

    @Test
    void tooFewSamplesOfEither_noVerdictYet() {
        assertThat(rule.judge(tally(99, 1.0, 0.05), tally(150, 0.10, 0.08), 0.08)).isEmpty();
        assertThat(rule.judge(tally(200, 1.0, 0.05), tally(99, 0.10, 0.08), 0.08)).isEmpty();
    }

    @Test
    void badSettings_nameTheValue() {
        assertThatThrownBy(() -> new RollbackRule(-0.1, 10)).hasMessageContaining("rollback margin (-0.1)");
        assertThatThrownBy(() -> new RollbackRule(0.1, 0)).hasMessageContaining("rollback min samples (0)");
    }

    @Test
    void tally_meansAndRatio() {
        JctTally t = JctTally.EMPTY.plus(2, 1).plus(4, 1);
        assertThat(t.samples()).isEqualTo(2);
        assertThat(t.observedMean()).isEqualTo(3.0);
        assertThat(t.predictedMean()).isEqualTo(1.0);
        assertThat(t.ratio()).isEqualTo(3.0);
        assertThat(JctTally.EMPTY.ratio()).isNaN();
        assertThat(t.plus(t).samples()).isEqualTo(4);
    }
}
