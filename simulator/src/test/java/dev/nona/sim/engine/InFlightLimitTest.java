package dev.nona.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.sim.SimWorkload;
import dev.nona.sim.TestingWorkloads;
import dev.nona.sim.policy.baseline.RandomPolicy;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The limit on jobs in flight: an unstable run stops there with the figures so far; a stable run never sees it. */
final class InFlightLimitTest {
    /**
     * Fork-join jobs on 4 servers at compute load 0.9, placed at random. With 1 Gbit edges (0.1 s) about 3 of the 4
     * edges cross servers: link load 0.27, stable. With edges 10 times larger the link load is about 2.7: unstable.
     */
    private static SimWorkload forkJoins(double bitsScale) {
        return new SimWorkload(TestingWorkloads.cluster(4), List.of(TestingWorkloads.forkJoin(1).withBitsScaled(bitsScale)))
                .withLoad(0.9);
    }

    private static Simulator random(SimWorkload w, SimConfig config) {
        return new Simulator(w, new RandomPolicy(new SplittableRandom(7)), "random", config);
    }

    @Test
    void run_randomOverloadingTheLink_stopsAtTheLimitAsUnstableWithBoundedSlots() {
        Simulator sim = random(forkJoins(10), new SimConfig(100_000, 1_000, 1, Long.MAX_VALUE, 2_000));
        SimResult r = sim.run();

        assertThat(r.stoppedAtInFlightLimit()).isTrue();
        assertThat(r.unstable()).isTrue();
        assertThat(r.truncated()).isFalse();
        assertThat(r.inFlightLimit()).isEqualTo(2_000);
        assertThat(r.maxJobsInFlight()).isEqualTo(2_000);
        assertThat(sim.jobSlotCapacity()).as("job slots").isLessThanOrEqualTo(2_000);
        assertThat(r.all().count()).as("measured jobs completed before the stop").isPositive().isLessThan(100_000);
        assertThat(r.meanJctSeconds()).isGreaterThan(3.0); // at least the critical path, 3 s of compute
    }

    @Test
    void run_stableRandom_sameFiguresWithTheDefaultLimitAndALimitJustAboveItsPeak() {
        SimResult byDefault = random(forkJoins(1), new SimConfig(20_000, 2_000, 3, Long.MAX_VALUE)).run();
        SimResult justAbove = random(forkJoins(1), new SimConfig(20_000, 2_000, 3, Long.MAX_VALUE, byDefault.maxJobsInFlight() + 1)).run();

        assertThat(byDefault.stoppedAtInFlightLimit()).isFalse();
        assertThat(byDefault.unstable()).isFalse();
        assertThat(byDefault.inFlightLimit()).isEqualTo(JobTable.defaultLimit(4, 4));
        assertThat(justAbove.stoppedAtInFlightLimit()).isFalse();
        assertThat(justAbove.all().count()).isEqualTo(byDefault.all().count()).isEqualTo(20_000);
        assertThat(justAbove.meanJctSeconds()).isEqualTo(byDefault.meanJctSeconds());
        assertThat(justAbove.p99JctSeconds()).isEqualTo(byDefault.p99JctSeconds());
        assertThat(justAbove.events()).isEqualTo(byDefault.events());
        assertThat(justAbove.simulatedSeconds()).isEqualTo(byDefault.simulatedSeconds());
    }

    @Test
    void run_limitAtAStableRunsPeak_stopsThere() {
        SimResult full = random(forkJoins(1), new SimConfig(5_000, 500, 3, Long.MAX_VALUE)).run();
        SimResult atPeak = random(forkJoins(1), new SimConfig(5_000, 500, 3, Long.MAX_VALUE, full.maxJobsInFlight())).run();

        assertThat(atPeak.stoppedAtInFlightLimit()).isTrue();
        assertThat(atPeak.maxJobsInFlight()).isEqualTo(full.maxJobsInFlight());
        assertThat(atPeak.events()).isLessThan(full.events());
    }

    /** 512 MiB over 21 + 16 x 88 + 8 x (88 + 124) bytes: the zoo's GPT-2 (88 tasks, 124 edges) is the largest job. */
    @Test
    void defaultLimit_zooSizedJobs_isTheBudgetOverTheBytesPerJob() {
        assertThat(JobTable.defaultLimit(88, 124)).isEqualTo((512 << 20) / (21 + 16 * 88 + 8 * (88 + 124)));
        assertThat(JobTable.defaultLimit(1, 0)).isEqualTo((512 << 20) / (21 + 16 + 8));
        assertThat(JobTable.defaultLimit(1 << 19, 1 << 19)).isPositive();
    }

    @Test
    void simConfig_negativeLimit_isRefusedNamingIt() {
        assertThatThrownBy(() -> new SimConfig(10, 0, 1, Long.MAX_VALUE, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max jobs in flight (-1)");
    }
}
