package dev.nona.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class LatencyRecorderTest {
    private static final long MS = 1_000_000L;

    @Test
    void percentiles_nearestRank_overDecidedRequests_inMillis() {
        LatencyRecorder r = new LatencyRecorder(101);
        for (int i = 0; i < 100; i++) {
            r.scheduled(i, 1_000 * MS);
            r.received(i, 1_000 * MS + (i + 1) * MS); // latencies 1..100 ms
        }
        r.scheduled(100, 5 * MS); // never decided: not in the percentiles
        LatencyRecorder.Percentiles p = r.percentiles();
        assertThat(p.p50()).isEqualTo(50.0);
        assertThat(p.p90()).isEqualTo(90.0);
        assertThat(p.p99()).isEqualTo(99.0);
        assertThat(p.max()).isEqualTo(100.0);
        assertThat(r.decided()).isEqualTo(100);
    }

    @Test
    void secondDecision_isADuplicate_andTheFirstOneCounts() {
        LatencyRecorder r = new LatencyRecorder(1);
        r.scheduled(0, 10 * MS);
        assertThat(r.received(0, 12 * MS)).isTrue();
        assertThat(r.received(0, 500 * MS)).isFalse();
        assertThat(r.duplicates()).isEqualTo(1);
        assertThat(r.decided()).isEqualTo(1);
        assertThat(r.percentiles().max()).isEqualTo(2.0);
    }

    @Test
    void fractionsOfAMillisecond_areKeptToTwoDecimals() {
        LatencyRecorder r = new LatencyRecorder(1);
        r.scheduled(0, 0);
        r.received(0, 1_234_567);
        assertThat(r.percentiles().p50()).isEqualTo(1.23);
    }

    @Test
    void maxByBucket_placesEachLatencyInItsSendSecond() {
        LatencyRecorder r = new LatencyRecorder(3);
        r.scheduled(0, 0);
        r.scheduled(1, 500 * MS);
        r.scheduled(2, 2_100 * MS);
        r.received(0, 7 * MS);
        r.received(1, 503 * MS);
        r.received(2, 2_140 * MS);
        assertThat(r.maxByBucket(1_000 * MS)).containsExactly(7.0, 0.0, 40.0);
    }

    @Test
    void nothingDecided_allZero() {
        assertThat(new LatencyRecorder(3).percentiles()).isEqualTo(new LatencyRecorder.Percentiles(0, 0, 0, 0));
    }

    @Test
    void percentilesBetween_areNearestRank_overTheIndicesInRange_andZeroWhenEmpty() {
        LatencyRecorder r = new LatencyRecorder(300);
        for (int i = 0; i < 300; i++) {
            r.scheduled(i, 0);
            // indices 100..199 take 100..1 ms; the others 1,000 ms, outside the window
            r.received(i, (i >= 100 && i < 200 ? 200 - i : 1_000) * MS);
        }
        LatencyRecorder.Percentiles p = r.percentilesBetween(100, 200);
        assertThat(p.p50()).isEqualTo(50);
        assertThat(p.p99()).isEqualTo(99);
        assertThat(p.max()).isEqualTo(100);
        assertThat(r.percentilesBetween(300, 400).p99()).isZero();
        assertThat(new LatencyRecorder(3).percentilesBetween(0, 3).p99()).isZero();
    }
}
