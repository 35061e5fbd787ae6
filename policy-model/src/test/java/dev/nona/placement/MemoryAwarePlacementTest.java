package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.within;

import dev.nona.workload.ColdStartCost;
import dev.nona.workload.ServerClass;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

final class MemoryAwarePlacementTest {
    private static final List<String> TASKS = List.of("a1", "a2", "b", "c", "d", "e", "f", "g");
    private static final long T = 1_000;

    private static Map<String, Double> each(double v) {
        Map<String, Double> m = new HashMap<>();
        TASKS.forEach(t -> m.put(t, v));
        return m;
    }

    /** e and f weigh 3 bytes, the others 1: the table's parts weigh 3 (a1 a2 b), 9 or 5 (c d e [f g]) and 4 (f g). */
    private static Map<String, Double> bytes() {
        Map<String, Double> m = each(1.0);
        m.put("e", 3.0);
        m.put("f", 3.0);
        return m;
    }

    /** 2 "big" servers of 10 bytes and 6 "small" of 5, with random backlogs; the model warm on some. */
    private static LiveServers twoClasses(SplittableRandom rng, LiveServers.Rule rule) {
        LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        servers.rule(rule);
        for (int s = 0; s < 8; s++) {
            boolean big = s < 2;
            servers.report("s" + s, true, big ? 4e9 : 1e9, rng.nextInt(3), rng.nextDouble() * 3,
                    rng.nextBoolean() ? List.of("m") : List.of(), big ? "big" : "small", big ? 10 : 5, T, 0);
        }
        return servers;
    }

    @ParameterizedTest
    @EnumSource(LiveServers.Rule.class)
    void place_neverPutsMoreBytesOnAServerThanItsMemory(LiveServers.Rule rule) {
        ControllerPlacement placement = ControllerPlacement.of(new PlacementSampler(PlacementSamplerTest.table(8)), "m",
                each(1e9), bytes());
        SplittableRandom rng = new SplittableRandom(7);
        double[] b = {1, 1, 1, 1, 1, 3, 3, 1};
        int bigOnes = 0;
        for (int r = 0; r < 2_000; r++) {
            LiveServers servers = twoClasses(rng, rule);
            int[] out = placement.place(servers, T, rng);
            double[] on = new double[8];
            for (int t = 0; t < out.length; t++) {
                on[out[t]] += b[t];
            }
            for (int s = 0; s < 8; s++) {
                assertThat(on[s]).as("bytes on server %d (request %d)", s, r).isLessThanOrEqualTo(servers.memoryBytes(s));
            }
            bigOnes += on[0] + on[1] > 0 ? 1 : 0;
        }
        assertThat(bigOnes).as("the 9-byte part needs a big server").isPositive();
    }

    /**
     * The thesis's Eqs. (1) and (2) (§6.5) with $T_P = 0$: a part of $T_I$ = 1 s (1e9 ops at 1e9 ops/s) whose load is
     * $T_{CS}$ = 1 + 2e9 / 1e9 = 3 s. Queuing behind $n$ requests on the warm server finishes at $(n + 1) T_I$; a cold
     * start on an idle server at $0 + T_{CS} + T_I$ = 4 s. With n = 1: 2 s against 4 s, it queues; with n = 4:
     * 5 s against 4 s, it starts cold. The pick is by marginal cost, which adds the delay to the n requests there,
     * min(n * 1, n): 3 s against 4 s, and 9 s against 4 s, the same picks.
     */
    @Test
    void expectedFinish_weighsQueueingAgainstAColdStart_asTheThesisModel() {
        ControllerPlacement local = ControllerPlacement.local("m", List.of("t"), new double[] {1e9}, new double[] {2e9}, 0);
        for (int n : new int[] {1, 4}) {
            LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
            servers.coldStart(new ColdStartCost(1, 1e9));
            servers.report("warm", true, 1e9, n, n * 1.0, List.of("m"), "gpu", 1e10, T, 0);
            servers.report("cold", true, 1e9, 0, 0.0, List.of(), "gpu", 1e10, T, 0);
            int warm = servers.warm("m");
            assertThat(servers.expectedFinishSeconds(0, warm, 1e9, 2e9, T)).isCloseTo(n + 1.0, within(1e-9));
            assertThat(servers.expectedFinishSeconds(1, warm, 1e9, 2e9, T)).isCloseTo(4.0, within(1e-9));
            PlacementExplanation why = new PlacementExplanation();
            int s = local.place(servers, T, new SplittableRandom(n), why)[0];
            assertThat(servers.id(s)).as("n = %d", n).isEqualTo(n == 1 ? "warm" : "cold");
            assertThat(why.described()).isTrue();
            assertThat(why.serverClass(0)).isEqualTo("gpu");
            assertThat(why.coldStart(0)).isEqualTo(n != 1);
            assertThat(why.coldStartSeconds(0)).isCloseTo(n == 1 ? 0 : 3.0, within(1e-9));
        }
    }

