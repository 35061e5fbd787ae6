package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class ReadAheadTest {
    /**
     * The read-ahead only reads: two ledgers given the same reports and requests, one reading ahead after every
     * request and one never, pick the same servers with the same backlogs and counts; the server it reads is the
     * least of the pool's own servers, which the next pick of that pool takes when it is under the target and not
     * taken.
     */
    @Test
    void readAhead_changesNoPick_andReadsTheNextPicksServer() {
        ServerLedger plain = new ServerLedger(2, new ReadAhead(Integer.MAX_VALUE));
        ServerLedger ahead = new ServerLedger(2, new ReadAhead(0));
        int[] read = {-1};
        ahead.readAheadAlso(s -> {
            read[0] = s;
            return s;
        });
        for (int s = 0; s < 40; s++) {
            int[] pools = s % 5 == 0 ? new int[] {0, 1} : s % 3 == 0 ? new int[0] : new int[] {s % 2};
            for (ServerLedger ledger : new ServerLedger[] {plain, ahead}) {
                ledger.addServer(1);
                ledger.setPools(s, pools);
            }
        }
        SplittableRandom ops = new SplittableRandom(5);
        SplittableRandom rngA = new SplittableRandom(9);
        SplittableRandom rngB = new SplittableRandom(9);
        double now = 0;
        int tookRead = 0;
        int lastPool = ServerLedger.NO_SERVER;
        for (int i = 0; i < 5_000; i++) {
            now += ops.nextDouble() * 0.01;
            if (ops.nextInt(10) == 0) {
                int s = ops.nextInt(40);
                int ongoing = ops.nextInt(4);
                double work = ops.nextDouble();
                plain.report(s, ongoing, work, now);
                ahead.report(s, ongoing, work, now);
                continue;
            }
            int pool = ops.nextInt(3) - 1; // -1: every server (the simulator's), 0, 1
            int a = plain.pick(pool, ServerLedger.Taken.NONE, now, rngA);
            int b = ahead.pick(pool, ServerLedger.Taken.NONE, now, rngB);
            assertThat(b).as("request %d", i).isEqualTo(a);
            if (pool == lastPool && b == read[0]) {
                tookRead++;
            }
            double[] work = {ops.nextDouble() * 1e-1};
            read[0] = -1;
            plain.assignRequest(new int[] {a}, work, 1, now);
            ahead.assignRequest(new int[] {b}, work, 1, now);
            lastPool = pool;
            assertThat(ahead.ongoing(b, now)).isEqualTo(plain.ongoing(a, now));
            assertThat(ahead.backlog(b, now)).isEqualTo(plain.backlog(a, now));
        }
        assertThat(plain.readAheads()).isZero();
        assertThat(ahead.readAheads()).isGreaterThan(4_000);
        assertThat(tookRead).as("picks of the same pool that took the server read ahead").isGreaterThan(1_000);
    }

    @Test
    void belowItsServers_readsNothing() {
        ServerLedger ledger = new ServerLedger(2, new ReadAhead(3));
        for (int s = 0; s < 2; s++) {
            ledger.addServer(1);
        }
        ledger.pick(ServerLedger.EVERY_SERVER, ServerLedger.Taken.NONE, 0, new SplittableRandom(1));
        ledger.assignRequest(new int[] {0}, new double[] {1}, 1, 0);
        assertThat(ledger.readAheads()).isZero();
        ledger.addServer(1);
        ledger.pick(ServerLedger.EVERY_SERVER, ServerLedger.Taken.NONE, 0, new SplittableRandom(1));
        ledger.assignRequest(new int[] {0}, new double[] {1}, 1, 0);
        assertThat(ledger.readAheads()).isEqualTo(1);
    }
}
