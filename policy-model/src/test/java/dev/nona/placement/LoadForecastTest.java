package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

final class LoadForecastTest {
    private static final double EPS = 1e-12;

    /** {@code servers} idle servers of 1 op/s, rings as the ledger sizes them for {@code target}. */
    private static LoadForecast forecast(int servers, int target) {
        LoadForecast forecast = new LoadForecast(Math.max(64, 4 * target));
        for (int s = 0; s < servers; s++) {
            forecast.addServer(1);
        }
        return forecast;
    }

    /**
     * Worked example. Server 0 reports at t = 10 s: 2 requests holding 1.0 s of work. At 10.25 s, 0.75 s are left.
     * A request of 0.5 s sent at 10.5 s adds to the 0.5 s left, so the server drains at 10.5 + 0.5 + 0.5 = 11.5 s;
     * the server interleaves the three requests' tasks, so all three count until then.
     */
    @Test
    void backlog_drainsInTime_andItsRequestsCountUntilItDrains() {
        LoadForecast forecast = forecast(2, 3);
        forecast.report(0, 2, 1.0, 10);
        assertThat(forecast.backlog(0, 10.25)).isCloseTo(0.75, within(EPS));
        assertThat(forecast.ongoing(0, 10.5)).isEqualTo(2);
        assertThat(forecast.assign(0, 0.5, 10.5)).isCloseTo(11.5, within(EPS));
        assertThat(forecast.backlog(0, 10.5)).isCloseTo(1.0, within(EPS));
        assertThat(forecast.ongoing(0, 10.9)).as("2 reported + 1 own").isEqualTo(3);
        assertThat(forecast.ongoing(0, 11.2)).as("interleaved: none predicted done before the server drains").isEqualTo(3);
        assertThat(forecast.ongoing(0, 11.5)).isZero();
        assertThat(forecast.assign(0, 0.25, 11.75)).as("drained: a new request alone").isCloseTo(12.0, within(EPS));
        assertThat(forecast.ongoing(0, 11.9)).isEqualTo(1);
        assertThat(forecast.backlog(0, 12)).isZero();
        assertThat(forecast.ongoing(0, 12)).isZero();
        assertThat(forecast.backlog(1, 12)).as("a server never reported nor used").isZero();
    }

    /**
     * A report counts compute, not loads. A request sent at 10 s to an idle server holds 3.5 s of work there, 3.0 s
     * of it a cold start: predicted done at 13.5 s. A report at 11 s says 0.5 s of work (the compute; the load it
     * does not show): the ledger keeps the load, 0.5 + 3.0 = 3.5 s, until the part is predicted done; a report at
     * 14 s is taken as it is. A request without a load is forgotten at the report as before.
     */
    @Test
    void report_keepsTheLoadOfItsOwnColdStart_untilThePartIsPredictedDone() {
        LoadForecast forecast = forecast(2, 3);
        assertThat(forecast.assign(0, 3.5, 3.0, 10.0)).isCloseTo(13.5, within(EPS));
        forecast.report(0, 1, 0.5, 11.0);
        assertThat(forecast.backlog(0, 11.0)).isCloseTo(3.5, within(EPS));
        forecast.report(0, 0, 0.0, 14.0);
        assertThat(forecast.backlog(0, 14.0)).isZero();

        forecast.assign(1, 3.5, 10.0);
        forecast.report(1, 1, 0.5, 11.0);
        assertThat(forecast.backlog(1, 11.0)).isCloseTo(0.5, within(EPS));
    }

    /**
     * Own requests at 5.0 s (0.2 s) and 6.0 s (0.3 s); then a report taken at 5.5 s says 1 request, 2.0 s of work:
     * it counts the first request, not the second, which now adds to the 2.0 - 0.5 = 1.5 s left at 6.0 s: the
     * server drains at 6.0 + 1.5 + 0.3 = 7.8 s, and both requests count until then.
     */
    @Test
    void report_forgetsWhatItCounts_andRequeuesLaterRequests() {
        LoadForecast forecast = forecast(1, 3);
        forecast.assign(0, 0.2, 5.0);
        forecast.assign(0, 0.3, 6.0);
        forecast.report(0, 1, 2.0, 5.5);
        assertThat(forecast.backlog(0, 6.0)).isCloseTo(1.8, within(EPS));
        assertThat(forecast.ongoing(0, 6.0)).as("1 reported + the request of 6.0 s").isEqualTo(2);
        assertThat(forecast.ongoing(0, 7.6)).as("the reported work alone would drain at 7.5 s; interleaved").isEqualTo(2);
        assertThat(forecast.ongoing(0, 7.8)).isZero();
    }