    /**
     * The executors load a part when its first task starts (the simulator's engine, which the executor twin runs), so
     * a load queues behind the backlog: $\hat F_s = B_s + T_{CS} + T_I$. A cold server with 2 s of backlog (one
     * request): 2 + 3 + 1 = 6 s (overlapping the load with the backlog, $\max(B_s, T_{CS}) + T_I$, would say 4 s), a
     * marginal cost of 6 + min(1 * 4, 2) = 8 s (4 + 2 = 6 s with the overlap); the warm one behind n = 3 requests of
     * 3 s: 4 s, a marginal cost of 4 + min(3 * 1, 3) = 7 s, so it queues. Once placed cold, the load is in the ledger:
     * an idle cold server's backlog grows by $T_{CS} + T_I$ = 4 s, a warm one's by $T_I$ = 1 s.
     */
    @Test
    void expectedFinish_aColdStartQueuesBehindTheBacklog_andTheLedgerCountsIt() {
        LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        servers.coldStart(new ColdStartCost(1, 1e9));
        servers.report("warm", true, 1e9, 3, 3.0, List.of("m"), "gpu", 1e10, T, 0);
        servers.report("cold", true, 1e9, 1, 2.0, List.of(), "gpu", 1e10, T, 0);
        int warm = servers.warm("m");
        assertThat(servers.expectedFinishSeconds(1, warm, 1e9, 2e9, T)).isCloseTo(6.0, within(1e-9));
        ControllerPlacement local = ControllerPlacement.local("m", List.of("t"), new double[] {1e9}, new double[] {2e9}, 0);
        assertThat(servers.id(local.place(servers, T, new SplittableRandom(1))[0])).isEqualTo("warm");
        assertThat(servers.backlogSeconds(0, T)).isCloseTo(4.0, within(1e-9));

        LiveServers idle = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        idle.coldStart(new ColdStartCost(1, 1e9));
        idle.report("cold", true, 1e9, 0, 0.0, List.of("other"), "gpu", 1e10, T, 0);
        assertThat(idle.id(local.place(idle, T, new SplittableRandom(1))[0])).isEqualTo("cold");
        assertThat(idle.backlogSeconds(0, T)).as("load 3 s, then 1 s of work").isCloseTo(4.0, within(1e-9));
        assertThat(idle.isWarmFor(0, idle.warm("m"))).as("loading the whole model: warm until the next report").isTrue();
        assertThat(idle.expectedFinishSeconds(0, idle.warm("m"), 1e9, 2e9, T)).as("4 s of backlog + 1 s, no load")
                .isCloseTo(5.0, within(1e-9));
        idle.report("cold", true, 1e9, 0, 0.0, List.of("other"), "gpu", 1e10, T + 1, 0);
        assertThat(idle.isWarmFor(0, idle.warm("m"))).as("the next report says what it holds").isFalse();
        assertThat(idle.backlogSeconds(0, T + 1)).as("a report counts compute, not the load: the ledger keeps it")
                .isCloseTo(3.0, within(1e-9));
    }

