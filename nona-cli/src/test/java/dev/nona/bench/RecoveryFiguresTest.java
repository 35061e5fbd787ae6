package dev.nona.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class RecoveryFiguresTest {
    private static final long MS = 1_000_000L;
    private static final long T0 = 1_000_000 * MS;

    /**
     * 100 requests/s for 30 s from T0; a fault from second 10 to second 12 during which nothing is decided; latency
     * 10 ms outside it; the backlog (requests of seconds 10-12 and those that arrive meanwhile) is decided from second
     * 12 on at 1,000/s, 10x the arrival rate.
     */
    private static long[][] outage() {
        int n = 3_000;
        long[] scheduled = new long[n];
        long[] received = new long[n];
        long next = T0 + 12_000 * MS; // the recovered controller's first decision
        for (int i = 0; i < n; i++) {
            scheduled[i] = T0 + i * 10 * MS;
            long normal = scheduled[i] + 10 * MS;
            if (normal - (T0 + 10_000 * MS) < 0) {
                received[i] = normal;
            } else {
                received[i] = Math.max(normal, next);
                next = received[i] + MS; // 1,000 decisions/s while catching up
            }
        }
        return new long[][] {scheduled, received};
    }

    @Test
    void drain_firstDecisionAndCatchUpFromTheFaultsEnd_rateAsAMultipleOfArrivals() {
        long[][] t = outage();
        RecoveryFigures.Drain d = RecoveryFigures.drain(t[0], t[1], Set.of(), T0 + 10_000 * MS, T0 + 12_000 * MS,
                T0 + 12_000 * MS, 100);
        assertThat(d.p99BeforeMillis()).isEqualTo(10.0);
        assertThat(d.inFlightMillis()).isEqualTo(RecoveryFigures.MIN_IN_FLIGHT_MILLIS);
        assertThat(d.firstDecisionMillis()).isZero();
        // the 2 s of requests of the fault, and the one due at its end (the first decided after it is request 999)
        assertThat(d.backlogAtFirstDecision()).isEqualTo(201);
        // backlog b(t) = 201 + 0.1 t - t = 201 - 0.9 t (t in ms after the fault's end) reaches 10 (100 ms
        // of arrivals) at 213 ms
        assertThat(d.caughtUpMillis()).isBetween(205.0, 215.0);
        assertThat(d.drainRateMultiple()).isBetween(9.5, 10.5);
    }

    @Test
    void drain_nothingDecidedAfterTheFault_isNaN() {
        long[][] t = outage();
        RecoveryFigures.Drain d = RecoveryFigures.drain(t[0], t[1], Set.of(), T0 + 10_000 * MS, T0 + 12_000 * MS,
                0, 100);
        assertThat(d.firstDecisionMillis()).isNaN();
        assertThat(d.caughtUpMillis()).isNaN();
    }

    @Test
    void drain_failedSendsAreNotBacklog() {
        long[] scheduled = {T0, T0 + 10 * MS, T0 + 20 * MS, T0 + 30 * MS};
        long[] received = {T0 + MS, 0, 0, T0 + 400 * MS};
        RecoveryFigures.Drain withFailures = RecoveryFigures.drain(scheduled, received, Set.of(1, 2),
                T0 + 5 * MS, T0 + 300 * MS, T0 + 400 * MS, 1);
        assertThat(withFailures.backlogAtFirstDecision()).isZero();
        RecoveryFigures.Drain counted = RecoveryFigures.drain(scheduled, received, Set.of(), T0 + 5 * MS,
                T0 + 300 * MS, T0 + 400 * MS, 1);
        assertThat(counted.backlogAtFirstDecision()).isEqualTo(2);
    }

    @Test
    void windows_fiveSecondsOfScheduledTime_labelledByTheFault() {
        long[][] t = outage();
        List<RecoveryFigures.Window> w = RecoveryFigures.windows(t[0], t[1], Set.of(5), T0 + 10_000 * MS,
                T0 + 12_000 * MS);
        assertThat(w).extracting(RecoveryFigures.Window::phase)
                .containsExactly("before", "before", "during", "after", "after", "after");
        assertThat(w).extracting(RecoveryFigures.Window::startSecond).containsExactly(0L, 5L, 10L, 15L, 20L, 25L);
        assertThat(w.get(0).sent()).isEqualTo(499); // request 5's send failed
        assertThat(w.get(0).p99Millis()).isEqualTo(10.0);
        assertThat(w.get(2).p99Millis()).isGreaterThan(1_000.0); // the requests of the fault waited for it to end
        assertThat(w.get(5).p50Millis()).isEqualTo(10.0);
    }

    @Test
    void timesOfDifferentLength_areRejected() {
        assertThatThrownBy(() -> RecoveryFigures.windows(new long[2], new long[3], Set.of(), 0, 0))
                .hasMessage("scheduled (2) and received (3) must be of one length");
    }
}
