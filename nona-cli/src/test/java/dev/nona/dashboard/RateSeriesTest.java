package dev.nona.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

final class RateSeriesTest {

    @Test
    void gapsAreZero_andTheHorizonDropsOldSeconds() {
        RateSeries r = new RateSeries(3);
        r.add("m", 10_000, 2);
        r.add("m", 12_500, 1);
        assertThat(r.seconds()).containsExactly(10L, 11L, 12L);
        assertThat(r.perKey().get("m")).containsExactly(2L, 0L, 1L);

        r.add("m", 14_000, 5); // 10 and 11 fall out of the last three seconds
        r.add("m", 10_900, 7); // too late to count

        assertThat(r.seconds()).containsExactly(12L, 13L, 14L);
        assertThat(r.perKey().get("m")).containsExactly(1L, 0L, 5L);
    }

    @Test
    void meanPerSecond_excludesTheNewestSecond_stillFilling() {
        RateSeries r = new RateSeries(10);
        for (long s = 0; s < 4; s++) {
            r.add("a", s * 1000, s); // 0, 1, 2, 3
        }
        assertThat(r.meanPerSecond(2)).containsEntry("a", 1.5); // seconds 1 and 2
        assertThat(new RateSeries(1).meanPerSecond(5)).isEmpty();
    }

    @Test
    void negativeEventTimes_fallInTheirSecond() {
        RateSeries r = new RateSeries(5);
        r.add("m", -1, 1);
        assertThat(r.seconds()).isEqualTo(List.of(-1L));
    }

    @Test
    void horizon_mustBePositive() {
        assertThatThrownBy(() -> new RateSeries(0)).hasMessage("horizon (0 s) must be >= 1");
    }
}
