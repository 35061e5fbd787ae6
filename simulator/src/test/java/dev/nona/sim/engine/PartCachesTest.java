package dev.nona.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.sim.SimCluster;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.TestingWorkloads;
import dev.nona.sim.policy.Policy;
import dev.nona.sim.policy.live.LeastExpectedFinishPolicy;
import dev.nona.sim.policy.baseline.RandomPolicy;
import dev.nona.workload.ColdStartCost;
import dev.nona.workload.ServerClass;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Per-server speed, model caches of parts, cold starts, eviction and refused placements in the DAG simulator. */
final class PartCachesTest {
    private static final ColdStartCost COLD = new ColdStartCost(0.5, 1e9);

    private static SimResult run(SimWorkload w, Policy p, long jobs) {
        return new Simulator(w, p, "test", new SimConfig(jobs, 0, 1, Long.MAX_VALUE)).run();
    }

    /** Server 0 of class "fast" ({@code fastOps}, {@code fastMemory}), server 1 of class "slow" (1e9 ops/s, 1e10 bytes). */
    private static SimCluster twoServers(double fastOps, double fastMemory, ColdStartCost cold) {
        return new SimCluster(2, (fastOps + 1e9) / 2, 1e10, List.of(new ServerClass("fast", 1, fastOps, fastMemory),
                new ServerClass("slow", 1, 1e9, 1e10)), cold);
    }

    /** The fork-join job whose four tasks weigh {@code bytes} each. */
    private static SimJobClass forkJoin(double rate, double bytes) {
        return TestingWorkloads.forkJoin(rate).withTaskBytes(new double[] {bytes, bytes, bytes, bytes});
    }

    /** A one-task model named {@code name}: 1e9 ops, {@code bytes} of weights. */
    private static SimJobClass single(String name, double rate, double bytes) {
        return SimJobClass.inference(name, rate, new double[] {1e9}, new int[0][], new double[0], List.of())
                .withTaskBytes(new double[] {bytes});
    }

    @Test
    void speed_aTaskTakesItsOpsOverItsServersSpeed() {
        SimWorkload w = new SimWorkload(twoServers(4e9, ServerClass.UNBOUNDED, null), List.of(TestingWorkloads.forkJoin(1e-6)));

        assertThat(run(w, TestingWorkloads.fixed(0, 0, 0, 0), 20).meanJctSeconds()).isCloseTo(1.0, within(1e-9));
        assertThat(run(w, TestingWorkloads.fixed(1, 1, 1, 1), 20).meanJctSeconds()).isCloseTo(4.0, within(1e-9));
    }

    @Test
    void coldStart_chargedOncePerPartBeforeItsFirstTask_thenWarm() {
        SimWorkload w = new SimWorkload(twoServers(1e9, 1e10, COLD), List.of(forkJoin(1e-6, 1e8)));

        SimResult local = run(w, TestingWorkloads.fixed(0, 0, 0, 0), 20);
        // the first job loads its one part (4e8 bytes: 0.5 + 0.4 s) before its 4 s of work; the others are warm
        assertThat(local.coldStarts()).isEqualTo(1);
        assertThat(local.meanJctSeconds()).isCloseTo((4.9 + 19 * 4.0) / 20, within(1e-9));
        // two parts (tasks 0, 1, 3 and task 2): one cold start each, once
        assertThat(run(w, TestingWorkloads.fixed(0, 0, 1, 0), 20).coldStarts()).isEqualTo(2);
        assertThat(local.evictions()).isZero();
        assertThat(local.reloads()).isZero();
        assertThat(local.memoryViolations()).isZero();
    }

    @Test
    void eviction_leastRecentlyUsedIdleUnitMakesRoom() {
        SimJobClass a = single("a", 1e-6, 2e8);
        SimJobClass b = single("b", 1e-6, 2e8);
        Policy onServer0 = TestingWorkloads.fixed(0);

        SimResult roomy = run(new SimWorkload(twoServers(1e9, 4.5e8, COLD), List.of(a, b)), onServer0, 200);
        assertThat(roomy.coldStarts()).isEqualTo(2);
        assertThat(roomy.evictions()).isZero();
        assertThat(roomy.reloads()).isZero();

        SimResult tight = run(new SimWorkload(twoServers(1e9, 2.5e8, COLD), List.of(a, b)), onServer0, 200);
        // one model at a time: every switch of model loads it and evicts the other (idle: jobs never overlap)
        assertThat(tight.coldStarts()).isGreaterThan(2);
        assertThat(tight.evictions()).isEqualTo(tight.coldStarts() - 1);
        // the first load of each model is a first load; every later one brings back what was evicted
        assertThat(tight.reloads()).isEqualTo(tight.coldStarts() - 2);
        assertThat(tight.memoryViolations()).isZero();
    }

    @Test
    void violation_partThatCannotFit_isRefusedCountedAndRunElsewhere() {
        SimWorkload w = new SimWorkload(twoServers(4e9, 1e8, null), List.of(forkJoin(1e-6, 1e8)));

        SimResult r = run(w, TestingWorkloads.fixed(0, 0, 0, 0), 20);

        // 4e8 bytes never fit server 0's 1e8: every job runs on server 1 (4 s), never on the fast one
        assertThat(r.memoryViolations()).isEqualTo(r.serverClasses().get(1).partsRun()).isGreaterThanOrEqualTo(20);
        assertThat(r.serverClasses().get(0).partsRun()).isZero();
        assertThat(r.meanJctSeconds()).isCloseTo(4.0, within(1e-9));
    }