    /**
     * Rent or buy. Parts of $T_I$ = 1 s whose load is $T_{CS}$ = 3 s; the warm server holds one request of 0.4 s, the
     * cold one is idle. The first request costs 0.4 + 1 + min(1 * 1, 0.4) = 1.8 s warm against 4 s cold, so it
     * queues; had the cold server held the model it would have cost 1 s: the rent is 0.8 s. The second costs 1.4 + 1 +
     * min(2 * 1, 1.4) = 3.8 s warm against 4 s cold, the least cost alone queues it too, but the rent reaches 0.8 + 2.8
     * = 3.6 s >= 3 s: it loads the model on the cold server. It does not when the cold server has a backlog, or when
     * the load would evict a model it holds.
     */
    @Test
    void expectedFinish_loadsTheModelOnceTheRentReachesTheLoad() {
        ControllerPlacement local = ControllerPlacement.local("m", List.of("t"), new double[] {1e9}, new double[] {2e9}, 0);
        for (String c : List.of("idle", "busy", "full")) {
            LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
            servers.coldStart(new ColdStartCost(1, 1e9));
            servers.report("warm", true, 1e9, 1, 0.4, List.of("m"), "gpu", 1e10, T, 0);
            if (c.equals("full")) {
                ControllerPlacement other = ControllerPlacement.local("other", List.of("t"), new double[] {1e9},
                        new double[] {9e9}, 0);
                servers.report("cold", true, 1e9, 0, 0.0, List.of("other"), "gpu", 1e10, T, 0);
                assertThat(servers.id(other.place(servers, T, new SplittableRandom(1))[0])).isEqualTo("cold");
                servers.report("cold", true, 1e9, 0, 0.0, List.of("other"), "gpu", 1e10, T, 0);
            } else {
                servers.report("cold", true, 1e9, 0, c.equals("busy") ? 0.01 : 0.0, List.of(), "gpu", 1e10, T, 0);
            }
            assertThat(servers.id(local.place(servers, T, new SplittableRandom(1))[0])).as(c).isEqualTo("warm");
            assertThat(servers.id(local.place(servers, T, new SplittableRandom(2))[0])).as(c)
                    .isEqualTo(c.equals("idle") ? "cold" : "warm");
        }
    }

    /**
     * The load's weight $w$. As above ($T_I$ = 1 s, $T_{CS}$ = 3 s, the warm server holding 0.4 s), with $w$ = 2 a load
     * is priced 6 s: the cold server costs 1 + 6 = 7 s. The first two requests queue on the warm one (1.8 s, 3.8 s),
     * and the rent, 0.8 + 2.8 = 3.6 s, is below 6 s, so the second does not load the model (with $w$ = 1 it did). The
     * third costs 2.4 + 1 + min(3 * 1, 2.4) = 5.8 s warm against 7 s cold, and the rent reaches 3.6 + 4.8 = 8.4 s
     * >= 6 s: it loads the model. The predicted load stays 3 s: the weight prices a load, it does not lengthen it.
     */
    @Test
    void expectedFinish_aLoadsWeight_pricesItsSeconds_andDelaysTheBuy() {
        ControllerPlacement local = ControllerPlacement.local("m", List.of("t"), new double[] {1e9}, new double[] {2e9}, 0);
        LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        servers.coldStart(new ColdStartCost(1, 1e9, 2));
        servers.report("warm", true, 1e9, 1, 0.4, List.of("m"), "gpu", 1e10, T, 0);
        servers.report("cold", true, 1e9, 0, 0.0, List.of(), "gpu", 1e10, T, 0);

        assertThat(servers.id(local.place(servers, T, new SplittableRandom(1))[0])).isEqualTo("warm");
        assertThat(servers.id(local.place(servers, T, new SplittableRandom(2))[0])).isEqualTo("warm");
        assertThat(servers.id(local.place(servers, T, new SplittableRandom(3))[0])).isEqualTo("cold");
        assertThat(servers.coldStartSeconds(2e9)).isCloseTo(3.0, within(1e-12));
        assertThat(new ColdStartCost(1, 1e9)).isEqualTo(new ColdStartCost(1, 1e9, ColdStartCost.DEFAULT_WEIGHT));
        assertThatThrownBy(() -> new ColdStartCost(1, 1e9, 0)).hasMessageContaining("cluster.coldStart.weight (0.0)");
        assertThatThrownBy(() -> new ColdStartCost(1, 1e9, Double.NaN)).hasMessageContaining("cluster.coldStart.weight (NaN)");
    }