    @Test
    void report_withoutWork_estimatesItFromOwnRequests_andCountsUntilTheNextReport() {
        LoadForecast forecast = forecast(2, 3);
        forecast.assign(1, 0.2, 0);
        forecast.assign(1, 0.4, 0);
        assertThat(forecast.meanRequestSeconds()).isCloseTo(0.3, within(EPS));
        forecast.report(0, 4, Double.NaN, 1.0);
        assertThat(forecast.backlog(0, 1.0)).isCloseTo(1.2, within(EPS));
        assertThat(forecast.ongoing(0, 100)).isEqualTo(4);
        forecast.report(0, 0, Double.NaN, 101);
        assertThat(forecast.ongoing(0, 101)).isZero();
    }

    @Test
    void timeGoingBack_drainsNothing() {
        LoadForecast forecast = forecast(1, 3);
        forecast.assign(0, 1.0, 10);
        assertThat(forecast.backlog(0, 9)).isCloseTo(1.0, within(EPS));
        assertThat(forecast.assign(0, 0.5, 9)).as("queued behind, from the latest time seen").isCloseTo(11.5, within(EPS));
    }

    @Test
    void ringGrows_keepingSendOrder() {
        LoadForecast forecast = forecast(1, 100);
        for (int i = 0; i < 37; i++) {
            forecast.assign(0, 1.0, i * 0.01);
        }
        assertThat(forecast.ongoing(0, 0.5)).isEqualTo(37);
        forecast.report(0, 20, 20, 0.195); // counts the 20 sent by 0.19 s
        assertThat(forecast.ongoing(0, 0.2)).isEqualTo(37);
        // the 17 later ones queue behind the 20 s reported, from 0.195 s to the last send at 0.36 s
        assertThat(forecast.backlog(0, 0.36)).isCloseTo(20 - (0.36 - 0.195) + 17, within(1e-9));
    }

    @Test
    void finishedRequests_leaveTheRing_evenIfNobodyAsksForTheCount() {
        LoadForecast forecast = forecast(1, 3);
        for (int i = 0; i < 1_000_000; i++) {
            forecast.assign(0, 0.001, i * 0.002); // each done before the next is sent
        }
        assertThat(forecast.ringCapacity(0)).isLessThanOrEqualTo(4);
        assertThat(forecast.ongoing(0, 2_000)).isEqualTo(0);
    }

    @Test
    void timeStandingStill_theRingStaysBounded_andTheBacklogKeepsEveryRequest() {
        LoadForecast forecast = forecast(1, 3);
        for (int i = 0; i < 100_000; i++) {
            forecast.assign(0, 0.001, 0);
        }
        assertThat(forecast.ringCapacity(0)).isLessThanOrEqualTo(64);
        assertThat(forecast.ongoing(0, 0)).isEqualTo(64);
        assertThat(forecast.backlog(0, 0)).isCloseTo(100.0, within(1e-6));
    }

    /**
     * A server's predicted idle time is its last update plus its backlog then; at the target with its reported work
     * unknown it stays at the target until its next report.
     */
    @Test
    void idleAt_andUnderTargetFrom() {
        LoadForecast forecast = forecast(2, 2);
        forecast.report(0, 1, 0.5, 10);
        forecast.assign(0, 0.25, 10.25);
        assertThat(forecast.idleAt(0)).isCloseTo(10.75, within(EPS));
        assertThat(forecast.underTargetFrom(0, 2)).isCloseTo(10.75, within(EPS));
        forecast.report(1, 2, Double.NaN, 10);
        assertThat(forecast.underTargetFrom(1, 2)).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(forecast.underTargetFrom(1, 3)).as("its own requests alone may fall under").isEqualTo(forecast.idleAt(1));
    }

    @Test
    void badArguments_areNamed() {
        LoadForecast forecast = forecast(1, 1);
        assertThatThrownBy(() -> forecast.report(0, -1, 0, 0)).hasMessageContaining("ongoing requests (-1)");
        assertThatThrownBy(() -> forecast.report(0, 0, Double.POSITIVE_INFINITY, 0)).hasMessageContaining("reported work (Infinity s)");
        assertThatThrownBy(() -> forecast.assign(0, -1, 0)).hasMessageContaining("request work (-1.0 s)");
        assertThatThrownBy(() -> forecast.setRate(0, Double.NaN)).hasMessageContaining("compute rate of server 0 (NaN ops/s)");
    }
}
