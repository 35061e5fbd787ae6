package dev.nona.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.modelaware.ModelProfile;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.TestingWorkloads;
import dev.nona.sim.policy.Policy;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

final class SimulatorTest {
    private static SimResult run(SimWorkload w, Policy p, long jobs) {
        return new Simulator(w, p, "test", new SimConfig(jobs, 0, 1, Long.MAX_VALUE)).run();
    }

    @Test
    void run_forkJoinAlone_branchOnOtherServerAddsTwoTransfers() {
        // rate tiny: jobs never overlap; JCT is the critical path.
        SimWorkload w = new SimWorkload(TestingWorkloads.cluster(4), List.of(TestingWorkloads.forkJoin(1e-6)));
        // all local: 4 tasks of 1 s one after another
        assertThat(run(w, TestingWorkloads.fixed(0, 0, 0, 0), 20).meanJctSeconds()).isCloseTo(4.0, within(1e-9));
        // branch 2 on server 1: root ends at 1 s; branch 1 runs 1-2 s locally; in parallel the transfer 1-1.1 s,
        // branch 2 1.1-2.1 s, the transfer back 2.1-2.2 s; the sink runs 2.2-3.2 s.
        assertThat(run(w, TestingWorkloads.fixed(0, 0, 1, 0), 20).meanJctSeconds()).isCloseTo(3.2, within(1e-9));
    }

    /**
     * On one server every job's tasks run back to back, so the work placed there and not done drains at one
     * second per second: at each arrival it is the previous value plus the job's 4 s, less the time since,
     * floored at 0; and every job in flight but the one being placed has work there.
     */
    @Test
    void assignedWork_oneServer_isTheWorkConservingBacklog() {
        SimWorkload w = new SimWorkload(TestingWorkloads.cluster(1), List.of(TestingWorkloads.forkJoin(0.2)));
        double[] predicted = {0, 0}; // backlog after the last arrival, its time
        int[] checked = {0};
        Policy probe = (c, jc, view, out) -> {
            double expected = Math.max(0, predicted[0] - (view.now() - predicted[1]));
            assertThat(view.assignedWorkSeconds(0)).isCloseTo(expected, within(1e-6));
            assertThat(view.assignedWorkSeconds(0)).isGreaterThanOrEqualTo(view.queuedWorkSeconds(0) - 1e-9);
            assertThat(view.assignedJobs(0)).isEqualTo(view.jobsInFlight() - 1);
            predicted[0] = expected + 4.0;
            predicted[1] = view.now();
            checked[0]++;
            Arrays.fill(out, 0, jc.tasks(), 0);
        };
        run(w, probe, 2_000);
        assertThat(checked[0]).isGreaterThanOrEqualTo(2_000);
    }

    @Test
    void assignedJobs_countsAJobOnEachServerUntilItsLastTaskThereEnds() {
        // tiny rate: one job at a time. Task 2 on server 1 runs 1.1-2.1 s, the rest on server 0 (see above).
        SimWorkload w = new SimWorkload(TestingWorkloads.cluster(2), List.of(TestingWorkloads.forkJoin(1e-6)));
        int[] seen = new int[4];
        Policy probe = (c, jc, view, out) -> {
            seen[0] += view.assignedJobs(0);
            seen[1] += view.assignedJobs(1);
            seen[2]++;
            out[0] = 0;
            out[1] = 0;
            out[2] = 1;
            out[3] = 0;
        };
        run(w, probe, 50);
        assertThat(seen[2]).isGreaterThanOrEqualTo(50);
        assertThat(seen[0] + seen[1]).as("the previous job is long done at every arrival").isZero();
        int[] during = new int[2];
        SimJobClass heavy = TestingWorkloads.forkJoin(1e6); // the second job arrives while the first runs
        SimWorkload busy = new SimWorkload(TestingWorkloads.cluster(2), List.of(heavy));
        boolean[] first = {true};
        Policy second = (c, jc, view, out) -> {
            if (!first[0] && during[0] == 0 && during[1] == 0) {
                during[0] = view.assignedJobs(0);
                during[1] = view.assignedJobs(1);
            }
            first[0] = false;
            out[0] = 0;
            out[1] = 0;
            out[2] = 1;
            out[3] = 0;
        };
        run(busy, second, 3);
        assertThat(during).containsExactly(1, 1);
    }