    /**
     * The rent's half-life $H$. As in the rent-or-buy example ($T_I$ = 1 s, $T_{CS}$ = 3 s), a request every 2 s finds
     * the warm server holding 1 request of 0.4 s and the cold one idle: 0.4 + 1 + min(1 * 1, 0.4) = 1.8 s warm against
     * 4 s cold, so it queues, and not loading the model cost it 1.8 - 1 = 0.8 s. The rent before the $k$-th request is
     * $r_k = 0.8 + r_{k-1} \cdot 2^{-2/H}$. At $H$ = 60 s: 0.80, 1.58, 2.35, 3.09 s: the 4th request loads the model
     * (3.09 >= 3). At the default $H$ = 5 s: 0.80, 1.41, 1.87, 2.21, 2.48, 2.68, 2.83, 2.94, 3.03 s: the 9th. At
     * $H$ = 1 s the rent tends to 0.8 / (1 - 1/4) = 1.07 s, below the load: no request of the ten loads it.
     */
    @Test
    void expectedFinish_theRentDecays_soOnlyLossesThatRecurBuyALoad() {
        ControllerPlacement local = ControllerPlacement.local("m", List.of("t"), new double[] {1e9}, new double[] {2e9}, 0);
        Map<Double, Integer> firstLoad = new LinkedHashMap<>();
        for (double halfLife : new double[] {60, ColdStartCost.DEFAULT_RENT_HALF_LIFE_SECONDS, 1}) {
            LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
            servers.coldStart(new ColdStartCost(1, 1e9, 1, halfLife));
            firstLoad.put(halfLife, 0);
            for (int k = 1; k <= 10; k++) {
                long t = T + 2_000L * k;
                servers.report("warm", true, 1e9, 1, 0.4, List.of("m"), "gpu", 1e10, t, 0);
                servers.report("cold", true, 1e9, 0, 0.0, List.of(), "gpu", 1e10, t, 0);
                if (servers.id(local.place(servers, t, new SplittableRandom(k))[0]).equals("cold")) {
                    firstLoad.put(halfLife, k);
                    break;
                }
            }
        }
        assertThat(firstLoad).containsExactly(entry(60.0, 4), entry(5.0, 9), entry(1.0, 0));
        assertThatThrownBy(() -> new ColdStartCost(1, 1e9, 1, 0))
                .hasMessageContaining("cluster.coldStart.rentHalfLifeSeconds (0.0)");
        assertThatThrownBy(() -> new ColdStartCost(1, 1e9, 1, Double.NaN))
                .hasMessageContaining("cluster.coldStart.rentHalfLifeSeconds (NaN)");
    }

    /**
     * The rent survives a restart. The half-life example at $H$ = 60 s loads the model at the 4th request (rents 0.80,
     * 1.58, 2.35, 3.09 s). A placer that stops after the 2nd and gives its rents to a new one: the new one loads at the
     * 4th request too; without them, it starts from 0 and loads at the 6th (the 4th after the restart). Two placers'
     * rents of one pool add up.
     */
    @Test
    void expectedFinish_theRentRestored_buysTheLoadWhenTheOneThatDidNotStopWould() {
        ControllerPlacement local = ControllerPlacement.local("m", List.of("t"), new double[] {1e9}, new double[] {2e9}, 0);
        LiveServers before = halfLifeServers();
        for (int k = 1; k <= 2; k++) {
            assertThat(placeEveryTwoSeconds(local, before, k)).isEqualTo("warm");
        }
        List<LiveServers.PoolRent> rents = before.rents();
        assertThat(rents).singleElement().satisfies(r -> {
            assertThat(r.pool()).isEqualTo("m");
            assertThat(r.rent()).isCloseTo(0.8 + 0.8 * Math.pow(2, -2 / 60.0), within(1e-9));
        });

        for (boolean restore : new boolean[] {true, false}) {
            LiveServers after = halfLifeServers();
            if (restore) {
                after.restoreRents(rents);
            }
            int load = 0;
            for (int k = 3; k <= 10 && load == 0; k++) {
                load = placeEveryTwoSeconds(local, after, k).equals("cold") ? k : 0;
            }
            assertThat(load).as(restore ? "restored" : "from 0").isEqualTo(restore ? 4 : 6);
        }

        LiveServers merged = halfLifeServers();
        merged.restoreRents(List.of(new LiveServers.PoolRent("m", 1.0, 10.0), new LiveServers.PoolRent("m", 1.0, 70.0)));
        assertThat(merged.rents()).singleElement().satisfies(r -> {
            assertThat(r.rent()).as("1 s counted 60 s (one half-life) earlier is 0.5 s").isCloseTo(1.5, within(1e-9));
            assertThat(r.atSeconds()).isEqualTo(70.0);
        });
        assertThatThrownBy(() -> new LiveServers.PoolRent("m", -1, 0)).hasMessageContaining("rent of pool 'm' (-1.0");
    }

