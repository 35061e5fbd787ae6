package dev.nona.sim.policy.theta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.sim.JobClass;
import dev.nona.sim.TestingWorkloads;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class LedgerMappingTest {
    private static final JobClass ONE_TASK = JobClass.inference("one", 1, new double[] {1e9}, new int[0][], new double[0], List.of());

    /** Places {@code jobs} one-task jobs of 1 s (1e9 ops at 1e9 ops/s) at the view's time; returns hits per server. */
    private static int[] place(LedgerMapping m, TestingClusterView view, int jobs, SplittableRandom rng) {
        int[] hits = new int[view.servers()];
        int[] servers = new int[1];
        for (int i = 0; i < jobs; i++) {
            servers[0] = m.first(view, rng);
            m.placed(ONE_TASK, servers, view);
            hits[servers[0]]++;
        }
        return hits;
    }

    @Test
    void betweenReports_ownJobsSpreadByPredictedBacklog() {
        TestingClusterView view = new TestingClusterView(0, 0, 0, 0);
        LedgerMapping m = new LedgerMapping(3, 10.0, 1e9);
        assertThat(place(m, view, 40, new SplittableRandom(1))).containsExactly(10, 10, 10, 10);
    }

    @Test
    void predictedBacklog_drainsBetweenReports_andAReportReplacesIt() {
        TestingClusterView view = new TestingClusterView(0, 5, 5, 5);
        LedgerMapping m = new LedgerMapping(100, 10.0, 1e9);
        SplittableRandom rng = new SplittableRandom(2);
        // the report of t = 0: server 0 has 0 s, the others 5 s; four jobs of 1 s each fill server 0 to 4 s, the
        // fifth and sixth find it at 4 s and 5 s, below or tied with the others (ties to the first met)
        assertThat(place(m, view, 5, rng)[0]).isEqualTo(5);
        view.now = 3.0; // server 0 drained to 2 s, the others to 2 s as well (5 - 3)
        view.queues = new int[] {9, 9, 9, 9}; // not reported before t = 10
        int[] hits = place(m, view, 4, rng);
        assertThat(hits[0]).as("server 0 at 2 s predicted, like the others").isLessThanOrEqualTo(2);
        view.now = 10.0; // the report: every server 9 s, except what the view now says
        view.queues = new int[] {9, 0, 9, 9};
        assertThat(place(m, view, 3, rng)).containsExactly(0, 3, 0, 0);
    }

    @Test
    void backgroundJobs_areNotCounted() {
        TestingClusterView view = new TestingClusterView(0, 0);
        LedgerMapping m = new LedgerMapping(3, 10.0, 1e9);
        SplittableRandom rng = new SplittableRandom(3);
        JobClass background = JobClass.backgroundCompute("bg", 1, 1e9);
        int[] servers = new int[1];
        for (int i = 0; i < 10; i++) {
            servers[0] = m.first(view, rng);
            m.placed(background, servers, view);
        }
        int[] hits = place(m, view, 2, rng);
        assertThat(hits).as("both servers still look idle").containsExactly(1, 1);
    }

    @Test
    void otherParts_goToDistinctServers() {
        TestingClusterView view = new TestingClusterView(0, 0, 0);
        LedgerMapping m = new LedgerMapping(3, 1.0, 1e9);
        ServerPicker picker = new ServerPicker(4);
        SplittableRandom rng = new SplittableRandom(4);
        picker.reset(1);
        int a = m.other(view, rng, picker);
        int b = m.other(view, rng, picker);
        assertThat(List.of(a, b)).containsExactlyInAnyOrder(0, 2);
    }

    @Test
    void inTheSimulator_beatsTheRuleWithoutALedger() {
        var w = new dev.nona.sim.SimWorkload(TestingWorkloads.cluster(8), List.of(ONE_TASK.withRate(6.4)));
        var config = new dev.nona.sim.engine.SimConfig(20_000, 2_000, 7, Long.MAX_VALUE);
        ThetaTable whole = new ThetaTable(List.of(List.of()), List.of(Double.NaN)); // one task: nothing to split
        double ledger = new dev.nona.sim.engine.Simulator(w, new ThetaPolicy(whole, new SplittableRandom(1),
                new LedgerMapping(3, 1.0, 1e9)), "ledger", config).run().meanJctSeconds();
        double stale = new dev.nona.sim.engine.Simulator(w, new ThetaPolicy(whole, new SplittableRandom(1),
                new UnderTargetMapping(3, 1.0)), "stale", config).run().meanJctSeconds();
        // 8 servers at 80% load, jobs of 1 s: join-the-shortest-queue waits far less than blind spreading
        assertThat(ledger).isLessThan(0.8 * stale);
    }

    @Test
    void badArguments_areNamed() {
        assertThatThrownBy(() -> new LedgerMapping(0, 1, 1)).hasMessageContaining("target ongoing requests (0)");
        assertThatThrownBy(() -> new LedgerMapping(1, -1, 1)).hasMessageContaining("telemetry report period (-1.0 s)");
        assertThatThrownBy(() -> new LedgerMapping(1, 1, 0)).hasMessageContaining("server compute rate (0.0 ops/s)");
    }
}
