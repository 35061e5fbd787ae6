package dev.nona.controller.placement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.cluster.TelemetryClock;
import org.junit.jupiter.api.Test;

final class TelemetryGateTest {
    private static final long T = 3_000;
    private final TelemetryClock clock = new TelemetryClock(T);
    private final TelemetryGate gate = new TelemetryGate(clock);

    @Test
    void requestTime_isWhenItWasMade_butNeverLaterThanItsArrival() {
        assertThat(TelemetryGate.requestTime(1_000, 5_000)).isEqualTo(1_000);
        assertThat(TelemetryGate.requestTime(9_000, 5_000)).as("a client clock ahead").isEqualTo(5_000);
    }

    /** Two servers report every second, 50 ms in transit; a request made now is admitted at once. */
    @Test
    void whileReportsFlow_aRequestMadeNowIsAdmittedAtOnce() {
        for (long t = 0; t <= 10_000; t += 10) {
            if (t % 500 == 50) {
                clock.observe("s" + (t / 500) % 2, t - 50, t, true);
            }
            gate.requestArrived(t);
            assertThat(gate.admits(t, t)).isTrue();
        }
    }

    /**
     * The failing broker-kill run: s0 to s6 report every second (made at whole seconds, 50 ms in transit), s7 makes
     * its last report at 19 s, the broker is down from 20.5 s to 34.5 s. At 34.6 s the requests made in the outage
     * arrive, 10 per second of it, before any report: those made up to 22 s (s7's last report plus the timeout) are
     * admitted, the clock being 22 s (s7, not idle in the stall, holds it there); the others wait. The reports come
     * back at 35 s, one partition a second (the partitions back go on reporting): the clock stays at 22 s until s7
     * is idle, 3 s of flowing time after the reports resumed, then follows them, and each request is admitted only
     * at a clock at which s7 (the request being made more than the timeout after s7's last report) is silent.
     */
    @Test
    void afterABrokerOutage_requestsWaitForTheTelemetryOfTheirTime_andNeverReachTheServerSilentBeforeIt() {
        for (long made = 0; made <= 20_000; made += 1_000) {
            for (int s = 0; s < 8; s++) {
                if (s < 7 || made <= 19_000) {
                    clock.observe("s" + s, made, made + 50, true);
                }
            }
            gate.requestArrived(made + 50);
        }
        long sevenSilentFrom = 19_000 + T; // a clock past it finds s7 silent
        java.util.List<Long> waiting = new java.util.ArrayList<>();
        for (long made = 20_600; made <= 34_500; made += 100) {
            gate.requestArrived(34_600);
            if (gate.admits(made, 34_600)) {
                assertThat(made).isLessThanOrEqualTo(sevenSilentFrom);
            } else {
                waiting.add(made);
            }
        }
        assertThat(clock.clock(34_600)).isEqualTo(22_000);
        assertThat(waiting).hasSize(125).allMatch(t -> t > 22_000);
        assertThat(gate.stalled(34_600)).as("a new run of requests: not a stall").isFalse();
        long now = 34_600;
        for (now = 35_000; now <= 40_000; now += 1_000) {
            int back = (int) Math.min(3, (now - 35_000) / 1_000 + 1); // partitions back by now
            for (int s = 0; s < 7; s++) {
                long from = s % 3 == back - 1 ? 21_000 : s % 3 < back ? now : Long.MAX_VALUE; // backlog, or fresh
                for (long made = from; made <= now; made += 1_000) {
                    clock.observe("s" + s, made, now, true);
                }
            }
            gate.requestArrived(now);
            long c = clock.clock(now);
            final long at = now;
            waiting.removeIf(t -> {
                if (!gate.admits(t, at)) {
                    return false;
                }
                assertThat(c).as("request made at %d admitted at %d", t, at).isGreaterThanOrEqualTo(t);
                assertThat(c > sevenSilentFrom).as("s7 silent on the clock the request is placed at").isTrue();
                return true;
            });
        }
        assertThat(waiting).as("every request admitted once each partition has delivered").isEmpty();
        assertThat(clock.clock(40_000)).isEqualTo(40_000);
    }

    /**
     * A stall with requests flowing (one every 100 ms): the reports stop at 10 s. Requests made after the clock's
     * stop (13 s: the newest reports plus the timeout) wait until the stream counts as stalled, 13.051 s; from then
     * on every request is admitted (the servers last known live); nextOpening says when.
     */
    @Test
    void stall_withRequestsFlowing_admitsRequestsOnceTheTimeoutHasPassed() {
        for (long t = 0; t <= 20_000; t += 100) {
            if (t <= 10_000 && t % 1_000 == 0) {
                clock.observe("s0", t, t + 50, true);
            }
            gate.requestArrived(t + 50);
            boolean admitted = gate.admits(t + 50, t + 50);
            assertThat(admitted).as("request at %d", t + 50).isEqualTo(t + 50 <= 13_000 || t + 50 > 13_050);
            if (t + 50 == 13_050) {
                assertThat(gate.nextOpening(t + 50)).isEqualTo(13_051);
            }
        }
    }

    /**
     * Requests arrive alone, 2 s apart, while no report arrives: each starts a run of its own, so each waits the
     * timeout (at most) before the stall rule admits it; after a broker outage, the first requests back are no stall.
     */
    @Test
    void stall_countsOnlyTheTimeRequestsFlowed() {
        clock.observe("s0", 0, 50, true);
        gate.requestArrived(10_000);
        assertThat(gate.stalled(10_000)).as("the run started now").isFalse();
        assertThat(gate.nextOpening(10_000)).isEqualTo(13_001);
        assertThat(gate.stalled(13_001)).isTrue();
        gate.requestArrived(15_000);
        assertThat(gate.stalled(15_000)).as("a gap of 2 s: a new run").isFalse();
        clock.observe("s0", 15_000, 15_010, true);
        assertThat(gate.stalled(18_001)).as("a report arrived since").isFalse();
        assertThat(gate.stalled(18_011)).isTrue();
    }
}