    /** A warm server and a cold one; loads of 3 s, the rent's half-life 60 s. */
    private static LiveServers halfLifeServers() {
        LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        servers.coldStart(new ColdStartCost(1, 1e9, 1, 60));
        return servers;
    }

    /** The half-life example's {@code k}-th request, 2 s after the one before: the server it goes to. */
    private static String placeEveryTwoSeconds(ControllerPlacement local, LiveServers servers, int k) {
        long t = T + 2_000L * k;
        servers.report("warm", true, 1e9, 1, 0.4, List.of("m"), "gpu", 1e10, t, 0);
        servers.report("cold", true, 1e9, 0, 0.0, List.of(), "gpu", 1e10, t, 0);
        return servers.id(local.place(servers, t, new SplittableRandom(k))[0]);
    }

    @Test
    void expectedFinish_takesEachServersOwnSpeed() {
        ControllerPlacement local = ControllerPlacement.local("m", List.of("t"), new double[] {4e9}, new double[] {1}, 0);
        LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        servers.report("slow", true, 1e9, 0, 0.0, List.of("m"), "slow", 1e10, T, 0);
        servers.report("fast", true, 1e9, 1, 1.5, List.of("m"), "fast", 1e10, T, 0);
        servers.recalibrate("fast", 4e9); // learned from outcomes: 1.5 + 1 s beats 0 + 4 s
        assertThat(servers.id(local.place(servers, T, new SplittableRandom(1))[0])).isEqualTo("fast");
    }

    /**
     * Among servers of equal least cost the pick is one this placer owns (the placement subtask whose servers they
     * are), the first met from the scan's random start: eight idle servers holding the model, of which this subtask
     * of two owns some. The scan passes over a server that cannot cost less than the pick, and one that can only tie
     * with it once the pick is owned; passing over ties before that would leave the pick on the first server met.
     */
    @Test
    void expectedFinish_aTieGoesToAServerThisPlacerOwns_whereverTheScanStarts() {
        ControllerPlacement local = ControllerPlacement.local("m", List.of("t"), new double[] {1e9}, new double[] {1}, 0);
        Set<String> picked = new HashSet<>();
        for (int seed = 0; seed < 200; seed++) {
            LiveServers servers = new LiveServers(2, 0, 2, LiveServers.NO_LIVENESS_TIMEOUT);
            for (int s = 0; s < 8; s++) {
                servers.report("s" + s, true, 1e9, 0, 0.0, List.of("m"), "big", 10, T, 0);
            }
            String id = servers.id(local.place(servers, T, new SplittableRandom(seed))[0]);
            assertThat(Math.floorMod(id.hashCode(), 2)).as("seed %d picked %s", seed, id).isZero();
            picked.add(id);
        }
        long owned = IntStream.range(0, 8).filter(s -> Math.floorMod(("s" + s).hashCode(), 2) == 0).count();
        assertThat(owned).as("the case needs owned and other servers").isBetween(2L, 6L);
        assertThat(picked).as("ties spread over the owned servers").hasSize((int) owned);
    }

    /**
     * A part goes to a server its request does not use yet while one fits it, however much sooner a used one would
     * finish it: the fast server (0.25 s) is taken, so the slow one (1 s) gets the part, wherever the scan starts.
     */
    @Test
    void expectedFinish_aServerTheRequestDoesNotUse_beatsAFasterOneItDoes() {
        LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        int fast = servers.report("fast", true, 4e9, 0, 0.0, List.of("m"), "big", 10, T, 0);
        servers.report("slow", true, 1e9, 0, 0.0, List.of("m"), "big", 10, T, 0);
        for (int seed = 0; seed < 20; seed++) {
            int s = servers.pickPart(servers.warm("m"), new int[] {fast}, 1, 1e9, 1, new Footprint(), T,
                    new SplittableRandom(seed));
            assertThat(servers.id(s)).as("seed %d", seed).isEqualTo("slow");
        }
    }