    @Test
    void run_backgroundCommOnlyAtRho08_meanLinkWaitWithin5PercentOfMd1() {
        double bits = 1e8; // S = 0.01 s on 10 Gbit/s
        double rho = 0.8;
        double s = bits / 1e10;
        SimJobClass comm = SimJobClass.backgroundComm("bg-comm", rho / s, bits);
        SimWorkload w = new SimWorkload(TestingWorkloads.cluster(1), List.of(comm));
        SimResult r = new Simulator(w, TestingWorkloads.fixed(), "none", new SimConfig(400_000, 20_000, 5, Long.MAX_VALUE)).run();
        double md1 = rho * s / (2 * (1 - rho));
        assertThat(r.meanLinkWaitSeconds()).isCloseTo(md1, within(0.05 * md1));
        assertThat(r.linkUtilization()).isCloseTo(rho, within(0.02));
        assertThat(r.meanJctSeconds()).isCloseTo(md1 + s, within(0.05 * md1));
        assertThat(r.arrivalsStopped()).isFalse();
    }

    @Test
    void run_backgroundComputeOnOneServerAtRho07_meanJctMatchesMd1Sojourn() {
        double ops = 1e7; // 0.01 s
        double s = 0.01;
        double rho = 0.7;
        SimJobClass compute = SimJobClass.backgroundCompute("bg-compute", rho / s, ops);
        SimWorkload w = new SimWorkload(TestingWorkloads.cluster(1), List.of(compute));
        SimResult r = new Simulator(w, TestingWorkloads.fixed(0), "none", new SimConfig(300_000, 10_000, 9, Long.MAX_VALUE)).run();
        double sojourn = s + rho * s / (2 * (1 - rho));
        assertThat(r.meanJctSeconds()).isCloseTo(sojourn, within(0.05 * sojourn));
        assertThat(r.linkUtilization()).isZero();
    }

    @Test
    void run_unstableLink_stillEndsAndReports() {
        SimJobClass comm = SimJobClass.backgroundComm("bg-comm", 150, 1e8); // rho = 1.5
        SimWorkload w = new SimWorkload(TestingWorkloads.cluster(1), List.of(comm));
        SimResult r = new Simulator(w, TestingWorkloads.fixed(), "none", new SimConfig(5_000, 0, 1, Long.MAX_VALUE)).run();
        assertThat(r.all().count()).isEqualTo(5_000);
        assertThat(r.linkUtilization()).isGreaterThan(0.99);
        assertThat(r.truncated()).isFalse();
    }

    /**
     * Transfers of S = 0.01 s arrive at 500/s (rho = 5) on an always-busy FIFO link. The 60,000th arrival, which
     * closes the window, comes at T = 120 s (sd sqrt(60,000)/500 = 0.49 s); by then the link has sent T/S = 12,000,
     * so 48,000 are in flight (sd about 49) and the drain cap is 4 x 48,000 = 192,000 (sd about 196). Arrivals stop
     * at the arrival that finds the cap reached, which still takes its slot: at most cap + 1 in flight. Without the
     * cap the arrivals would go on until the last measured transfer ends, at 60,000 S = 600 s: 240,000 in flight.
     */
    @Test
    void run_heavilyOverloadedLink_stopsArrivalsAtTheDrainCapAndStillMeasuresEveryJob() {
        SimJobClass comm = SimJobClass.backgroundComm("bg-comm", 500, 1e8); // rho = 5
        SimWorkload w = new SimWorkload(TestingWorkloads.cluster(1), List.of(comm));
        SimResult r = new Simulator(w, TestingWorkloads.fixed(), "none", new SimConfig(60_000, 0, 1, Long.MAX_VALUE)).run();
        assertThat(r.all().count()).isEqualTo(60_000);
        assertThat(r.arrivalsStopped()).isTrue();
        assertThat(r.maxJobsInFlight()).as("4 x the 48,000 in flight at the window's end, +1").isCloseTo(192_001, within(2_000));
        // the link never idles after the first arrival: the 60,000th transfer ends at 600 s (+ the first gap, ~2 ms)
        assertThat(r.simulatedSeconds()).isCloseTo(600.0, within(0.05));
    }

