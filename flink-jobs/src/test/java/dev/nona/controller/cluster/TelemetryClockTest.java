package dev.nona.controller.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class TelemetryClockTest {
    private final TelemetryClock clock = new TelemetryClock(3_000);

    @Test
    void reportTime_isTheEventTime_butNeverLaterThanArrival() {
        assertThat(TelemetryClock.reportTime(1_000, 5_000)).isEqualTo(1_000);
        assertThat(TelemetryClock.reportTime(9_000, 5_000)).as("a server clock ahead").isEqualTo(5_000);
    }

    @Test
    void staleReport_appliesOnlyToAServerLiveNow() {
        assertThat(clock.isStale(17_000, 20_000)).isFalse();
        assertThat(clock.isStale(16_999, 20_000)).isTrue();
        assertThat(clock.applies(0, 20_000, false)).as("20 s old, server not live").isFalse();
        assertThat(clock.applies(0, 20_000, true)).as("keeps a live server heard").isTrue();
        assertThat(clock.applies(19_000, 20_000, false)).isTrue();
    }

    @Test
    void clock_isProcessingTime_whileReportsFlow_andStopsHalfATimeoutPastTheNewestReport() {
        assertThat(clock.clock(5_000)).as("no report yet").isEqualTo(5_000);
        clock.observe(10_000, 10_200);
        assertThat(clock.clock(10_400)).isEqualTo(10_400);
        assertThat(clock.clock(30_000)).isEqualTo(11_500);
        clock.observe(4_000, 20_000);
        assertThat(clock.progress()).as("an older report does not move the stream back").isEqualTo(10_000);
        assertThat(clock.reaches(11_500)).isEqualTo(11_500);
        assertThat(clock.reaches(11_501)).as("only a report moves the clock there").isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void stall_isNoReportForLongerThanTheTimeout() {
        assertThat(clock.isStalled(1_000_000)).as("no report yet").isFalse();
        assertThat(clock.stallAt()).isEqualTo(Long.MAX_VALUE);
        clock.observe(2_000, 10_000); // behind: made 8 s before it arrived
        assertThat(clock.isStalled(13_000)).as("a report arrived 3 s ago").isFalse();
        assertThat(clock.isStalled(13_001)).isTrue();
        assertThat(clock.stallAt()).isEqualTo(13_001);
    }

    @Test
    void timeout_mustBePositive() {
        assertThatThrownBy(() -> new TelemetryClock(0)).hasMessage("cluster.liveness-timeout (0 ms) must be > 0");
    }
}