    /**
     * The idle gate. The fast server holds 1.5 s of work (one request) and computes the part in 1 s: a marginal cost
     * of 1.5 + 1 + min(1 * 1, 1.5) = 3.5 s. The idle slow one computes it in 4 s, more, so without a gate the part
     * waits for the fast one. With $\kappa = 2$ (7 s) the slow one takes it; with $\kappa = 1.1$ (3.85 s) it does
     * not, nor with $\kappa = 2$ when the slow server does not hold the model or holds a request (of 0.01 s).
     */
    @Test
    void expectedFinish_theIdleGate_takesAnIdleSlowerServerWithinKappaOfTheLeastCost() {
        ControllerPlacement local = ControllerPlacement.local("m", List.of("t"), new double[] {4e9}, new double[] {1}, 0);
        record Case(double kappa, List<String> slowHolds, int slowOngoing, String expected) {}
        for (Case c : List.of(new Case(0, List.of("m"), 0, "fast"), new Case(2, List.of("m"), 0, "slow"),
                new Case(1.1, List.of("m"), 0, "fast"), new Case(2, List.of("other"), 0, "fast"),
                new Case(2, List.of("m"), 1, "fast"))) {
            LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
            servers.report("slow", true, 1e9, c.slowOngoing(), c.slowOngoing() * 0.01, c.slowHolds(), "slow", 1e10, T, 0);
            servers.report("fast", true, 4e9, 1, 1.5, List.of("m"), "fast", 1e10, T, 0);
            servers.idleGate(c.kappa());
            assertThat(servers.id(local.place(servers, T, new SplittableRandom(1))[0])).as(c.toString())
                    .isEqualTo(c.expected());
        }
        LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        assertThatThrownBy(() -> servers.idleGate(0.5)).hasMessageContaining("idle gate (0.5)");
        assertThatThrownBy(() -> servers.idleGate(Double.NaN)).hasMessageContaining("idle gate (NaN)");
    }

    /**
     * 200 servers holding the model, in blocks of 64: fast ones (4e9 ops/s) holding one request of 1.5 s, but servers
     * 64-127 slow (1e9 ops/s) holding one of 100 s, and server 128, the first of the third block, idle ({@code slow}:
     * at 1e9 ops/s, else 4e9).
     */
    private static LiveServers threeBlocks(boolean slowIdle) {
        LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        for (int s = 0; s < 200; s++) {
            boolean idle = s == 128;
            boolean slow = s >= 64 && s < 128 || idle && slowIdle;
            servers.report("s" + s, true, slow ? 1e9 : 4e9, idle ? 0 : 1, idle ? 0.0 : slow ? 100.0 : 1.5,
                    List.of("m"), slow ? "slow" : "fast", 1e10, T, 0);
        }
        return servers;
    }

    /**
     * The scan passes over a block of 64 none of whose servers can beat the pick, and resumes at the next block's
     * first server: among 200 servers holding the model, fast ones holding one request (1.5 s, a marginal cost of
     * 3.5 s for a part of 1 s there), the second block slow ones holding 100 s, and server 128, the first of the
     * third block, fast and idle (1 s): the pick wherever the scan starts.
     */
    @Test
    void expectedFinish_theScanPassesOverBlocksThatCannotBeatThePick_andMissesNoServer() {
        ControllerPlacement local = ControllerPlacement.local("m", List.of("t"), new double[] {4e9}, new double[] {1}, 0);
        for (int seed = 0; seed < 20; seed++) {
            LiveServers servers = threeBlocks(false);
            assertThat(servers.id(local.place(servers, T, new SplittableRandom(seed))[0])).as("seed %d", seed)
                    .isEqualTo("s128");
        }
    }

    /**
     * The idle gate among 200 servers, where the scans pass over blocks of 64 that cannot hold the pick: fast servers
     * holding one request each (1.5 s, a marginal cost of 3.5 s as above), but the second block slow ones holding
     * 100 s; the one idle server, slow (4 s, within $\kappa = 2$ times 3.5 s), is the first of the third block, and
     * takes the part wherever the scan starts.
     */
    @Test
    void expectedFinish_theIdleGate_findsTheIdleServerPastBlocksWithNone() {
        ControllerPlacement local = ControllerPlacement.local("m", List.of("t"), new double[] {4e9}, new double[] {1}, 0);
        for (int seed = 0; seed < 20; seed++) {
            LiveServers servers = threeBlocks(true);
            servers.idleGate(2);
            assertThat(servers.id(local.place(servers, T, new SplittableRandom(seed))[0])).as("seed %d", seed)
                    .isEqualTo("s128");
        }
    }

