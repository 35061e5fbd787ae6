package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class LiveServersTest {
    /** Reports of t = 1 s, 1 Gops/s. */
    private static final long T = 1_000;
    private static final double[] ONE_SECOND = {1e9};

    /** A server's report: its fields as the placement operator passes them on from telemetry. */
    private record Report(String id, boolean up, double ops, int ongoing, double backlog, List<String> warm, long eventTime) {
        void to(LiveServers servers, long now) {
            servers.report(id, up, ops, ongoing, backlog, warm, eventTime, now);
        }
    }

    private static Report server(String id, boolean up, int ongoing, Double backlog, String... warm) {
        return new Report(id, up, 1e9, ongoing, backlog == null ? Double.NaN : backlog, List.of(warm), T);
    }

    private static Report server(String id, boolean up, int ongoing, String... warm) {
        return server(id, up, ongoing, (double) ongoing, warm);
    }

    /** From the latest report of each server, heard at 0, without a liveness timeout. */
    private static LiveServers of(List<Report> latest, int target) {
        return of(latest, target, 0, 1);
    }

    private static LiveServers of(List<Report> latest, int target, int subtask, int parallelism) {
        LiveServers servers = new LiveServers(target, subtask, parallelism, LiveServers.NO_LIVENESS_TIMEOUT);
        latest.forEach(r -> r.to(servers, 0));
        return servers;
    }

    /** Picks a server for a one-task request of 1 s at {@code eventTime} and records it. */
    private static int place(LiveServers servers, String model, long eventTime, SplittableRandom rng) {
        int s = servers.pick(model, eventTime, rng);
        servers.record(new int[] {s}, ONE_SECOND, 1, eventTime);
        return s;
    }

    /**
     * Event times in nanoseconds (the simulator's clock): a report at 1 s of 0.5 s of work has 0.25 s left at
     * 1.25 s, and 1 ns later 1 ns less, which milliseconds could not tell.
     */
    @Test
    void eventTicks_nanoseconds_keepTheLedgersClockUnrounded() {
        LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT, 1_000_000_000L);
        int s = servers.report("a", true, 1e9, 1, 0.5, List.of("m"), 1_000_000_000L, 1_000);
        assertThat(servers.backlogSeconds(s, 1_250_000_000L)).isCloseTo(0.25, within(1e-12));
        assertThat(servers.backlogSeconds(s, 1_250_000_001L)).isCloseTo(0.25 - 1e-9, within(1e-12));
        assertThat(servers.ongoing(s, 1_499_999_999L)).isEqualTo(1);
        assertThat(servers.ongoing(s, 1_500_000_000L)).as("drained at 1.5 s").isZero();
        assertThatThrownBy(() -> new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT, 0))
                .hasMessageContaining("event ticks per second (0)");
    }

    @Test
    void pick_warmUnderTarget_leastBacklogFirst() {
        // s0: warm, at the target (3); s1 and s4: warm, under it, 2 s and 1 s of work; s2: warm, down; s3: cold, idle.
        SplittableRandom rng = new SplittableRandom(1);
        for (int i = 0; i < 50; i++) {
            LiveServers servers = of(List.of(server("s0", true, 3, "m"), server("s1", true, 2, "m"),
                    server("s2", false, 0, "m"), server("s3", true, 0), server("s4", true, 1, "m")), 3);
            assertThat(servers.upCount()).isEqualTo(4);
            assertThat(servers.id(servers.pick("m", T, rng))).isEqualTo("s4");
        }
    }

    /**
     * Worked example: s0 reports 1 request and 1 s of work at t = 1 s, s1 2 requests and 2 s, s2 (cold) nothing.
     * Requests of 1 s each at t = 1 s: the first goes to s0 (1 s < 2 s), the second to s0 or s1 (both 2 s), then
     * the other, so both warm servers hold 3 requests: the target. The next three go to the cold idle s2. At
     * t = 2.5 s the predicted backlogs have drained by 1.5 s; s0 drains at 4 s, so its 3 requests count until then.
     */
    @Test
    void ledger_countsItsOwnRequests_drainsThemInTime_andANewReportResetsTheServer() {
        Report s0 = server("s0", true, 1, "m");
        Report s1 = server("s1", true, 2, "m");
        Report cold = server("s2", true, 0);
        LiveServers servers = of(List.of(s0, s1, cold), 3);
        SplittableRandom rng = new SplittableRandom(2);
        int[] hits = new int[3];
        for (int i = 0; i < 3; i++) {
            hits[place(servers, "m", T, rng)]++;
        }
        assertThat(hits).containsExactly(2, 1, 0);
        assertThat(servers.ongoing(0, T)).isEqualTo(3);
        assertThat(servers.ongoing(1, T)).isEqualTo(3);
        assertThat(servers.backlogSeconds(0, T)).isCloseTo(3.0, within(1e-9));
        for (int i = 0; i < 3; i++) {
            assertThat(servers.id(place(servers, "m", T, rng))).as("every warm server at the target").isEqualTo("s2");
        }
        assertThat(servers.backlogSeconds(2, 2_500)).isCloseTo(1.5, within(1e-9));
        assertThat(servers.ongoing(0, 2_500)).as("interleaved: all 3 count until s0 drains at 4 s").isEqualTo(3);
        assertThat(servers.ongoing(0, 4_000)).isZero();
        // s0 reports again (idle at 2.5 s): only its entry is reset
        int s1Ongoing = servers.ongoing(1, 2_500);
        new Report("s0", true, 1e9, 0, 0.0, List.of("m"), 2_500).to(servers, 0);
        assertThat(servers.ongoing(0, 2_500)).isZero();
        assertThat(servers.ongoing(1, 2_500)).isEqualTo(s1Ongoing);
        assertThat(servers.backlogSeconds(2, 2_500)).isCloseTo(1.5, within(1e-9));
        assertThat(servers.id(servers.pick("m", 2_500, rng))).isEqualTo("s0");
    }

    @Test
    void report_withoutBacklog_isEstimatedFromTheMeanRequest_andCountsUntilTheNextReport() {
        LiveServers first = of(List.of(server("a", true, 0, 0.0, "m")), 3);
        SplittableRandom rng = new SplittableRandom(5);
        place(first, "m", T, rng); // mean request: 1 s
        server("b", true, 2, (Double) null, "m").to(first, 0);
        LiveServers servers = first;
        assertThat(servers.backlogSeconds(1, T)).isCloseTo(2.0, within(1e-9));
        assertThat(servers.ongoing(1, 60_000)).as("no backlog reported: its requests count until it reports again").isEqualTo(2);
    }

    @Test
    void pick_nothingWarm_spreadsOverTheLeastBackloggedUpServers() {
        LiveServers servers = of(List.of(server("a", true, 0), server("b", true, 9, "m"),
                server("c", true, 0), server("d", false, 0)), 3);
        SplittableRandom rng = new SplittableRandom(2);
        int[] hits = new int[3];
        for (int i = 0; i < 18; i++) {
            hits[place(servers, "x", T, rng)]++;
        }
        // a and c take turns until they reach b's 9 s
        assertThat(hits).containsExactly(9, 0, 9);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 30; i++) {
            seen.add(servers.id(place(servers, "x", T, rng)));
        }
        assertThat(seen).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void pickOther_warmFirstThenDistinct_untilEveryServerIsTaken() {
        SplittableRandom rng = new SplittableRandom(3);
        for (int round = 0; round < 100; round++) {
            LiveServers servers = of(List.of(server("s0", true, 0, "m"), server("s1", true, 0),
                    server("s2", true, 0), server("s3", true, 0, "m")), 3);
            int[] taken = new int[6];
            int warm = servers.warm("m");
            taken[0] = servers.pick("m", T, rng);
            taken[1] = servers.pickOther(warm, taken, 1, T, rng);
            assertThat(Set.of(servers.id(taken[0]), servers.id(taken[1]))).containsExactlyInAnyOrder("s0", "s3");
            for (int n = 2; n < 4; n++) {
                taken[n] = servers.pickOther(warm, taken, n, T, rng);
            }
            assertThat(Arrays.stream(taken, 0, 4).distinct().count()).isEqualTo(4);
            taken[4] = servers.pickOther(warm, taken, 4, T, rng);
            assertThat(taken[4]).isBetween(0, 3);
        }
    }

    @Test
    void subtasks_eachKeepToTheirShareOfTheServers() {
        List<Report> four = List.of(server("a", true, 0, "m"), server("b", true, 0, "m"), server("c", false, 0, "m"),
                server("d", true, 0, "m"), server("e", true, 0, "m"));
        SplittableRandom rng = new SplittableRandom(6);
        Set<String> first = new HashSet<>();
        Set<String> second = new HashSet<>();
        LiveServers zero = of(four, 3, 0, 2);
        LiveServers one = of(four, 3, 1, 2);
        for (int i = 0; i < 6; i++) {
            first.add(zero.id(place(zero, "m", T, rng)));
            second.add(one.id(place(one, "m", T, rng)));
        }
        // shares by the id's hash code modulo 2 (a = 97, ...): subtask 0 owns b and d, subtask 1 owns a and e (c is down)
        assertThat(first).containsExactlyInAnyOrder("b", "d");
        assertThat(second).containsExactlyInAnyOrder("a", "e");
    }

    @Test
    void requestFromAClockAnHourAhead_drainsLikeOneFiveSecondsAfterTheNewestReport() {
        LiveServers servers = of(List.of(server("a", true, 0, 0.0, "m")), 3);
        SplittableRandom rng = new SplittableRandom(7);
        place(servers, "m", T + 3_600_000, rng); // 1 s of work, "sent" at T + 5 s
        assertThat(servers.backlogSeconds(0, T + 3_600_000)).isCloseTo(1.0, within(1e-9));
        new Report("a", true, 1e9, 0, 0.0, List.of("m"), T + 7_000).to(servers, 0);
        LiveServers next = servers;
        assertThat(next.backlogSeconds(0, T + 7_000)).as("the next reports see it done").isZero();
        assertThat(next.ongoing(0, T + 7_000)).isZero();
    }

    @Test
    void pick_noServerUp_isAnError() {
        LiveServers servers = of(List.of(server("s0", false, 0, "m")), 3);
        assertThat(servers.upCount()).isZero();
        assertThatThrownBy(() -> servers.pick("x", T, new SplittableRandom(4))).hasMessageContaining("no server is up");
    }

    /** Timeout 3 s on the processing-time clock: s0 heard at 10 s, s1 at 12 s. */
    @Test
    void silentServer_isNotUsedAfterTheTimeout_andIsLiveAgainAtItsNextReport() {
        LiveServers servers = new LiveServers(3, 0, 1, 3_000);
        server("s0", true, 0, 0.0, "m").to(servers, 10_000);
        server("s1", true, 2, 2.0, "m").to(servers, 12_000);
        SplittableRandom rng = new SplittableRandom(8);
        servers.expireSilent(13_000);
        assertThat(servers.id(servers.pick("m", T, rng))).as("both live; s0 idle").isEqualTo("s0");
        List<String> silenced = new ArrayList<>();
        servers.expireSilent(13_001, s -> silenced.add(servers.id(s)));
        assertThat(silenced).containsExactly("s0");
        assertThat(servers.upCount()).isEqualTo(1);
        for (int i = 0; i < 20; i++) {
            assertThat(servers.id(servers.pick("m", T, rng))).isEqualTo("s1");
        }
        new Report("s0", true, 1e9, 0, 0.0, List.of("m"), T + 3_000).to(servers, 14_000);
        assertThat(servers.isLive(servers.indexOf("s0"))).isTrue();
        assertThat(servers.upCount()).isEqualTo(2);
        int[] s1Taken = {servers.indexOf("s1")};
        assertThat(servers.id(servers.pickOther(servers.warm("m"), s1Taken, 1, T + 3_000, rng))).isEqualTo("s0");
        servers.expireSilent(15_001, s -> silenced.add(servers.id(s)));
        assertThat(silenced).as("s1 unheard since 12 s").containsExactly("s0", "s1");
        assertThat(servers.meanOpsPerSecond()).isEqualTo(1e9);
    }

    @Test
    void serverReportingDownOrZeroComputeRate_getsNoStage_andCannotGoSilent() {
        LiveServers servers = new LiveServers(3, 0, 1, 3_000);
        server("a", true, 0, 0.0, "m").to(servers, 0);
        new Report("b", true, 0, 0, 0.0, List.of("m"), T).to(servers, 0);
        server("c", true, 0, 0.0, "m").to(servers, 0);
        server("c", false, 0, 0.0, "m").to(servers, 0);
        assertThat(servers.upCount()).isEqualTo(1);
        SplittableRandom rng = new SplittableRandom(9);
        for (int i = 0; i < 20; i++) {
            assertThat(servers.id(place(servers, "m", T, rng))).isEqualTo("a");
        }
        List<String> silenced = new ArrayList<>();
        servers.expireSilent(10_000, s -> silenced.add(servers.id(s)));
        assertThat(silenced).as("down servers do not go silent").containsExactly("a");
        assertThat(servers.meanOpsPerSecond()).isZero();
    }

    @Test
    void recalibrate_changesTheSpeedOnly_notLivenessNorBacklog_andAZeroReportStaysZero() {
        LiveServers servers = new LiveServers(3, 0, 1, 3_000);
        int a = servers.report("a", true, 1e9, 0, 0.0, List.of("m"), 0, 0);
        servers.report("b", true, 1e9, 0, 0.0, List.of("m"), 0, 0);
        servers.report("z", true, 0, 0, 0.0, List.of("m"), 0, 0);
        // 1e9 ops placed on a at 1e9 ops/s: 1 s of work; at a learned 2.5e8 ops/s the same work is 4 s
        servers.record(new int[] {a}, new double[] {1e9}, 1, 0);
        assertThat(servers.backlogSeconds(a, 0)).isCloseTo(1.0, within(1e-9));
        assertThat(servers.recalibrate("a", 2.5e8)).isTrue();
        assertThat(servers.meanOpsPerSecond()).isCloseTo((2.5e8 + 1e9) / 2, within(1.0));
        assertThat(servers.heardAt(a)).isZero();
        servers.record(new int[] {a}, new double[] {1e9}, 1, 0);
        assertThat(servers.backlogSeconds(a, 0)).as("the second request at the learned speed").isCloseTo(5.0, within(1e-9));
        assertThat(servers.recalibrate("z", 1e9)).as("reported 0 ops/s: no stages, whatever was learned").isFalse();
        assertThat(servers.recalibrate("nobody", 1e9)).isFalse();
        assertThatThrownBy(() -> servers.recalibrate("a", 0)).hasMessageContaining("learned speed of a (0.0 ops/s)");
        servers.expireSilent(3_001);
        assertThat(servers.isLive(a)).as("recalibrating is not hearing from it").isFalse();
    }
}
