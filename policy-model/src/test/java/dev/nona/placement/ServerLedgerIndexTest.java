package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The indexed pick against the rule it implements, checked by brute force over every server: random reports,
 * requests, servers going down and up, warm pools, ownership and taken servers, with time moving forward.
 */
final class ServerLedgerIndexTest {
    private static final int TARGET = 3;

    @Test
    void pick_followsTheRule_asAScanOverEveryServerWould() {
        SplittableRandom rng = new SplittableRandom(42);
        int checked = 0;
        for (int round = 0; round < 40; round++) {
            int servers = 1 + rng.nextInt(60);
            int pools = 1 + rng.nextInt(4);
            ServerLedger ledger = new ServerLedger(TARGET);
            List<int[]> poolsOf = new ArrayList<>();
            double now = 0;
            for (int s = 0; s < servers; s++) {
                ledger.addServer(1 + rng.nextInt(3));
                poolsOf.add(randomPools(rng, pools));
                ledger.setPools(s, poolsOf.get(s));
                ledger.setOwned(s, rng.nextInt(3) > 0);
            }
            for (int step = 0; step < 400; step++) {
                now += rng.nextDouble() * 0.05;
                int s = rng.nextInt(servers);
                switch (rng.nextInt(10)) {
                    case 0 -> ledger.report(s, rng.nextInt(5), rng.nextBoolean() ? rng.nextDouble() * 2 : Double.NaN,
                            now);
                    case 1 -> ledger.setUp(s, rng.nextInt(4) > 0);
                    case 2 -> {
                        poolsOf.set(s, randomPools(rng, pools));
                        ledger.setPools(s, poolsOf.get(s));
                    }
                    case 3 -> ledger.setOwned(s, rng.nextBoolean());
                    default -> {
                        int pool = rng.nextInt(pools + 1) - 1; // -1: every server
                        boolean[] taken = new boolean[servers];
                        for (int k = rng.nextInt(4); k > 0; k--) {
                            taken[rng.nextInt(servers)] = true;
                        }
                        int picked = ledger.pick(pool, x -> taken[x], now, rng);
                        check(ledger, poolsOf, pool, taken, now, picked);
                        checked++;
                        if (picked >= 0) {
                            ledger.assign(picked, rng.nextDouble() * 0.3, now);
                        }
                    }
                }
            }
        }
        assertThat(checked).isGreaterThan(5_000);
    }

    private static int[] randomPools(SplittableRandom rng, int pools) {
        List<Integer> in = new ArrayList<>();
        for (int p = 0; p < pools; p++) {
            if (rng.nextBoolean()) {
                in.add(p);
            }
        }
        return in.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The rule's stages, in order; the pick must come from the first non-empty one, at its least backlog. */
    private static void check(ServerLedger ledger, List<int[]> poolsOf, int pool, boolean[] taken, double now, int picked) {
        int n = ledger.servers();
        List<List<Integer>> stages = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (int s = 0; s < n; s++) {
            if (!ledger.isUp(s) || taken[s]) {
                continue;
            }
            boolean warm = pool == ServerLedger.EVERY_SERVER || contains(poolsOf.get(s), pool);
            boolean under = ledger.ongoing(s, now) < TARGET;
            if (warm && under) {
                stages.get(ledger.owns(s) ? 0 : 1).add(s);
            }
            if (ledger.owns(s)) {
                stages.get(2).add(s);
            }
            stages.get(3).add(s);
        }
        for (List<Integer> stage : stages) {
            if (stage.isEmpty()) {
                continue;
            }
            double least = stage.stream().mapToDouble(s -> ledger.backlog(s, now)).min().orElseThrow();
            assertThat(stage).as("stage of the pick").contains(picked);
            assertThat(ledger.backlog(picked, now)).as("least backlog of its stage").isEqualTo(least);
            return;
        }
        if (ledger.upCount() == 0) {
            assertThat(picked).isEqualTo(-1);
        } else {
            assertThat(ledger.isUp(picked)).as("every up server taken: any up server").isTrue();
        }
    }

    private static boolean contains(int[] pools, int p) {
        for (int x : pools) {
            if (x == p) {
                return true;
            }
        }
        return false;
    }
}
