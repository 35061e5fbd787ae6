package dev.nona.controller.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.TestingCluster;
import org.junit.jupiter.api.Test;

/** The counts behind the serversUp and serversSilent metrics. */
final class ClusterTrackerTest {
    private static final long TIMEOUT = 1_000;

    @Test
    void silentCount_countsExpiredServers_untilTheyReportAgainOrReportDown() {
        ClusterTracker tracker = new ClusterTracker(TestingCluster.LINK_BITS_PER_SECOND, 0.1, TIMEOUT);
        tracker.report(TestingCluster.server("s0", 1), 0);
        tracker.report(TestingCluster.server("s1", 1), 0);
        tracker.report(TestingCluster.server("s2", 1), 500);
        assertThat(tracker.liveCount()).isEqualTo(3);
        assertThat(tracker.silentCount()).isZero();

        assertThat(tracker.expire(TIMEOUT + 1)).hasSize(2);
        assertThat(tracker.liveCount()).isEqualTo(1);
        assertThat(tracker.silentCount()).isEqualTo(2);
        assertThat(tracker.expire(TIMEOUT + 2)).as("already silent: counted once").isEmpty();
        assertThat(tracker.silentCount()).isEqualTo(2);

        tracker.report(TestingCluster.server("s0", 2), TIMEOUT + 10);
        assertThat(tracker.silentCount()).isEqualTo(1);
        assertThat(tracker.liveCount()).isEqualTo(2);
        tracker.report(TestingCluster.down("s1", 2), TIMEOUT + 10);
        assertThat(tracker.silentCount()).as("reported down: down, not silent").isZero();
        assertThat(tracker.liveCount()).isEqualTo(2);
    }
}
