package dev.nona.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

final class SoakTrendTest {
    @Test
    void flatSeries_noGrowth_withinGoal() {
        SoakTrend t = SoakTrend.of(new double[] {50, 50, 50, 50, 50}, 0);
        assertThat(t.slopePerMinute()).isZero();
        assertThat(t.growth()).isZero();
        assertThat(t.withinGoal()).isTrue();
    }

    @Test
    void linearGrowth_isSlopeTimesSpanOverTheFirstMinutesLevel() {
        // minutes 0..10 at 100 + 2 per minute: slope 2, span 10, first level mean(100, 102, 104) = 102
        double[] v = new double[11];
        for (int i = 0; i < v.length; i++) {
            v[i] = 100 + 2 * i;
        }
        SoakTrend t = SoakTrend.of(v, 0);
        assertThat(t.minutes()).isEqualTo(11);
        assertThat(t.slopePerMinute()).isCloseTo(2.0, within(1e-9));
        assertThat(t.firstLevel()).isCloseTo(102.0, within(1e-9));
        assertThat(t.growth()).isCloseTo(20.0 / 102, within(1e-9));
        assertThat(t.withinGoal()).isFalse();
    }

    @Test
    void warmupMinutes_areLeftOut() {
        SoakTrend t = SoakTrend.of(new double[] {10, 80, 100, 100, 100, 100}, 2);
        assertThat(t.minutes()).isEqualTo(4);
        assertThat(t.growth()).isZero();
        assertThat(t.firstLevel()).isEqualTo(100.0);
    }

    @Test
    void nonFiniteMinutes_areLeftOutOfTheFit() {
        SoakTrend t = SoakTrend.of(new double[] {100, Double.NaN, 100, 100}, 0);
        assertThat(t.minutes()).isEqualTo(3);
        assertThat(t.slopePerMinute()).isZero();
    }

    @Test
    void falling_isNegativeGrowth_withinGoal() {
        SoakTrend t = SoakTrend.of(new double[] {100, 90, 80}, 0);
        assertThat(t.growth()).isCloseTo(-20.0 / 90, within(1e-9));
        assertThat(t.withinGoal()).isTrue();
    }

    @Test
    void oneMinute_orNoPositiveLevel_hasNoGrowth_andNoVerdict() {
        SoakTrend one = SoakTrend.of(new double[] {5, 7}, 1);
        assertThat(one.minutes()).isEqualTo(1);
        assertThat(one.slopePerMinute()).isNaN();
        assertThat(one.withinGoal()).isNull();
        assertThat(one.toJson()).containsEntry("growthOverRun", null).containsEntry("withinGoal", null);
        SoakTrend zero = SoakTrend.of(new double[] {0, 0, 0, 1}, 0); // first level mean(0, 0, 0)
        assertThat(zero.growth()).isNaN();
        assertThat(zero.withinGoal()).isNull();
    }

    @Test
    void growthMargin_isTheHalfWidthOfTheNinetyFivePercentInterval_workedExample() {
        // minutes 0..3 at 1, 3, 2, 4: mean minute 1.5, mean value 2.5, sxx 5, sxy 4, slope b = 0.8;
        // residuals -0.3, 0.9, -0.9, 0.3: sum of squares 1.8, SE(b) = sqrt(1.8 / (2 * 5)) = sqrt(0.18);
        // t(0.975, 2 degrees of freedom) = 4.302653; span 3, first level mean(1, 3, 2) = 2;
        // growth 0.8 * 3 / 2 = 1.2, margin 4.302653 * sqrt(0.18) * 3 / 2 = 2.738189
        SoakTrend t = SoakTrend.of(new double[] {1, 3, 2, 4}, 0);
        assertThat(t.growth()).isCloseTo(1.2, within(1e-12));
        assertThat(t.growthMargin()).isCloseTo(4.302653 * Math.sqrt(0.18) * 1.5, within(1e-6));
        assertThat(t.toJson()).containsEntry("growthMargin95", 2.7382);
    }

    @Test
    void growthMargin_isZeroOnALine_andUnknownWithTwoMinutes() {
        assertThat(SoakTrend.of(new double[] {100, 102, 104, 106}, 0).growthMargin()).isCloseTo(0.0, within(1e-12));
        SoakTrend two = SoakTrend.of(new double[] {100, 110}, 0);
        assertThat(two.growth()).isCloseTo(10.0 / 105, within(1e-12)); // first level mean(100, 110)
        assertThat(two.growthMargin()).isNaN();
        assertThat(two.toJson()).containsEntry("growthMargin95", null);
    }
}