    @Test
    void run_sameSeed_isDeterministic() {
        SimWorkload w = new SimWorkload(TestingWorkloads.cluster(4), List.of(TestingWorkloads.forkJoin(0.5)));
        SimResult a = run(w, TestingWorkloads.fixed(0, 1, 2, 3), 2_000);
        SimResult b = run(w, TestingWorkloads.fixed(0, 1, 2, 3), 2_000);
        assertThat(a.meanJctSeconds()).isEqualTo(b.meanJctSeconds());
        assertThat(a.events()).isEqualTo(b.events());
    }

    private static SimResult run(SimWorkload w, Policy p, long jobs, Engine.Options options) {
        return new Simulator(w, p, "test", new SimConfig(jobs, 0, 1, Long.MAX_VALUE), ServiceTimeModel.DETERMINISTIC,
                options).run();
    }

    private static Engine.Options caches(int servers, String model, double coldStartSeconds) {
        return new Engine.Options(ModelCaches.of(servers, 1000,
                List.of(new ModelProfile(model, 100, coldStartSeconds, 1, 0))), 0);
    }

    @Test
    void modelCaches_theFirstJobOnAServerWaitsForItsModelsColdStart() {
        // one job at a time, all four 1 s tasks on server 0: the first job loads the model (2.5 s), the rest run warm.
        SimWorkload w = new SimWorkload(TestingWorkloads.cluster(2), List.of(TestingWorkloads.forkJoin(1e-6)));
        Simulator sim = new Simulator(w, TestingWorkloads.fixed(0, 0, 0, 0), "test", new SimConfig(20, 0, 1, Long.MAX_VALUE),
                ServiceTimeModel.DETERMINISTIC, caches(2, "forkjoin", 2.5));
        SimResult r = sim.run();
        assertThat(r.meanJctSeconds()).isCloseTo(4.0 + 2.5 / 20, within(1e-9));
        assertThat(sim.engine().coldStarts()).isEqualTo(1);
        // branch 2 on server 1 as well: server 1 loads it too, once, on the critical path (3.2 s + 2.5 s + 2.5 s).
        Simulator split = new Simulator(w, TestingWorkloads.fixed(0, 0, 1, 0), "test", new SimConfig(20, 0, 1, Long.MAX_VALUE),
                ServiceTimeModel.DETERMINISTIC, caches(2, "forkjoin", 2.5));
        assertThat(split.run().meanJctSeconds()).isCloseTo(3.2 + 2 * 2.5 / 20, within(1e-9));
        assertThat(split.engine().coldStarts()).isEqualTo(2);
    }

    @Test
    void modelCaches_ofNoModelTheWorkloadRuns_leaveTheRunEventForEventAsTheDefault() {
        SimWorkload w = new SimWorkload(TestingWorkloads.cluster(4), List.of(TestingWorkloads.forkJoin(0.5)));
        SimResult off = run(w, TestingWorkloads.fixed(0, 1, 2, 3), 2_000);
        SimResult on = run(w, TestingWorkloads.fixed(0, 1, 2, 3), 2_000, caches(4, "another-model", 2.5));
        assertThat(on.meanJctSeconds()).isEqualTo(off.meanJctSeconds());
        assertThat(on.p99JctSeconds()).isEqualTo(off.p99JctSeconds());
        assertThat(on.linkUtilization()).isEqualTo(off.linkUtilization());
        assertThat(on.events()).isEqualTo(off.events());
        // and with the workload's model cached, the cold starts cost something
        assertThat(run(w, TestingWorkloads.fixed(0, 1, 2, 3), 2_000, caches(4, "forkjoin", 2.5)).meanJctSeconds())
                .isGreaterThan(off.meanJctSeconds());
    }
}