    @Test
    void violation_pinnedUnitsAreNeverEvicted_theSecondModelGoesElsewhere() {
        // model a runs long (1e12 ops) and arrives often; b does not fit beside it on server 0
        SimJobClass a = SimJobClass.inference("a", 1e3, new double[] {1e12}, new int[0][], new double[0], List.of())
                .withTaskBytes(new double[] {2e8});
        SimJobClass b = single("b", 1e3, 2e8);
        SimWorkload w = new SimWorkload(twoServers(1e9, 2.5e8, null), List.of(a, b));

        SimResult r = new Simulator(w, TestingWorkloads.fixed(0), "test", new SimConfig(50, 0, 1, 1_000_000)).run();

        assertThat(r.memoryViolations()).isGreaterThan(0);
        assertThat(r.evictions()).isZero();
    }

    @Test
    void paperCluster_noCachesNoColdStarts_oneDefaultClass() {
        SimWorkload w = new SimWorkload(TestingWorkloads.cluster(2), List.of(forkJoin(0.1, 1e8)));

        SimResult r = run(w, new RandomPolicy(new SplittableRandom(3)), 200);

        assertThat(r.coldStarts()).isZero();
        assertThat(r.memoryViolations()).isZero();
        assertThat(r.serverClasses()).extracting(SimResult.ServerClassResult::name).containsExactly("default");
        assertThat(r.serverClasses().get(0).utilisation()).isBetween(0.0, 1.0);
        assertThat(r.serverClasses().get(0).partsRun()).isGreaterThanOrEqualTo(200);
    }

    @Test
    void baselines_filterServersThatCannotHoldThePart() {
        SimWorkload w = new SimWorkload(twoServers(4e9, 1e8, COLD), List.of(forkJoin(0.05, 1e8)));

        SimResult random = run(w, new RandomPolicy(new SplittableRandom(7)), 500);
        SimResult lef = run(w, new LeastExpectedFinishPolicy(new SplittableRandom(7)), 500);

        assertThat(random.memoryViolations()).isZero();
        assertThat(lef.memoryViolations()).isZero();
        assertThat(lef.serverClasses().get(0).partsRun()).isZero();
    }

    @Test
    void leastExpectedFinish_picksTheFastServerWhenBothAreIdle() {
        SimWorkload w = new SimWorkload(twoServers(4e9, 1e10, COLD), List.of(forkJoin(1e-6, 1e8)));

        SimResult r = run(w, new LeastExpectedFinishPolicy(new SplittableRandom(1)), 20);

        assertThat(r.serverClasses().get(1).partsRun()).isZero();
        assertThat(r.coldStarts()).isEqualTo(1);
        assertThat(r.meanJctSeconds()).isCloseTo((1.0 + 0.9 + 19 * 1.0) / 20, within(1e-9));
    }

    @Test
    void want_anIdleUnitStillWanted_isEvictedAfterTheUnwantedOnes_evenIfUsedLater() {
        PartCaches caches = new PartCaches(new double[] {1e9}, null);
        int m = caches.addModel("m", new double[] {4e8, 4e8, 4e8});
        int[] a = {0};
        int[] b = {1};
        int[] c = {2};
        caches.place(0, m, a, 1);
        caches.release(0, m, 0);
        caches.place(0, m, b, 1);
        caches.release(0, m, 1); // a and b idle, a the least recently used
        caches.want(0, m, 0, +1); // an in-flight part will still run a

        caches.place(0, m, c, 1); // 1.2e9 > 1e9: one unit goes

        assertThat(caches.holds(0, m, 0)).isTrue();
        assertThat(caches.holds(0, m, 1)).isFalse();
        assertThat(caches.evictions()).isEqualTo(1);
        caches.want(0, m, 0, -1);
        caches.release(0, m, 2);
        caches.place(0, m, b, 1); // b again: now a, unwanted and least recently used, goes
        assertThat(caches.holds(0, m, 0)).isFalse();
    }

    @Test
    void reloads_countLoadsThatBringBackAnEvictedUnit_notFirstLoads() {
        PartCaches caches = new PartCaches(new double[] {1e9, 1e9}, null);
        int m = caches.addModel("m", new double[] {6e8, 6e8});
        int[] a = {0};
        int[] b = {1};
        caches.place(0, m, a, 1);
        caches.load(0, m, a, 1);
        caches.release(0, m, 0);
        caches.place(0, m, b, 1); // 1.2e9 > 1e9: a goes
        caches.load(0, m, b, 1);
        caches.release(0, m, 1);
        caches.place(1, m, a, 1); // a on server 1 for the first time: a first load there
        caches.load(1, m, a, 1);
        assertThat(caches.reloads()).isZero();

        caches.place(0, m, a, 1); // a back on server 0, where it was evicted: a reload (b goes)
        assertThat(caches.load(0, m, a, 1)).isEqualTo(6e8);
        assertThat(caches.reloads()).isEqualTo(1);
        assertThat(caches.evictions()).isEqualTo(2);
        assertThat(caches.load(0, m, a, 1)).isZero(); // loaded already: no load, no reload
        assertThat(caches.reloads()).isEqualTo(1);
    }
}
