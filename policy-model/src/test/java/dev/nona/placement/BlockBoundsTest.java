package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.workload.ServerClass;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class BlockBoundsTest {
    private static final int BLOCK = BlockBounds.BLOCK;

    /** Every up server of {@code block} whose memory holds {@code bytes}: its $B_s(t) + p/\nu_s$ as the rule computes it. */
    private static double leastFinish(ServerLedger ledger, double[] memory, int block, double ops, double bytes,
            double now) {
        double least = Double.POSITIVE_INFINITY;
        for (int t = block * BLOCK; t < Math.min(ledger.servers(), (block + 1) * BLOCK); t++) {
            if (ledger.isUp(t) && bytes <= memory[t]) {
                double rate = ledger.rate(t);
                least = Math.min(least, ledger.backlog(t, now) + (rate > 0 ? ops / rate : 0));
            }
        }
        return least;
    }

    /**
     * The bound is at most the least $B_s(t) + p/\nu_s$ over the block's up servers that could hold the part, through
     * random reports (some made after the request's time, some lowering a backlog), assigns (some with a load), rate
     * changes, servers going down and up and memory changes (up to seven values in a block, more than its groups), on
     * a clock of epoch seconds (where a unit in the last place is 0.24 us) and on one from 0; it is infinite when no
     * such server is up; and with one server it is that server's own sum, to the last unit, also when asked for a time
     * before the server's last update (a report or an assign with or without a load can then lower the backlog).
     */
    @Test
    void finishLowerBound_neverExceedsAFeasibleUpServersFinish_andFollowsEveryChange() {
        double[] memories = {100, 200, 300, 400, 500, 600, ServerClass.UNBOUNDED};
        for (double base : new double[] {0, 1.764e9}) {
            SplittableRandom rng = new SplittableRandom(5);
            ServerLedger ledger = new ServerLedger(4);
            int servers = 3 * BLOCK + 7;
            double[] memory = new double[servers];
            ledger.memoryOf(t -> memory[t]);
            for (int s = 0; s < servers; s++) {
                ledger.addServer(s % 5 == 0 ? 0 : 1e9 * (1 + rng.nextInt(4)));
                memory[s] = ServerClass.UNBOUNDED;
            }
            double now = base;
            int infinite = 0;
            int tight = 0;
            for (int step = 0; step < 30_000; step++) {
                now += rng.nextDouble() * 0.01;
                int s = rng.nextInt(servers);
                switch (rng.nextInt(7)) {
                    case 0 -> ledger.report(s, rng.nextInt(3), rng.nextDouble() * 4, now + rng.nextDouble() * 0.05 - 0.025);
                    case 1 -> ledger.setRate(s, 1e9 * (1 + rng.nextInt(8)));
                    case 2 -> ledger.setUp(s, rng.nextInt(4) > 0);
                    case 3 -> {
                        memory[s] = memories[rng.nextInt(memories.length)];
                        ledger.memoryChanged(s);
                    }
                    case 4 -> ledger.assignRequest(new int[] {s}, new double[] {rng.nextDouble() * 4e9},
                            new double[] {rng.nextDouble() * 0.5}, 1, now);
                    default -> ledger.assign(s, rng.nextDouble() * 4, now);
                }
                double ops = rng.nextDouble() * 1e9;
                double bytes = rng.nextDouble() * 700;
                int block = rng.nextInt(servers / BLOCK + 1);
                double bound = ledger.finishLowerBound(block, ops, bytes, now);
                double least = leastFinish(ledger, memory, block, ops, bytes, now);
                assertThat(bound).as("base %s step %d block %d", base, step, block).isLessThanOrEqualTo(least);
                if (least == Double.POSITIVE_INFINITY) {
                    assertThat(bound).as("no up server of block %d holds %s bytes", block, bytes).isInfinite();
                    infinite++;
                } else if (bound == least) {
                    tight++;
                }
            }
            assertThat(infinite).as("blocks where no up server held the part").isPositive();
            assertThat(tight).as("bounds equal to the least finish").isPositive();
            ServerLedger one = new ServerLedger(4); // one server: the bound is its own, to the last unit
            one.addServer(1e9);
            double clock = base;
            for (int step = 0; step < 20_000; step++) {
                clock += rng.nextDouble() * 0.01;
                switch (rng.nextInt(3)) {
                    case 0 -> one.report(0, 1, rng.nextDouble() * 0.05, clock + rng.nextDouble() * 0.02 - 0.01);
                    case 1 -> one.assign(0, rng.nextDouble() * 0.01, clock);
                    default -> one.assignRequest(new int[] {0}, new double[] {rng.nextDouble() * 1e7},
                            new double[] {rng.nextDouble() * 0.005}, 1, clock);
                }
                double at = clock + rng.nextDouble() * 0.02 - 0.01;
                assertThat(one.finishLowerBound(0, 1e6, 1, at)).as("base %s step %d", base, step)
                        .isLessThanOrEqualTo(one.backlog(0, at) + 1e6 / 1e9);
            }
        }
    }

    /**
     * The slack covers the idle time's rounding when it is far larger than the request's time (a backlog of hundreds
     * of seconds on a clock near 0): the bound stays at most the server's own sum.
     */
    @Test
    void finishLowerBound_longBacklogsOnAYoungClock_stayBelowTheServersSum() {
        SplittableRandom rng = new SplittableRandom(11);
        for (int trial = 0; trial < 20_000; trial++) {
            ServerLedger one = new ServerLedger(4);
            one.addServer(1e9);
            double at = rng.nextDouble() * 0.01;
            one.report(0, 1, 500 + rng.nextDouble() * 500, at);
            double now = at + rng.nextDouble() * 0.01;
            assertThat(one.finishLowerBound(0, 1e6, 1, now)).as("trial %d", trial)
                    .isLessThanOrEqualTo(one.backlog(0, now) + 1e6 / 1e9);
        }
    }

    /**
     * Worked example: a block of 64 servers alternating a large class (4e9 ops/s, 16 GB), busy with 1 s of work each,
     * and a small class (1e9 ops/s, 200 MB), idle. A part of 1e9 ops and 244 MB fits only the large servers: its bound
     * is their 1 s plus 0.25 s, not the small servers' 0 s at the large rate. A part of 47 MB fits both: 1 s at the
     * small rate, against 1.25 s on a large one; and if the small servers go down, the large servers' 1.25 s. (Each
     * less a few units in the last place of the times: the bound's slack.)
     */
    @Test
    void finishLowerBound_seesOnlyTheGroupsThatHoldThePart_eachAtItsOwnRate() {
        ServerLedger ledger = new ServerLedger(4);
        double[] memory = new double[BLOCK];
        ledger.memoryOf(t -> memory[t]);
        for (int s = 0; s < BLOCK; s++) {
            boolean large = s % 2 == 0;
            ledger.addServer(large ? 4e9 : 1e9);
            memory[s] = large ? 16e9 : 200e6;
            ledger.memoryChanged(s);
            ledger.report(s, large ? 2 : 0, large ? 1.0 : 0.0, 10);
        }
        assertThat(ledger.finishLowerBound(0, 1e9, 244e6, 10)).isCloseTo(1.0 + 0.25, within(1e-12));
        assertThat(ledger.finishLowerBound(0, 1e9, 47e6, 10)).isCloseTo(1.0, within(1e-12));
        assertThat(ledger.finishLowerBound(0, 1e9, 17e9, 10)).isInfinite();
        for (int s = 1; s < BLOCK; s += 2) {
            ledger.setUp(s, false);
        }
        assertThat(ledger.finishLowerBound(0, 1e9, 47e6, 10)).as("the small servers down").isCloseTo(1.25, within(1e-12));
        memory[0] = 100e6;
        ledger.memoryChanged(0);
        assertThat(ledger.finishLowerBound(0, 1e9, 244e6, 10.5)).as("still 0.5 s of work at 10.5 s").isCloseTo(0.5 + 0.25, within(1e-12));
    }
}
