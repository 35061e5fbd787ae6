package dev.nona.controller.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.controller.TestingCluster;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

final class TelemetryClockTest {
    private static final long T = 3_000;
    private final TelemetryClock clock = new TelemetryClock(T);

    @Test
    void reportTime_isTheEventTime_butNeverLaterThanArrival() {
        assertThat(TelemetryClock.reportTime(1_000, 5_000)).isEqualTo(1_000);
        assertThat(TelemetryClock.reportTime(9_000, 5_000)).as("a server clock ahead").isEqualTo(5_000);
    }

    @Test
    void staleReport_appliesOnlyToAServerLiveNow_andDoesNotCountOtherwise() {
        assertThat(clock.isStale(17_000, 20_000)).isFalse();
        assertThat(clock.isStale(16_999, 20_000)).isTrue();
        assertThat(clock.applies(0, 20_000, false)).as("20 s old, server not live").isFalse();
        assertThat(clock.applies(0, 20_000, true)).as("keeps a live server heard").isTrue();
        assertThat(clock.applies(19_000, 20_000, false)).isTrue();
        clock.observe("s7", 0, 20_000, false);
        assertThat(clock.progress()).as("a stale report of a server not live: no progress").isEqualTo(Long.MIN_VALUE);
        assertThat(clock.clock(20_500)).isEqualTo(20_500);
    }

    /** Reports once a second from 4 servers at different phases, 50 ms in transit: the clock is the processing time. */
    /**
     * The partition rule. s0 and s1 report on partition 0, s2 on partition 1, once a second (made at whole seconds,
     * 50 ms in transit). s1 dies after its report made at 14 s; the broker is down from 15.5 s to 25.2 s, and then the
     * backlog is read: partition 0's first, then partition 1's. Once partition 0 has been read past 17 s (s1's last
     * report plus the timeout) s1 is idle at once, without the 2 s of flowing time it would otherwise take: the clock
     * is then held only by s2, whose partition is still unread, and is the processing time once that has been read.
     * The same reports without their partitions leave the clock at 17 s until s1 turns idle by flowing time.
     */
    @Test
    void deadServer_isIdleOnceItsPartitionHasBeenReadPastIt_whileAnotherPartitionsBacklogStillHoldsTheClock() {
        TelemetryClock withoutPartitions = new TelemetryClock(T);
        for (long made = 0; made <= 15_000; made += 1_000) {
            report(withoutPartitions, "s0", 0, made, made + 50);
            if (made <= 14_000) {
                report(withoutPartitions, "s1", 0, made, made + 50);
            }
            report(withoutPartitions, "s2", 1, made, made + 50);
        }
        long resume = 25_200;
        long now = resume;
        for (long made = 16_000; made <= 25_000; made += 1_000) {
            report(withoutPartitions, "s0", 0, made, now++);
            if (made == 18_000) {
                assertThat(clock.clock(now)).as("s1 idle: held by s2's unread partition").isEqualTo(18_000);
                assertThat(withoutPartitions.clock(now)).as("held by s1").isEqualTo(17_000);
            }
        }
        assertThat(clock.clock(now)).as("s2's backlog still unread").isEqualTo(18_000);
        for (long made = 16_000; made <= 25_000; made += 1_000) {
            report(withoutPartitions, "s2", 1, made, now++);
        }
        assertThat(clock.progress()).isEqualTo(25_000);
        assertThat(clock.clock(now)).as("the backlog read: the processing time").isEqualTo(now);
        assertThat(withoutPartitions.clock(now)).as("s1 not idle yet by flowing time").isEqualTo(17_000);
        assertThat(withoutPartitions.nextChange()).as("about 2 s later").isGreaterThan(now + 1_900);
    }

    /**
     * After a restore two servers share their newest report time; the first report of one, now with its partition,
     * moves it to that partition's index once: the other still holds the clock's progress at its own report.
     */
    @Test
    void firstReportWithAPartitionAfterARestore_leavesTheOtherServersOfTheSameTimeCounted() {
        clock.restore(List.of(TestingCluster.server("s0", 10_000), TestingCluster.server("s1", 10_000)), 10_050);
        assertThat(clock.progress()).isEqualTo(10_000);
        clock.observe("s0", 0, 11_000, 11_050, true);
        assertThat(clock.progress()).as("s1, not idle, still at 10 s").isEqualTo(10_000);
        assertThat(clock.clock(13_500)).as("s1's report plus the timeout").isEqualTo(13_000);
    }

    /** A report to {@link #clock} with its partition and to {@code other} without. */
    private void report(TelemetryClock other, String server, int partition, long made, long arrival) {
        clock.observe(server, partition, made, arrival, true);
        other.observe(server, made, arrival, true);
    }