    /**
     * Blocks of 64 whose idle servers cannot take the part: among 200 servers holding the model, fast ones (4e9 ops/s,
     * 10 GB) holding one request of 1.5 s, but servers 64-127 idle with 0.5 bytes of memory (the part has 1) and
     * servers 5-10 idle and down; server 150 holds 1.0 s, the least cost among the servers the part may use, and is
     * the pick wherever the scan starts.
     */
    @Test
    void expectedFinish_blocksWhoseIdleServersCannotTakeThePart_missNoServer() {
        ControllerPlacement local = ControllerPlacement.local("m", List.of("t"), new double[] {4e9}, new double[] {1}, 0);
        for (int seed = 0; seed < 20; seed++) {
            LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
            for (int s = 0; s < 200; s++) {
                boolean small = s >= 64 && s < 128;
                boolean down = s >= 5 && s <= 10;
                boolean idle = small || down;
                servers.report("s" + s, !down, 4e9, idle ? 0 : 1, idle ? 0.0 : s == 150 ? 1.0 : 1.5, List.of("m"),
                        small ? "small" : "large", small ? 0.5 : 1e10, T, 0);
            }
            assertThat(servers.id(local.place(servers, T, new SplittableRandom(seed))[0])).as("seed %d", seed)
                    .isEqualTo("s150");
        }
    }

    /**
     * A server whose memory grows after the scan's bounds were counted is seen: 200 servers holding the model, busy
     * (1.5 s) but servers 64-127 idle with 0.5 bytes (the part has 1); after a first placement, server 100 reports 10
     * GB, still idle, and takes the next part wherever the scan starts.
     */
    @Test
    void expectedFinish_aServerWhoseMemoryGrows_isSeenByTheScan() {
        ControllerPlacement local = ControllerPlacement.local("m", List.of("t"), new double[] {4e9}, new double[] {1}, 0);
        for (int seed = 0; seed < 20; seed++) {
            LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
            for (int s = 0; s < 200; s++) {
                boolean small = s >= 64 && s < 128;
                servers.report("s" + s, true, 4e9, small ? 0 : 1, small ? 0.0 : 1.5, List.of("m"),
                        small ? "small" : "large", small ? 0.5 : 1e10, T, 0);
            }
            local.place(servers, T, new SplittableRandom(seed));
            servers.report("s100", true, 4e9, 0, 0.0, List.of("m"), "large", 1e10, T + 1, 0);
            assertThat(servers.id(local.place(servers, T + 1, new SplittableRandom(seed))[0])).as("seed %d", seed)
                    .isEqualTo("s100");
        }
    }

    @Test
    void warmFirst_keepsTodaysRuleAmongTheServersAPartFits() {
        ControllerPlacement local = ControllerPlacement.local("m", List.of("t"), new double[] {1e9}, new double[] {6}, 0);
        LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        servers.rule(LiveServers.Rule.WARM_FIRST);
        servers.report("small", true, 1e9, 0, 0.0, List.of("m"), "small", 5, T, 0);
        servers.report("big", true, 1e9, 1, 0.9, List.of(), "big", 10, T, 0);
        for (int i = 0; i < 3; i++) {
            assertThat(servers.id(local.place(servers, T, new SplittableRandom(i))[0])).isEqualTo("big");
        }
    }

    @Test
    void aServerWhereThePartFitsNow_isPreferred_elseOneWhereItFitsItsMemory() {
        ControllerPlacement local = ControllerPlacement.local("m", List.of("t"), new double[] {1e9}, new double[] {6}, 0);
        LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        servers.report("pinned", true, 1e9, 0, 0.0, List.of("m"), "big", 10, T, 0);
        servers.report("busy", true, 1e9, 3, 3.0, List.of("m"), "big", 10, T, 0);
        servers.freeMemoryBytes(0, 5, T); // running parts pin half of it: 6 bytes do not fit now
        assertThat(servers.id(local.place(servers, T, new SplittableRandom(1))[0])).isEqualTo("busy");
        servers.freeMemoryBytes(1, 2, T);
        assertThat(servers.id(local.choose(servers, T, new SplittableRandom(1))[0]))
                .as("fits now nowhere: the earliest finish among those it fits").isEqualTo("pinned");
    }

