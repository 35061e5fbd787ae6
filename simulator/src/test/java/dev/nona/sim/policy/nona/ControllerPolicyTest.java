package dev.nona.sim.policy.nona;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.optimize.CostModel;
import dev.nona.placement.ControllerPlacement;
import dev.nona.placement.LiveServers;
import dev.nona.placement.PlacementSampler;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimSubgraph;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.TestingWorkloads;
import dev.nona.sim.engine.SimConfig;
import dev.nona.sim.engine.Simulator;
import dev.nona.sim.policy.table.SimTable;
import dev.nona.sim.policy.table.SubgraphTable;
import dev.nona.sim.workload.NonaSolver;
import dev.nona.sim.workload.SimWorkloads;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import dev.nona.workload.DagSource;
import dev.nona.workload.ModelSpec;
import dev.nona.workload.Workload;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class ControllerPolicyTest {
    private static final SimJobClass ONE_TASK = SimJobClass.inference("one", 1, new double[] {1e9}, new int[0][], new double[0], List.of());
    private static final SimTable NO_TABLE = new SimTable(List.of(List.of()), List.of(Double.NaN)); // one task: nothing to split

    private static ControllerPolicy policy(List<SimJobClass> classes, SimTable table, double reportSeconds, boolean countOwn, int seed) {
        List<List<SubgraphTable>> rows = new ArrayList<>();
        classes.forEach(c -> rows.add(List.of()));
        SimTable t = table != null ? table : new SimTable(rows, classes.stream().map(c -> Double.NaN).toList());
        return new ControllerPolicy(classes, t, 1e9, reportSeconds, 1, countOwn, new SplittableRandom(seed));
    }

    /** Places {@code jobs} one-task jobs of 1 s (1e9 ops at 1e9 ops/s) at the view's time; returns hits per server. */
    private static int[] place(ControllerPolicy p, TestingClusterView view, int jobs) {
        int[] hits = new int[view.servers()];
        int[] servers = new int[1];
        for (int i = 0; i < jobs; i++) {
            p.place(0, ONE_TASK, view, servers);
            hits[servers[0]]++;
        }
        return hits;
    }

    @Test
    void betweenReports_ownJobsSpreadByPredictedBacklog() {
        TestingClusterView view = new TestingClusterView(0, 0, 0, 0);
        assertThat(place(policy(List.of(ONE_TASK), NO_TABLE, 10.0, true, 1), view, 40)).containsExactly(10, 10, 10, 10);
    }

    /**
     * Target 3. The report of t = 0: server 0 idle, the others 5 requests and 5 s (at the target). Jobs of 1 s:
     * three fill server 0 to the target, the fourth and fifth find it at 3 s and 4 s, below the others' 5 s.
     */
    @Test
    void predictedBacklog_drainsBetweenReports_andAReportReplacesIt() {
        TestingClusterView view = new TestingClusterView(0, 5, 5, 5);
        ControllerPolicy p = policy(List.of(ONE_TASK), NO_TABLE, 10.0, true, 2);
        assertThat(place(p, view, 5)[0]).isEqualTo(5);
        view.now = 3.0; // server 0 drained to 2 s (2 requests left), the others to 2 s as well (5 - 3)
        view.queues = new int[] {9, 9, 9, 9}; // not reported before t = 10
        int[] hits = place(p, view, 4);
        assertThat(hits[0]).as("server 0 at 2 s predicted, like the others").isLessThanOrEqualTo(2);
        view.now = 10.0; // the report: every server 9 s, except what the view now says
        view.queues = new int[] {9, 0, 9, 9};
        assertThat(place(p, view, 3)).containsExactly(0, 3, 0, 0);
    }

    /**
     * Every job the policy places is its decision, background jobs included: a background job of 10 s loads its
     * server in the ledger, so the next two jobs of 1 s both go to the other server (at 0 s, then 1 s, both below
     * 10 s). Were background jobs not counted, both servers would still look idle and the two jobs would split one
     * each (the second one avoiding the first).
     */
    @Test
    void backgroundJobs_areCountedInTheLedger() {
        TestingClusterView view = new TestingClusterView(0, 0);
        SimJobClass background = SimJobClass.backgroundCompute("bg", 1, 1e10);
        ControllerPolicy p = policy(List.of(ONE_TASK, background), null, 10.0, true, 3);
        int[] servers = new int[1];
        p.place(1, background, view, servers);
        int busy = servers[0];
        int[] hits = place(p, view, 2);
        assertThat(hits[busy]).as("jobs on the server holding the 10 s background job").isZero();
        assertThat(hits[1 - busy]).as("jobs on the other server").isEqualTo(2);
    }

    @Test
    void inTheSimulator_beatsTheRuleWithoutALedger() {
        var w = new SimWorkload(TestingWorkloads.cluster(8), List.of(ONE_TASK.withRate(6.4)));
        var config = new SimConfig(20_000, 2_000, 7, Long.MAX_VALUE);
        double ledger = new Simulator(w, policy(w.classes(), NO_TABLE, 1.0, true, 1), "ledger", config).run().meanJctSeconds();
        double stale = new Simulator(w, policy(w.classes(), NO_TABLE, 1.0, false, 1), "stale", config).run().meanJctSeconds();
        // 8 servers at 80% load, jobs of 1 s: join-the-shortest-queue on predicted work waits far less than the
        // rule on reports a second old
        assertThat(ledger).isLessThan(0.8 * stale);
    }

    private static final Workload RESNET = new Workload(new Cluster(6, 1e11, 1e10),
            List.of(new ModelSpec("resnet18", new DagSource.Zoo("resnet18"), 100)), Background.NONE);

    /**
     * The simulator's controller policy is the controller's placement: fed the same reports and the same random
     * stream, policy-model's {@link ControllerPlacement} over {@link LiveServers} (what the Flink operator runs)
     * puts every task where the policy does, and parts of a subgraph on distinct servers.
     */
    @Test
    void placesExactlyAsTheControllersPlacementClass() {
        SimWorkloads.Loaded loaded = SimWorkloads.from(RESNET);
        SimWorkload w = loaded.sim().withLoad(0.9);
        SimTable table = new NonaSolver(loaded.analyses(), CostModel.DEFAULT).solve(w);
        assertThat(table.controllerForm()).isNotNull();
        SimJobClass c = w.classes().get(0);
        ControllerPolicy policy = new ControllerPolicy(w.classes(), table, 1e11, 0, 1, true, new SplittableRandom(9));

        PlacementSampler sampler = new PlacementSampler(table.controllerForm().table());
        int[] taskOf = table.controllerForm().taskOf().get(0);
        Map<String, Double> ops = new HashMap<>();
        sampler.tasks(0).forEach(t -> ops.put(t, 0.0));
        for (int t = 0; t < taskOf.length; t++) {
            if (taskOf[t] >= 0) {
                ops.put(sampler.tasks(0).get(taskOf[t]), c.taskOps(t));
            }
        }
        ControllerPlacement placement = ControllerPlacement.of(sampler, "resnet18", ops);
        LiveServers live = new LiveServers(3, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        SplittableRandom rng = new SplittableRandom(9);

        TestingClusterView view = new TestingClusterView(0, 2, 0, 1, 0, 3);
        int[] servers = new int[c.tasks()];
        int distinctSplits = 0;
        for (int job = 0; job < 200; job++) {
            view.now = job * 0.01;
            long millis = Math.round(view.now * 1000);
            for (int s = 0; s < view.servers(); s++) {
                live.report("s" + s, true, 1e11, view.assignedJobs(s), view.assignedWorkSeconds(s), List.of("resnet18"),
                        millis, millis);
            }
            policy.place(0, c, view, servers);
            int[] out = placement.place(live, millis, rng);
            for (int t = 0; t < taskOf.length; t++) {
                if (taskOf[t] >= 0) {
                    assertThat(servers[t]).as("job %d task %d", job, t).isEqualTo(out[taskOf[t]]);
                }
            }
            for (SimSubgraph g : c.subgraphs()) {
                if (g.size() == 2 && servers[g.intermediate(0)] != servers[g.intermediate(1)]) {
                    distinctSplits++;
                }
            }
        }
        assertThat(distinctSplits).as("the table at 90% load splits some subgraphs").isPositive();
    }

    @Test
    void badArguments_areNamed() {
        List<SimJobClass> one = List.of(ONE_TASK);
        SplittableRandom r = new SplittableRandom(1);
        assertThatThrownBy(() -> new ControllerPolicy(one, NO_TABLE, 1e9, -1, 1, true, r)).hasMessageContaining("telemetry report period (-1.0 s)");
        assertThatThrownBy(() -> new ControllerPolicy(one, NO_TABLE, 0, 1, 1, true, r)).hasMessageContaining("server compute rate (0.0 ops/s)");
        assertThatThrownBy(() -> new ControllerPolicy(one, NO_TABLE, 1e9, 1, 0, true, r)).hasMessageContaining("placers (0)");
    }
}
