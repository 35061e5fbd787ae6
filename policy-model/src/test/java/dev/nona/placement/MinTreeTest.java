package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The tournament tree against a scan of its members: random adds, removes, presence changes and key changes (each
 * followed by {@link MinTree#update}, as the ledger does), keys drawn from a few values so that ties are common.
 */
final class MinTreeTest {
    @Test
    void min_isTheLeastKeyLowestIndex_asAScanWouldFind() {
        assertThat(checkAgainstScan(7, 1, false)).isEqualTo(30 * 3_000);
        assertThat(checkAgainstScan(7, 1, true)).isEqualTo(30 * 3_000);
    }

    /** A deferred tree re-ranks at the next read: many changes between two reads (about 200) give the same minimum. */
    @Test
    void min_afterManyUpdatesBetweenReads_isTheScansMinimum() {
        assertThat(checkAgainstScan(11, 200, true)).isGreaterThan(30 * 3_000 / 400);
        assertThat(checkAgainstScan(11, 200, false)).isGreaterThan(30 * 3_000 / 400);
    }

    /** Random changes, {@link MinTree#min} read after a change with probability {@code 1 / readEvery}; the reads. */
    private static int checkAgainstScan(long seed, int readEvery, boolean deferred) {
        SplittableRandom rng = new SplittableRandom(seed);
        int checked = 0;
        for (int round = 0; round < 30; round++) {
            int servers = 1 + rng.nextInt(300);
            double[] keys = new double[servers];
            MinTree tree = new MinTree(s -> keys[s], deferred);
            boolean[] member = new boolean[servers];
            boolean[] present = new boolean[servers];
            for (int step = 0; step < 3_000; step++) {
                int s = rng.nextInt(servers);
                switch (rng.nextInt(6)) {
                    case 0 -> {
                        if (!member[s]) {
                            keys[s] = rng.nextInt(8);
                            present[s] = rng.nextBoolean();
                            member[s] = true;
                            tree.add(s, present[s]);
                        }
                    }
                    case 1 -> {
                        tree.remove(s);
                        member[s] = false;
                        present[s] = false;
                    }
                    case 2 -> {
                        boolean p = rng.nextBoolean();
                        tree.set(s, p);
                        present[s] = member[s] && p;
                    }
                    default -> {
                        keys[s] = rng.nextInt(4) == 0 ? keys[s] + rng.nextDouble() : rng.nextInt(8);
                        tree.update(s);
                    }
                }
                assertThat(tree.present(s)).isEqualTo(present[s]);
                if (rng.nextInt(readEvery) == 0) {
                    assertThat(tree.min()).as("round %d step %d", round, step).isEqualTo(scan(keys, present));
                    checked++;
                }
            }
        }
        return checked;
    }

    @Test
    void keyChangedWhileAbsent_countsFromWhenTheServerIsBack() {
        double[] keys = {5, 3, 4};
        MinTree tree = new MinTree(s -> keys[s]);
        for (int s = 0; s < keys.length; s++) {
            tree.add(s, true);
        }
        assertThat(tree.min()).isEqualTo(1);
        tree.set(1, false);
        keys[1] = 9; // no update needed while absent
        assertThat(tree.min()).isEqualTo(2);
        tree.set(1, true);
        keys[2] = 10;
        tree.update(2);
        assertThat(tree.min()).isEqualTo(0);
    }

    private static int scan(double[] keys, boolean[] present) {
        int best = -1;
        for (int s = 0; s < keys.length; s++) {
            if (present[s] && (best < 0 || keys[s] < keys[best])) {
                best = s;
            }
        }
        return best;
    }
}