    @Test
    void withoutClassOrMemory_placesExactlyAsBefore() {
        PlacementSampler sampler = new PlacementSampler(PlacementSamplerTest.table(8));
        ControllerPlacement before = ControllerPlacement.of(sampler, "m", each(1e9));
        ControllerPlacement sized = ControllerPlacement.of(new PlacementSampler(PlacementSamplerTest.table(8)), "m",
                each(1e9), bytes());
        LiveServers a = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        LiveServers b = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        for (int s = 0; s < 8; s++) {
            a.report("s" + s, true, 1e9, 0, s * 0.1, List.of("m"), T, 0);
            b.report("s" + s, true, 1e9, 0, s * 0.1, List.of("m"), null, ServerClass.UNBOUNDED, T, 0);
        }
        assertThat(b.describesMemory()).isFalse();
        SplittableRandom ra = new SplittableRandom(3);
        SplittableRandom rb = new SplittableRandom(3);
        for (int r = 0; r < 500; r++) {
            assertThat(sized.place(b, T + r, rb)).containsExactly(before.place(a, T + r, ra));
        }
    }

    @Test
    void placeability_isTheLargestTaskAgainstTheLargestLiveMemory() {
        assertThat(Placeability.largestTask(new double[] {1, 7, 7, 2})).isEqualTo(1);
        List<ServerClass> classes = List.of(new ServerClass("small", 4, 1e9, 5), new ServerClass("big", 1, 1e9, 10));
        assertThat(Placeability.unplaceableTask(new double[] {4, 10}, classes)).isEqualTo(-1);
        assertThat(Placeability.unplaceableTask(new double[] {4, 11}, classes)).isEqualTo(1);

        ControllerPlacement big = ControllerPlacement.local("m", List.of("a", "b"), new double[] {1, 1}, new double[] {3, 8}, 0);
        LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        servers.report("small", true, 1e9, 0, 0.0, List.of(), "small", 5, T, 0);
        assertThat(big.unplaceable(servers)).isTrue();
        assertThat(big.unplaceableReason(servers)).isEqualTo("MODEL_UNPLACEABLE: model 'm': task 'b' needs 8 bytes, "
                + "more than the memory of every up server (largest 5 bytes)");
        assertThatThrownBy(() -> big.place(servers, T, new SplittableRandom(1)))
                .isInstanceOf(PartDoesNotFitException.class).hasMessageContaining("model 'm' (11 bytes)");
        servers.report("big", true, 1e9, 0, 0.0, List.of(), "big", 11, T, 0);
        assertThat(big.unplaceable(servers)).isFalse();
        assertThat(servers.id(big.place(servers, T, new SplittableRandom(1))[0])).isEqualTo("big");
        servers.report("big", false, 1e9, 0, 0.0, List.of(), "big", 11, T + 1, 0);
        assertThat(big.unplaceable(servers)).as("only up servers count").isTrue();
    }

    /** 3 + 8 bytes: on servers of 8 bytes every task fits and the whole does not; on 11 the whole fits; on 7, b fits none. */
    @Test
    void awaitsSplit_whenEveryTaskFitsAServer_andTheWholeNone() {
        ControllerPlacement local = ControllerPlacement.local("m", List.of("a", "b"), new double[] {1, 1}, new double[] {3, 8}, 0);
        LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        assertThat(local.awaitsSplit(servers)).as("no live server: nothing to judge").isFalse();
        servers.report("s", true, 1e9, 0, 0.0, List.of(), "small", 8, T, 0);
        assertThat(local.awaitsSplit(servers)).isTrue();
        assertThat(local.unplaceable(servers)).isFalse();
        servers.report("s", true, 1e9, 0, 0.0, List.of(), "small", 11, T + 1, 0);
        assertThat(local.awaitsSplit(servers)).as("the whole fits").isFalse();
        servers.report("s", true, 1e9, 0, 0.0, List.of(), "small", 7, T + 2, 0);
        assertThat(local.awaitsSplit(servers)).as("task b fits no server: unplaceable, not awaiting").isFalse();
        assertThat(local.unplaceable(servers)).isTrue();
    }
}