    @Test
    void clock_isTheProcessingTime_whileReportsFlow() {
        for (long t = 0; t < 10_000; t += 10) {
            if (t % 250 == 50) {
                long made = t - 50;
                clock.observe("s" + (made / 250) % 4, made, t, true);
            }
            assertThat(clock.clock(t)).isEqualTo(t);
        }
    }

    /**
     * s0 and s1 report every second (made at whole seconds, arriving 50 ms later); s1's last report is made at 5 s.
     * The clock stops at 8 s (its last report plus the timeout) until s1 is idle, 3 s after that report arrived, at
     * 8.051 s: then it is the processing time again, and s1 is silent on it. s1's next report makes it count again.
     */
    @Test
    void deadServer_holdsTheClockOnlyForItsLastReportsDelivery() {
        for (long made = 0; made <= 12_000; made += 1_000) {
            clock.observe("s0", made, made + 50, true);
            if (made <= 5_000) {
                clock.observe("s1", made, made + 50, true);
            }
            if (made != 8_000) {
                assertThat(clock.clock(made + 50)).isEqualTo(made + 50);
            } else {
                assertThat(clock.nextChange()).as("s1 turns idle").isEqualTo(8_051);
                assertThat(clock.clock(8_050)).as("its last report plus the timeout, until idle").isEqualTo(8_000);
                assertThat(clock.clock(8_051)).isEqualTo(8_051);
            }
        }
        assertThat(clock.progress()).isEqualTo(12_000);
        clock.observe("s1", 12_500, 12_550, false);
        assertThat(clock.progress()).as("never back").isEqualTo(12_000);
        clock.observe("s0", 13_000, 13_050, true);
        assertThat(clock.progress()).as("s1 counts again").isEqualTo(12_500);
    }

    /**
     * Reports 2 s apart (fewer than two per timeout, outside what the clock assumes): gaps up to the timeout count in
     * full, so a dead server still turns idle, and silent, 3 s after its last report.
     */
    @Test
    void sparseReports_stillLeaveADeadServerIdle() {
        clock.observe("s0", 0, 0, true);
        clock.observe("s1", 0, 0, true);
        clock.observe("s1", 2_000, 2_000, true);
        assertThat(clock.clock(3_000)).isEqualTo(3_000);
        assertThat(clock.clock(3_001)).as("s0 idle: 2 s between the reports and 1.001 s since").isEqualTo(3_001);
        assertThat(clock.progress()).isEqualTo(2_000);
    }

    /**
     * The resume after a broker outage: 8 servers report once a second (made at whole seconds, 50 ms in transit) on
     * 3 partitions; s7 falls silent after its report made at 18 s, 2 s before the broker dies at 20.5 s; the broker
     * is back at 34.5 s and the reports buffered meanwhile (made at 21 to 34 s) arrive partition by partition, at
     * 34.6, 35.4 and 36.2 s, while the partitions already back go on reporting. Checked every 10 ms to 45 s on the
     * clock, as a view would: no live server is ever silent; s7 is silent from 21.051 s (its last report's arrival
     * plus the timeout) on and never live again; during the outage the stream is stalled and the clock stops at 23 s
     * (the oldest newest report of the servers not idle, 20 s, plus the timeout); once every partition has delivered
     * its backlog, the clock is the processing time again.
     */
    @Test
    void resume_partitionByPartition_marksNoLiveServerDown_andKeepsTheSilentServerSilent() {
        List<String> partitionA = List.of("s0", "s3", "s6");
        List<String> partitionB = List.of("s1", "s4", "s7");
        List<String> partitionC = List.of("s2", "s5");
        Map<String, Long> back = Map.of("A", 34_600L, "B", 35_400L, "C", 36_200L);
        TreeSet<long[]> arrivals = new TreeSet<>(Comparator.<long[]>comparingLong(a -> a[0])
                .thenComparingLong(a -> a[1]).thenComparingLong(a -> a[2]));
        for (int s = 0; s < 8; s++) {
            String p = partitionA.contains("s" + s) ? "A" : partitionB.contains("s" + s) ? "B" : "C";
            for (long made = 0; made <= 45_000; made += 1_000) {
                if (s == 7 && made > 18_000) {
                    continue;
                }
                long sent = made + 50;
                long arrival = sent > 20_500 && sent < back.get(p) ? back.get(p) : sent;
                arrivals.add(new long[] {arrival, made, s});
            }
        }
        TestingView view = new TestingView(clock);
        for (long now = 0; now <= 45_000; now += 10) {
            while (!arrivals.isEmpty() && arrivals.first()[0] <= now) {
                long[] a = arrivals.pollFirst();
                view.report("s" + a[2], a[1], a[0]);
            }
            long c = view.check(now);
            for (int s = 0; s < 7; s++) {
                assertThat(view.silent("s" + s)).as("live s%d silent at %d ms (clock %d)", s, now, c).isFalse();
            }
            assertThat(view.silent("s7")).as("s7 at %d ms (clock %d)", now, c).isEqualTo(now > 21_050);
            if (now > 20_550 + T && now < 34_600) {
                assertThat(clock.isStalled(now)).isTrue();
                assertThat(c).isEqualTo(23_000);
            }
            if (now >= 36_200) {
                assertThat(c).as("caught up").isEqualTo(now);
            }
        }
    }

