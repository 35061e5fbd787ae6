package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ServerLedgerTest {
    private static final double EPS = 1e-12;

    /**
     * Worked example. Server 0 reports at t = 10 s: 2 requests holding 1.0 s of work. At 10.25 s, 0.75 s are left.
     * A request of 0.5 s sent at 10.5 s adds to the 0.5 s left, so the server drains at 10.5 + 0.5 + 0.5 = 11.5 s;
     * the server interleaves the three requests' tasks, so all three count until then.
     */
    @Test
    void backlog_drainsInTime_andItsRequestsCountUntilItDrains() {
        ServerLedger ledger = new ServerLedger(2, 3);
        ledger.report(0, 2, 1.0, 10);
        assertThat(ledger.backlog(0, 10.25)).isCloseTo(0.75, within(EPS));
        assertThat(ledger.ongoing(0, 10.5)).isEqualTo(2);
        assertThat(ledger.assign(0, 0.5, 10.5)).isCloseTo(11.5, within(EPS));
        assertThat(ledger.backlog(0, 10.5)).isCloseTo(1.0, within(EPS));
        assertThat(ledger.ongoing(0, 10.9)).as("2 reported + 1 own").isEqualTo(3);
        assertThat(ledger.ongoing(0, 11.2)).as("interleaved: none predicted done before the server drains").isEqualTo(3);
        assertThat(ledger.ongoing(0, 11.5)).isZero();
        assertThat(ledger.assign(0, 0.25, 11.75)).as("drained: a new request alone").isCloseTo(12.0, within(EPS));
        assertThat(ledger.ongoing(0, 11.9)).isEqualTo(1);
        assertThat(ledger.backlog(0, 12)).isZero();
        assertThat(ledger.ongoing(0, 12)).isZero();
        assertThat(ledger.backlog(1, 12)).as("a server never reported nor used").isZero();
    }

    /**
     * Own requests at 5.0 s (0.2 s) and 6.0 s (0.3 s); then a report taken at 5.5 s says 1 request, 2.0 s of work:
     * it counts the first request, not the second, which now adds to the 2.0 - 0.5 = 1.5 s left at 6.0 s: the
     * server drains at 6.0 + 1.5 + 0.3 = 7.8 s, and both requests count until then.
     */
    @Test
    void report_forgetsWhatItCounts_andRequeuesLaterRequests() {
        ServerLedger ledger = new ServerLedger(1, 3);
        ledger.assign(0, 0.2, 5.0);
        ledger.assign(0, 0.3, 6.0);
        ledger.report(0, 1, 2.0, 5.5);
        assertThat(ledger.backlog(0, 6.0)).isCloseTo(1.8, within(EPS));
        assertThat(ledger.ongoing(0, 6.0)).as("1 reported + the request of 6.0 s").isEqualTo(2);
        assertThat(ledger.ongoing(0, 7.6)).as("the reported work alone would drain at 7.5 s; interleaved").isEqualTo(2);
        assertThat(ledger.ongoing(0, 7.8)).isZero();
    }

    @Test
    void report_withoutWork_estimatesItFromOwnRequests_andCountsUntilTheNextReport() {
        ServerLedger ledger = new ServerLedger(2, 3);
        ledger.assign(1, 0.2, 0);
        ledger.assign(1, 0.4, 0);
        assertThat(ledger.meanRequestSeconds()).isCloseTo(0.3, within(EPS));
        ledger.report(0, 4, Double.NaN, 1.0);
        assertThat(ledger.backlog(0, 1.0)).isCloseTo(1.2, within(EPS));
        assertThat(ledger.ongoing(0, 100)).isEqualTo(4);
        ledger.report(0, 0, Double.NaN, 101);
        assertThat(ledger.ongoing(0, 101)).isZero();
    }

    @Test
    void timeGoingBack_drainsNothing() {
        ServerLedger ledger = new ServerLedger(1, 3);
        ledger.assign(0, 1.0, 10);
        assertThat(ledger.backlog(0, 9)).isCloseTo(1.0, within(EPS));
        assertThat(ledger.assign(0, 0.5, 9)).as("queued behind, from the latest time seen").isCloseTo(11.5, within(EPS));
    }

    @Test
    void pick_prefersWarmServersUnderTheTarget_leastBacklogFirst() {
        ServerLedger ledger = new ServerLedger(4, 2);
        ledger.report(0, 1, 0.9, 0);
        ledger.report(1, 1, 0.3, 0);
        ledger.report(2, 2, 0.1, 0); // at the target
        ledger.report(3, 0, 0.0, 0); // idle but cold
        SplittableRandom rng = new SplittableRandom(1);
        int warm = 0; // servers 0, 1, 2
        int onlyTwo = 1; // server 2
        ledger.setPools(0, new int[] {warm});
        ledger.setPools(1, new int[] {warm});
        ledger.setPools(2, new int[] {warm, onlyTwo});
        for (int i = 0; i < 50; i++) {
            assertThat(ledger.pick(warm, ServerLedger.Taken.NONE, 0, rng)).isEqualTo(1);
        }
        assertThat(ledger.pick(warm, s -> s == 1, 0, rng)).as("server 1 taken by the request").isEqualTo(0);
        assertThat(ledger.pick(warm, s -> s != 2, 0, rng)).as("only server 2 left, at the target").isEqualTo(2);
        assertThat(ledger.pick(onlyTwo, ServerLedger.Taken.NONE, 0, rng))
                .as("no warm server under the target: the least backlog anywhere").isEqualTo(3);
        assertThat(ledger.pick(ServerLedger.NO_SERVER, ServerLedger.Taken.NONE, 0, rng)).as("no warm server").isEqualTo(3);
        assertThat(ledger.pick(ServerLedger.EVERY_SERVER, ServerLedger.Taken.NONE, 0, rng)).as("every server warm").isEqualTo(3);
        assertThat(ledger.pick(warm, ServerLedger.Taken.NONE, 0.1, rng))
                .as("at 0.1 s server 2's reported requests are done: under the target, least backlog").isEqualTo(2);
    }

    @Test
    void pick_everyServerTaken_anyServer() {
        ServerLedger ledger = new ServerLedger(3, 1);
        SplittableRandom rng = new SplittableRandom(2);
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            seen.add(ledger.pick(ServerLedger.EVERY_SERVER, s -> true, 0, rng));
        }
        assertThat(seen).containsExactlyInAnyOrder(0, 1, 2);
    }

    @Test
    void pick_spreadsOwnRequestsBetweenReports() {
        ServerLedger ledger = new ServerLedger(4, 3);
        SplittableRandom rng = new SplittableRandom(3);
        int[] hits = new int[4];
        for (int i = 0; i < 40; i++) {
            int s = ledger.pick(ServerLedger.EVERY_SERVER, ServerLedger.Taken.NONE, 0, rng);
            ledger.assign(s, 1.0, 0);
            hits[s]++;
        }
        assertThat(hits).containsExactly(10, 10, 10, 10);
        assertThat(ledger.backlog(0, 4)).isCloseTo(6.0, within(EPS));
    }

    @Test
    void ringGrows_keepingSendOrder() {
        ServerLedger ledger = new ServerLedger(1, 100);
        for (int i = 0; i < 37; i++) {
            ledger.assign(0, 1.0, i * 0.01);
        }
        assertThat(ledger.ongoing(0, 0.5)).isEqualTo(37);
        ledger.report(0, 20, 20, 0.195); // counts the 20 sent by 0.19 s
        assertThat(ledger.ongoing(0, 0.2)).isEqualTo(37);
        // the 17 later ones queue behind the 20 s reported, from 0.195 s to the last send at 0.36 s
        assertThat(ledger.backlog(0, 0.36)).isCloseTo(20 - (0.36 - 0.195) + 17, within(1e-9));
    }

    /** Tasks 0 and 2 on server 1 (2 Gops/s), task 1 on server 0 (1 Gops/s): one request on each server. */
    @Test
    void assignRequest_sumsTheWorkOfEachServersTasks() {
        ServerLedger ledger = new ServerLedger(new double[] {1e9, 2e9}, 3);
        ledger.assignRequest(new int[] {1, 0, 1, 0}, new double[] {1e9, 3e9, 2e9, 0}, 4, 0);
        assertThat(ledger.backlog(0, 0)).isCloseTo(3.0, within(EPS));
        assertThat(ledger.backlog(1, 0)).isCloseTo(1.5, within(EPS));
        assertThat(ledger.ongoing(0, 0)).isEqualTo(1);
        assertThat(ledger.ongoing(1, 0)).isEqualTo(1);
        assertThat(ledger.meanRequestSeconds()).isCloseTo(2.25, within(EPS));
    }

    @Test
    void finishedRequests_leaveTheRing_evenIfNobodyAsksForTheCount() {
        ServerLedger ledger = new ServerLedger(1, 3);
        for (int i = 0; i < 1_000_000; i++) {
            ledger.assign(0, 0.001, i * 0.002); // each done before the next is sent
        }
        assertThat(ledger.ringCapacity(0)).isLessThanOrEqualTo(4);
        assertThat(ledger.ongoing(0, 2_000)).isEqualTo(0);
    }

    @Test
    void sharedServers_ownFirst_thenOthersWarmUnderTheTarget_thenOwnLeastBacklog() {
        ServerLedger ledger = new ServerLedger(4, 2);
        ledger.own(0, 2); // owns servers 0 and 2
        assertThat(ledger.owns(0)).isTrue();
        assertThat(ledger.owns(1)).isFalse();
        ledger.report(0, 2, 0.5, 0); // own, at the target
        ledger.report(1, 0, 0.0, 0); // another's, idle
        ledger.report(2, 1, 3.0, 0); // own, under the target, busy
        ledger.report(3, 0, 0.0, 0); // another's, idle
        SplittableRandom rng = new SplittableRandom(9);
        int zeroAndOne = 0;
        int zero = 1;
        ledger.setPools(0, new int[] {zeroAndOne, zero});
        ledger.setPools(1, new int[] {zeroAndOne});
        for (int i = 0; i < 20; i++) {
            assertThat(ledger.pick(ServerLedger.EVERY_SERVER, ServerLedger.Taken.NONE, 0, rng)).as("own and under the target").isEqualTo(2);
            assertThat(ledger.pick(zeroAndOne, ServerLedger.Taken.NONE, 0, rng))
                    .as("own warm at the target: another's warm server under it").isEqualTo(1);
            assertThat(ledger.pick(zero, ServerLedger.Taken.NONE, 0, rng))
                    .as("no warm server under the target: own least backlog").isEqualTo(0);
            assertThat(ledger.pick(zero, s -> s == 0 || s == 2, 0, rng))
                    .as("own servers taken: any least backlog").isIn(1, 3);
        }
        ledger.own(0, 1);
        assertThat(ledger.owns(1)).isTrue();
        assertThatThrownBy(() -> ledger.own(2, 2)).hasMessageContaining("shard (2) must be in [0, shards (2))");
    }

    @Test
    void timeStandingStill_theRingStaysBounded_andTheBacklogKeepsEveryRequest() {
        ServerLedger ledger = new ServerLedger(1, 3);
        for (int i = 0; i < 100_000; i++) {
            ledger.assign(0, 0.001, 0);
        }
        assertThat(ledger.ringCapacity(0)).isLessThanOrEqualTo(64);
        assertThat(ledger.ongoing(0, 0)).isEqualTo(64);
        assertThat(ledger.backlog(0, 0)).isCloseTo(100.0, within(1e-6));
    }

    @Test
    void badArguments_areNamed() {
        assertThatThrownBy(() -> new ServerLedger(new double[] {1, -1}, 3)).hasMessageContaining("compute rate of server 1 (-1.0 ops/s)");
        assertThatThrownBy(() -> new ServerLedger(0, 3)).hasMessageContaining("servers (0)");
        assertThatThrownBy(() -> new ServerLedger(1, 0)).hasMessageContaining("target ongoing requests (0)");
        ServerLedger ledger = new ServerLedger(1, 1);
        assertThatThrownBy(() -> ledger.report(0, -1, 0, 0)).hasMessageContaining("ongoing requests (-1)");
        assertThatThrownBy(() -> ledger.report(0, 0, -1, 0)).hasMessageContaining("reported work (-1.0 s)");
        assertThatThrownBy(() -> ledger.assign(0, Double.NaN, 0)).hasMessageContaining("request work (NaN s)");
    }

    @Test
    void inPool_noneOneOrSeveralPools_andAfterAChange() {
        ServerLedger ledger = new ServerLedger(3, 2);
        ledger.setPools(1, new int[] {4});
        ledger.setPools(2, new int[] {0, 4, 7});
        for (int pool : new int[] {-2, -1, 0, 3, 4, 7}) {
            assertThat(ledger.inPool(0, pool)).as("no pool, %d", pool).isFalse();
            assertThat(ledger.inPool(1, pool)).as("pool 4, %d", pool).isEqualTo(pool == 4);
            assertThat(ledger.inPool(2, pool)).as("pools 0, 4, 7, %d", pool)
                    .isEqualTo(pool == 0 || pool == 4 || pool == 7);
        }
        ledger.setPools(2, new int[] {3});
        ledger.setPools(1, new int[0]);
        assertThat(ledger.inPool(2, 3)).isTrue();
        assertThat(ledger.inPool(2, 4)).isFalse();
        assertThat(ledger.inPool(1, 4)).isFalse();
    }

    /**
     * {@link ServerLedger#touchNext} only reads: two ledgers given the same reports and requests, one touched after
     * every request, pick the same servers with the same backlogs and counts; {@link ServerLedger#next} names the
     * least of the pool's servers, which the pick takes when it is under the target and not taken.
     */
    @Test
    void touchNext_changesNoPick() {
        ServerLedger plain = new ServerLedger(40, 2);
        ServerLedger touched = new ServerLedger(40, 2);
        for (int s = 0; s < 40; s++) {
            int[] pools = s % 5 == 0 ? new int[] {0, 1} : s % 3 == 0 ? new int[0] : new int[] {s % 2};
            plain.setPools(s, pools);
            touched.setPools(s, pools);
        }
        assertThat(touched.touchNext(7)).as("a pool nobody is in").isZero();
        SplittableRandom ops = new SplittableRandom(5);
        SplittableRandom rngA = new SplittableRandom(9);
        SplittableRandom rngB = new SplittableRandom(9);
        double now = 0;
        int tookNext = 0;
        for (int i = 0; i < 5_000; i++) {
            now += ops.nextDouble() * 0.01;
            if (ops.nextInt(10) == 0) {
                int s = ops.nextInt(40);
                int ongoing = ops.nextInt(4);
                double work = ops.nextDouble();
                plain.report(s, ongoing, work, now);
                touched.report(s, ongoing, work, now);
                continue;
            }
            int pool = ops.nextInt(3) - 1; // -1: every server (the simulator's), 0, 1
            int next = touched.next(pool);
            int a = plain.pick(pool, ServerLedger.Taken.NONE, now, rngA);
            int b = touched.pick(pool, ServerLedger.Taken.NONE, now, rngB);
            assertThat(b).as("request %d", i).isEqualTo(a);
            if (b == next) {
                tookNext++;
            }
            double work = ops.nextDouble() * 0.1;
            assertThat(touched.assign(b, work, now)).isEqualTo(plain.assign(a, work, now));
            touched.touchNext(pool);
            assertThat(touched.ongoing(b, now)).isEqualTo(plain.ongoing(a, now));
        }
        assertThat(tookNext).as("picks that took the server next() named").isGreaterThan(1_000);
    }
}
