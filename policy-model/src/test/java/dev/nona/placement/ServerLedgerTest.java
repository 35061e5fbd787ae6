package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class ServerLedgerTest {
    private static final double EPS = 1e-12;

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
    void badArguments_areNamed() {
        assertThatThrownBy(() -> new ServerLedger(new double[] {1, -1}, 3)).hasMessageContaining("compute rate of server 1 (-1.0 ops/s)");
        assertThatThrownBy(() -> new ServerLedger(0, 3)).hasMessageContaining("servers (0)");
        assertThatThrownBy(() -> new ServerLedger(1, 0)).hasMessageContaining("target ongoing requests (0)");
        ServerLedger ledger = new ServerLedger(1, 1);
        assertThatThrownBy(() -> ledger.report(0, -1, 0, 0)).hasMessageContaining("ongoing requests (-1)");
        assertThatThrownBy(() -> ledger.report(0, 0, -1, 0)).hasMessageContaining("reported work (-1.0 s)");
        assertThatThrownBy(() -> ledger.assign(0, Double.NaN, 0)).hasMessageContaining("request work (NaN s)");
    }
}
