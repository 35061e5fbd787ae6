package dev.nona.controller.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.controller.TestingCluster;
import dev.nona.controller.optimize.NonaTableSolver;
import dev.nona.topics.record.ControllerCommand;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class ClusterWatchTest {
    private static TestingLoop loop(Duration livenessTimeout) {
        return new TestingLoop(TestingLoop.settings(livenessTimeout), new NonaTableSolver(false));
    }

    /** Sets processing time to {@code to} and fires the liveness timers due then, as Flink's test harness does. */
    private static void advance(TestingLoop loop, long to) throws Exception {
        loop.io.now = to;
        List<Long> due = List.copyOf(loop.io.processingTimers.headSet(to, true));
        loop.io.processingTimers.removeAll(due);
        for (int i = 0; i < due.size(); i++) {
            loop.cluster.expire(loop.io);
        }
    }

    private static List<ControllerEvent> changes(TestingLoop loop) {
        return loop.io.events(ControllerEventType.CLUSTER_CHANGED);
    }

    /**
     * Liveness timeout 3 s: s0 and s1 report at 0 s, s1 again at 2 s. At 3.001 s a timer finds s0 silent (the stream
     * moved on: s1 reported at 2 s). Then no telemetry at all arrives: at 5.001 s the stream is stalled (one
     * {@code TELEMETRY_STALLED} event) and s1, the server last known live, stays live. s0's report at 6 s resumes the
     * stream ({@code TELEMETRY_RESUMED}) and makes s0 up again; s1, whose reports may still be on their way, stays
     * live until the stream has flowed for 3 s without it (s0 reporting every second): silent at 9.001 s.
     */
    @Test
    void silentServer_goesDownByTimer_withAnEventNamingItAndWhy_andComesBackAtItsNextReport() throws Exception {
        TestingLoop loop = loop(Duration.ofSeconds(3));
        loop.cluster.report(TestingCluster.server("s0", 0), loop.io);
        loop.cluster.report(TestingCluster.server("s1", 0), loop.io);
        advance(loop, 2_000);
        loop.cluster.report(TestingCluster.server("s1", 2_000), loop.io);
        advance(loop, 3_000);
        assertThat(changes(loop)).hasSize(1); // the first view
        advance(loop, 3_001);
        assertThat(changes(loop)).hasSize(2).last().satisfies(e -> {
            assertThat(e.details()).containsEntry("server", "s0").containsEntry("servers", 1);
            assertThat((String) e.details().get("reason")).startsWith("silent since 1970-01-01T00:00:00Z")
                    .contains("no report for more than 3000 ms");
        });
        advance(loop, 5_000);
        assertThat(loop.io.events(ControllerEventType.TELEMETRY_STALLED)).isEmpty();
        advance(loop, 5_001);
        assertThat(changes(loop)).as("the whole stream is silent: no server goes down one by one").hasSize(2);
        assertThat(loop.io.events(ControllerEventType.TELEMETRY_STALLED)).singleElement().satisfies(e ->
                assertThat(e.details()).containsEntry("lastReportTime", 2_000L).containsEntry("servers", 1));
        assertThat(loop.cluster.liveCount()).isEqualTo(1);
        advance(loop, 6_000);
        loop.cluster.report(TestingCluster.server("s0", 6_000), loop.io);
        assertThat(loop.io.events(ControllerEventType.TELEMETRY_RESUMED)).singleElement().satisfies(e ->
                assertThat(e.details()).containsEntry("stalledForMillis", 999L));
        assertThat(changes(loop)).hasSize(3).last().satisfies(e ->
                assertThat(e.details()).containsEntry("server", "s0").containsEntry("reason", "reported up"));
        advance(loop, 6_000);
        assertThat(changes(loop)).as("s1's reports may be in the backlog: it stays live until the stream has flowed "
                + "for the timeout without it").hasSize(3);
        for (long t = 7_000; t <= 9_000; t += 1_000) {
            advance(loop, t);
            loop.cluster.report(TestingCluster.server("s0", t), loop.io);
        }
        assertThat(changes(loop)).hasSize(3);
        assertThat(loop.io.processingTimers).as("when s1 turns idle").contains(9_001L);
        advance(loop, 9_001);
        assertThat(changes(loop)).hasSize(4).last().satisfies(e ->
                assertThat(e.details()).containsEntry("server", "s1").containsEntry("servers", 1));
        assertThat(loop.io.events(ControllerEventType.TELEMETRY_STALLED)).hasSize(1);
        assertThat(loop.drift.value().pendingCause()).as("every change is a pending cause")
                .contains("s0").contains("s1");
    }

    /** A report older than the timeout when it arrives never makes a server live; a timely one does. */
    @Test
    void staleReport_neverMakesAServerLive() throws Exception {
        TestingLoop loop = loop(Duration.ofSeconds(3));
        advance(loop, 30_000);
        loop.cluster.report(TestingCluster.server("s0", 30_000), loop.io);
        loop.cluster.report(TestingCluster.server("s7", 10_000), loop.io); // made 20 s ago
        assertThat(loop.cluster.liveCount()).isEqualTo(1);
        assertThat(loop.servers.contains("s7")).as("not even held").isFalse();
        loop.cluster.report(TestingCluster.server("s7", 27_500), loop.io); // made 2.5 s ago
        assertThat(loop.cluster.liveCount()).isEqualTo(2);
    }

    /**
     * After a restore (a new view over the checkpointed telemetry), a server silent before it stays silent: each
     * server counts as heard at its report time, not at the restore; its late reports then do not revive it.
     */
    @Test
    void restore_keepsASilentServerSilent() throws Exception {
        TestingLoop before = loop(Duration.ofSeconds(3));
        before.cluster.report(TestingCluster.server("s7", 0), before.io);
        for (long t = 0; t <= 10_000; t += 1_000) {
            advance(before, t);
            before.cluster.report(TestingCluster.server("s0", t), before.io);
        }
        assertThat(before.cluster.liveCount()).isEqualTo(1);
        ClusterWatch restored = new ClusterWatch(before.settings, before.servers, before.learnedSpeeds, Set::of,
                before.windows);
        before.io.now = 40_000; // restored 30 s later
        restored.report(TestingCluster.server("s7", 2_000), before.io); // made 38 s ago
        assertThat(restored.liveCount()).as("s0 (heard at 10 s) live: the stream has not moved on").isEqualTo(1);
        assertThat(restored.snapshot(before.io).upServers()).containsExactly("s0");
    }

    /**
     * Reports made over 10 s, delivered at once after the job had none for those 10 s: the stream stalls, and the
     * backlog (most of it stale) keeps the live servers live: no server goes down while the controller catches up.
     */
    @Test
    void backlog_ofReports_doesNotMarkLiveServersDown() throws Exception {
        TestingLoop loop = loop(Duration.ofSeconds(3));
        for (long t = 0; t <= 1_000; t += 1_000) {
            advance(loop, t);
            loop.cluster.report(TestingCluster.server("s0", t), loop.io);
            loop.cluster.report(TestingCluster.server("s1", t + 500), loop.io);
        }
        advance(loop, 12_000);
        for (long t = 2_000; t <= 11_000; t += 1_000) {
            loop.cluster.report(TestingCluster.server("s0", t), loop.io);
            loop.cluster.report(TestingCluster.server("s1", t + 500), loop.io);
            advance(loop, 12_000);
        }
        assertThat(loop.io.events(ControllerEventType.TELEMETRY_STALLED)).hasSize(1);
        assertThat(loop.io.events(ControllerEventType.TELEMETRY_RESUMED)).hasSize(1);
        assertThat(changes(loop)).as("the first view only").hasSize(1);
        assertThat(loop.cluster.liveCount()).isEqualTo(2);
    }

    @Test
    void olderStatus_thanTheOneHeld_isIgnored() throws Exception {
        TestingLoop loop = loop(Duration.ofMinutes(10));
        loop.cluster.report(TestingCluster.server("s0", 100), loop.io);
        loop.cluster.report(TestingCluster.down("s0", 50), loop.io);
        assertThat(loop.servers.get("s0").up()).isTrue();
        assertThat(loop.cluster.liveCount()).isEqualTo(1);
        loop.cluster.report(TestingCluster.down("s0", 150), loop.io);
        assertThat(loop.cluster.liveCount()).isZero();
        assertThat(changes(loop)).last().satisfies(e -> assertThat((String) e.details().get("change"))
                .isEqualTo("cluster: server s0 down (reported up=false)"));
    }

    @Test
    void learnedSpeed_replacesTheReportedOne_andIsACauseOnlyPastTheThreshold() throws Exception {
        TestingLoop loop = loop(Duration.ofMinutes(10));
        loop.cluster.report(TestingCluster.server("s0", 0), loop.io);
        loop.cluster.report(TestingCluster.server("s1", 0), loop.io);
        assertThat(loop.cluster.learn("s0", TestingCluster.OPS_PER_SECOND * 1.1, loop.io)).as("10%: within 25%").isNull();
        assertThat(loop.cluster.learn("s1", TestingCluster.OPS_PER_SECOND / 3, loop.io))
                .isEqualTo("server s1 runs at 3.333e+11 ops/s (reports 1.000e+12)");
        assertThat(loop.cluster.snapshot(loop.io).opsPerSecond()).as("mean of the learned speeds")
                .isCloseTo(TestingCluster.OPS_PER_SECOND * (1.1 + 1.0 / 3) / 2, within(1.0));
        assertThat(loop.cluster.learn("s1", TestingCluster.OPS_PER_SECOND / 3 * 1.2, loop.io))
                .as("measured from the learned speed in use, not the reported one").isNull();
        loop.cluster.report(TestingCluster.server("s1", 10), loop.io);
        assertThat(loop.cluster.snapshot(loop.io).opsPerSecond()).as("a later report keeps the learned speed")
                .isCloseTo(TestingCluster.OPS_PER_SECOND * (1.1 + 0.4) / 2, within(1.0));
    }

    @Test
    void learnedSpeed_ofAServerNotHeard_orNotPositive_orNotFinite_isIgnored() throws Exception {
        TestingLoop loop = loop(Duration.ofMinutes(10));
        loop.cluster.report(TestingCluster.server("s0", 0), loop.io);
        assertThat(loop.cluster.learn("s9", 1e9, loop.io)).isNull();
        assertThat(loop.cluster.learn("s0", 0, loop.io)).isNull();
        assertThat(loop.cluster.learn("s0", Double.NaN, loop.io)).isNull();
        assertThat(loop.cluster.learn("s0", Double.POSITIVE_INFINITY, loop.io)).isNull();
        assertThat(loop.learnedSpeeds.isEmpty()).isTrue();
    }

    @Test
    void drained_leavesTheView_andAViewBuiltAfterARestoreKeepsItOut() throws Exception {
        TestingLoop loop = loop(Duration.ofMinutes(10));
        loop.cluster.report(TestingCluster.server("s0", 0), loop.io);
        loop.cluster.report(TestingCluster.server("s1", 0), loop.io);
        assertThat(loop.operator.update(loop.operator.commands().with(ControllerCommand.drain("d", 1, "s1", true))))
                .isTrue();
        loop.cluster.setDrained(Set.of("s1"), loop.io);
        assertThat(changes(loop)).last().satisfies(e ->
                assertThat(e.details()).containsEntry("change", "cluster: server s1 drained (operator command)")
                        .containsEntry("servers", 1));
        assertThat(loop.cluster.snapshot(loop.io).upServers()).containsExactly("s0");
        assertThat(loop.cluster.drainedCount()).isEqualTo(1);

        // the same state, a new view (a restore): built from the telemetry and the commands, no change reported
        ClusterWatch restored = new ClusterWatch(loop.settings, loop.servers, loop.learnedSpeeds,
                () -> loop.operator.commands().drained(), loop.windows);
        TestingLoopIo io = new TestingLoopIo();
        restored.report(TestingCluster.server("s1", 5), io); // s1 reports again: still drained
        restored.report(TestingCluster.server("s2", 5), io);
        assertThat(io.events(ControllerEventType.CLUSTER_CHANGED)).extracting(e -> e.details().get("change"))
                .containsExactly("cluster: server s2 up");
    }
}
