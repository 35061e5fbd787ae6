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
}
