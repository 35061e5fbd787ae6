package dev.nona.sim.policy.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.sim.SimCluster;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.TestingWorkloads;
import dev.nona.sim.engine.ClusterView;
import dev.nona.sim.engine.SimConfig;
import dev.nona.sim.engine.SimResult;
import dev.nona.sim.engine.Simulator;
import dev.nona.workload.ColdStartCost;
import dev.nona.workload.ServerClass;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The thesis's colocation on DAG jobs: warm servers under the target first, then a cold start (1.ii) or a wait (1.i). */
final class ColocationJobPolicyTest {
    private static final SimJobClass JOB = TestingWorkloads.forkJoin(1.0);

    /** Servers whose caches, memory and ongoing requests the test sets. */
    private static final class View implements ClusterView {
        final boolean[] holds;
        final boolean[] fits;
        final int[] ongoing;

        View(boolean[] holds, boolean[] fits, int[] ongoing) {
            this.holds = holds;
            this.fits = fits;
            this.ongoing = ongoing;
        }

        @Override public double now() { return 0; }
        @Override public int servers() { return ongoing.length; }
        @Override public int queueLength(int s) { return ongoing[s]; }
        @Override public double queuedWorkSeconds(int s) { return ongoing[s]; }
        @Override public double assignedWorkSeconds(int s) { return ongoing[s]; }
        @Override public int assignedJobs(int s) { return ongoing[s]; }
        @Override public int jobsInFlight() { return 1; }
        @Override public int linkQueueLength() { return 0; }
        @Override public boolean memoryBounded() { return true; }
        @Override public boolean holds(int s, int classIndex, int task) { return holds[s]; }
        @Override public boolean fits(int s, int classIndex, int[] tasks, int count) { return fits[s]; }
    }

    private static int[] place(ColocationJobPolicy policy, View view) {
        int[] servers = new int[JOB.tasks()];
        policy.place(0, JOB, view, servers);
        return servers;
    }

    private static int wholeOn(int[] servers) {
        assertThat(Arrays.stream(servers).distinct().count()).as("the job runs whole").isEqualTo(1);
        return servers[0];
    }

    @Test
    void bothVariants_warmUnderTheTarget_fewestOngoing() {
        // 0 holds the job at the target of 3, 2 holds it with 1 ongoing, 1 and 3 are idle and cold
        View view = new View(new boolean[] {true, false, true, false}, new boolean[] {true, true, true, true}, new int[] {3, 0, 1, 0});

        assertThat(wholeOn(place(ColocationJobPolicy.withoutQueuing(new SplittableRandom(1)), view))).isEqualTo(2);
        assertThat(wholeOn(place(ColocationJobPolicy.withQueuing(new SplittableRandom(1)), view))).isEqualTo(2);
    }

    @Test
    void everyHolderAtTheTarget_withoutQueuingStartsCold_withQueuingJoinsTheLeastOngoingHolder() {
        View view = new View(new boolean[] {true, false, true, false}, new boolean[] {true, true, true, true}, new int[] {4, 0, 3, 0});

        for (int seed = 0; seed < 20; seed++) {
            assertThat(wholeOn(place(ColocationJobPolicy.withoutQueuing(new SplittableRandom(seed)), view))).isIn(1, 3);
            assertThat(wholeOn(place(ColocationJobPolicy.withQueuing(new SplittableRandom(seed)), view))).isEqualTo(2);
        }
    }

    @Test
    void aServerThatCannotTakeTheJob_isNeverChosen() {
        // 2 holds the job but cannot take it now (its memory is pinned by running parts); 1 cannot hold it at all
        View view = new View(new boolean[] {true, false, true, false}, new boolean[] {true, false, false, true}, new int[] {3, 0, 0, 0});

        for (int seed = 0; seed < 20; seed++) {
            assertThat(wholeOn(place(ColocationJobPolicy.withoutQueuing(new SplittableRandom(seed)), view))).isEqualTo(3);
            assertThat(wholeOn(place(ColocationJobPolicy.withQueuing(new SplittableRandom(seed)), view))).isEqualTo(0);
        }
        View noHolder = new View(new boolean[] {false, false, true, false}, new boolean[] {true, false, false, true}, new int[] {0, 0, 0, 0});
        for (int seed = 0; seed < 20; seed++) {
            assertThat(wholeOn(place(ColocationJobPolicy.withQueuing(new SplittableRandom(seed)), noHolder))).isIn(0, 3);
        }
    }

    @Test
    void engine_withQueuing_loadsEachModelOnce_withoutQueuing_loadsMoreUnderLoad() {
        // 8 servers that hold everything; two models of 4 s of work at 0.2 jobs/s each (0.8 of one server); the queuing
        // variant never starts a model that a server holds: one cold start per model (a whole job is one part)
        SimCluster cluster = new SimCluster(8, 1e9, 1e10, List.of(new ServerClass("only", 8, 1e9, 1e10)), new ColdStartCost(0.01, 1e10));
        SimJobClass other = SimJobClass.inference("other", 0.2, new double[] {1e9, 1e9, 1e9, 1e9},
                new int[][] {{0, 1}, {0, 2}, {1, 3}, {2, 3}}, new double[] {1e9, 1e9, 1e9, 1e9}, JOB.subgraphs());
        double[] bytes = {1e7, 1e7, 1e7, 1e7};
        SimWorkload w = new SimWorkload(cluster, List.of(TestingWorkloads.forkJoin(0.2).withTaskBytes(bytes), other.withTaskBytes(bytes)));
        SimConfig config = new SimConfig(2_000, 200, 5, Long.MAX_VALUE);

        SimResult queuing = new Simulator(w, ColocationJobPolicy.withQueuing(new SplittableRandom(5)), "colocation-queuing", config).run();
        SimResult cold = new Simulator(w, ColocationJobPolicy.withoutQueuing(new SplittableRandom(5)), "colocation", config).run();

        assertThat(queuing.coldStarts()).as("one load per model").isEqualTo(2);
        assertThat(cold.coldStarts()).isGreaterThan(queuing.coldStarts());
        assertThat(queuing.memoryViolations()).isZero();
        assertThat(cold.memoryViolations()).isZero();
        assertThat(queuing.linkUtilization()).isZero();
    }
}
