package dev.nona.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class RecoveryAcksTest {
    private static final long MS = 1_000_000L;
    private static final long T0 = 1_000_000 * MS;

    /**
     * 100 requests/s for 20 s from T0, a broker outage from second 5 to second 10: the requests of the outage are
     * acknowledged from its end on at 2,000/s (20x) and decided 1 s later at 1,000/s (10x); before and after it each
     * is acknowledged after 1 ms and decided after 10 ms.
     */
    @Test
    void acks_drainOfTheAcknowledgementsAndATimelineBesideTheDecisions() {
        int n = 2_000;
        LatencyRecorder acked = new LatencyRecorder(n);
        LatencyRecorder decided = new LatencyRecorder(n);
        long start = T0 + 5_000 * MS;
        long end = T0 + 10_000 * MS;
        long nextAck = end;
        long nextDecision = end + 1_000 * MS;
        for (int i = 0; i < n; i++) {
            long due = T0 + i * 10 * MS;
            acked.scheduled(i, due);
            decided.scheduled(i, due);
            long ack = due + MS;
            long decision = due + 10 * MS;
            if (due - start >= 0) {
                ack = Math.max(ack, nextAck);
                decision = Math.max(decision, nextDecision);
                nextAck = ack + MS / 2;
                nextDecision = decision + MS;
            }
            acked.received(i, ack);
            decided.received(i, decision);
        }
        Map<String, Object> m = RecoveryBenchmark.acks(acked, decided, new Fault.Window(start, end, 5_000, 10_000),
                Set.of(), 100);
        assertThat((double) m.get("acksFirstAfterFaultMillis")).isZero();
        assertThat((long) m.get("acksBacklogAtFirst")).isEqualTo(500);
        assertThat((double) m.get("acksDrainRateMultiple")).isBetween(19.0, 21.0);
        @SuppressWarnings("unchecked")
        List<String> timeline = (List<String>) m.get("drainTimeline");
        assertThat(timeline).hasSize((int) (RecoveryBenchmark.TIMELINE_MILLIS / RecoveryBenchmark.TIMELINE_STEP_MILLIS)
                + 1);
        // the outage's 500 requests and the one due at its end; 250 ms later 525 scheduled, all acknowledged
        // (2,000/s), none decided yet (the decisions start 1 s after the end)
        assertThat(timeline.get(0)).isEqualTo("+0 ms: scheduled 501, acked 1, decided 0");
        assertThat(timeline.get(1)).isEqualTo("+250 ms: scheduled 526, acked 501, decided 0");
        assertThat(timeline.get(8)).isEqualTo("+2000 ms: scheduled 701, acked 700, decided 700");
    }
}