    /**
     * A stall: every server reports once a second until 20 s, then nothing arrives. The clock stops at the oldest
     * newest report of the servers not idle plus the timeout, so they all stay live; s3, silent since its report made
     * at 18.6 s (1.4 s before the stall, within $g$), stays live too (the stall says nothing of it); s4, silent since
     * 17 s, turns idle in the stall and is silent.
     */
    @Test
    void stall_keepsTheServersLastKnownLive_notOneSilentBeforeIt() {
        TestingView view = new TestingView(clock);
        for (long made = 0; made <= 20_000; made += 200) {
            int s = (int) (made / 200) % 5;
            if (s == 4 && made > 17_000 || s == 3 && made > 18_600) {
                continue;
            }
            view.report("s" + s, made, made + 50);
        }
        for (long now = 20_050; now <= 60_000; now += 10) {
            long c = view.check(now);
            assertThat(c).isLessThanOrEqualTo(23_000);
            for (int s = 0; s < 4; s++) {
                assertThat(view.silent("s" + s)).as("s%d at %d ms", s, now).isFalse();
            }
        }
        assertThat(view.silent("s4")).isTrue();
        assertThat(clock.isStalled(60_000)).isTrue();
        assertThat(clock.nextChange()).as("nothing moves the clock but a report").isEqualTo(Long.MAX_VALUE);
        assertThat(clock.reaches(30_000)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void stall_isNoReportForLongerThanTheTimeout() {
        assertThat(clock.isStalled(1_000_000)).as("no report yet").isFalse();
        assertThat(clock.stallAt()).isEqualTo(Long.MAX_VALUE);
        clock.observe("s0", 2_000, 10_000, true); // behind: made 8 s before it arrived
        assertThat(clock.isStalled(13_000)).as("a report arrived 3 s ago").isFalse();
        assertThat(clock.isStalled(13_001)).isTrue();
        assertThat(clock.stallAt()).isEqualTo(13_001);
        assertThat(clock.clock(30_000)).isEqualTo(5_000);
        assertThat(clock.reaches(5_000)).isEqualTo(5_000);
    }

    /**
     * After a restore at 40 s of reports made at 10 s (s0), 8.5 s (s1) and 5 s (s7): s7, more than the timeout behind
     * the newest, is idle; s1 counts as silent for 1.5 s already and turns idle 1.5 s of flowing time later; s0 holds
     * the clock at 13 s meanwhile.
     */
    @Test
    void restore_countsEachServerSilentForAsLongAsItIsBehindTheNewest() {
        clock.restore(List.of(TestingCluster.server("s7", 5_000), TestingCluster.server("s1", 8_500),
                TestingCluster.server("s0", 10_000)), 40_000);
        assertThat(clock.progress()).as("s7 idle").isEqualTo(8_500);
        assertThat(clock.clock(40_000)).isEqualTo(11_500);
        clock.observe("s0", 40_500, 41_000, true);
        assertThat(clock.clock(41_000)).as("s1 still counts").isEqualTo(11_500);
        clock.observe("s0", 41_500, 42_000, true);
        assertThat(clock.clock(42_000)).as("s1 idle after 1.5 s more").isEqualTo(42_000);
        clock.restore(List.of(TestingCluster.server("s0", 0)), 42_000);
        assertThat(clock.progress()).as("a server it knows is not restored").isEqualTo(41_500);
    }

    @Test
    void timeout_mustBePositive() {
        assertThatThrownBy(() -> new TelemetryClock(0)).hasMessage("cluster.liveness-timeout (0 ms) must be > 0");
    }

    /** A view as the control loop and placement keep one: heard at report time, silent past the timeout on the clock. */
    private static final class TestingView {
        private final TelemetryClock clock;
        private final Map<String, Long> heard = new HashMap<>();
        private final List<String> silent = new ArrayList<>();

        TestingView(TelemetryClock clock) {
            this.clock = clock;
        }

        void report(String server, long made, long arrival) {
            boolean live = heard.containsKey(server) && !silent.contains(server);
            clock.observe(server, made, arrival, live);
            if (clock.applies(made, arrival, live)) {
                heard.merge(server, made, Math::max);
                silent.remove(server);
            }
            check(arrival);
        }

        long check(long now) {
            long c = clock.clock(now);
            heard.forEach((s, at) -> {
                if (c - at > T && !silent.contains(s)) {
                    silent.add(s);
                }
            });
            return c;
        }

        boolean silent(String server) {
            return silent.contains(server);
        }
    }
}
