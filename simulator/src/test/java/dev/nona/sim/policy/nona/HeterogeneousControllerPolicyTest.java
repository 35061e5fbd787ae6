package dev.nona.sim.policy.nona;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.sim.SimJobClass;
import dev.nona.sim.policy.table.SimTable;
import dev.nona.workload.ColdStartCost;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class HeterogeneousControllerPolicyTest {
    /** One task of 4e9 ops and 6 bytes: fits "big" (10 bytes), not "small" (5 bytes). */
    private static final SimJobClass BIG_MODEL = SimJobClass.inference("big-model", 1, new double[] {4e9}, new int[0][],
            new double[0], List.of());
    private static final SimTable NO_TABLE = new SimTable(List.of(List.of()), List.of(Double.NaN));

    /** Servers 0-1 "big" (4e9 ops/s, 10 bytes), 2-5 "small" (1e9 ops/s, 5 bytes); holding nothing. */
    private static final class TwoClasses extends TestingClusterView {
        TwoClasses() {
            super(0, 0, 0, 0, 0, 0);
        }

        @Override public double opsPerSecond(int s) { return s < 2 ? 4e9 : 1e9; }
        @Override public boolean memoryBounded() { return true; }
        @Override public double memoryBytes(int s) { return s < 2 ? 10 : 5; }
        @Override public double freeMemoryBytes(int s) { return memoryBytes(s); }
        @Override public boolean holds(int s, int classIndex, int task) { return false; }
    }

    private static ControllerPolicy policy(boolean uniform) {
        var hetero = new ControllerPolicy.Heterogeneity(List.of("big", "big", "small", "small", "small", "small"),
                new double[][] {{6}}, new ColdStartCost(0.5, 1e9), uniform);
        return new ControllerPolicy(List.of(BIG_MODEL), NO_TABLE, 2.5e9, 10.0, 1, true, hetero, new SplittableRandom(3));
    }

    @Test
    void aPartNeverGoesWhereItDoesNotFit_andTheFullRuleUsesEachServersSpeed() {
        for (boolean uniform : new boolean[] {true, false}) {
            ControllerPolicy p = policy(uniform);
            TwoClasses view = new TwoClasses();
            int[] hits = new int[view.servers()];
            int[] out = new int[1];
            for (int i = 0; i < 200; i++) {
                p.place(0, BIG_MODEL, view, out);
                hits[out[0]]++;
            }
            assertThat(hits[0] + hits[1]).as("uniform=%s: only the big servers hold 6 bytes", uniform).isEqualTo(200);
        }
    }

    /**
     * A model of 4 bytes fits every server. Within one report the full rule predicts each job's finish at the
     * server's own speed: 1 s per job on a big server (4e9 ops/s), 4 s + nothing queued (the 0.5 s load overlaps) on a
     * small one, so the first 8 jobs fill the big servers to 4 s and the next 4 go one to each small server. The
     * uniform controller sees one mean speed and spreads them evenly.
     */
    @Test
    void theFullRuleWeighsEachServersOwnSpeed_theUniformOneSpreadsEvenly() {
        for (boolean uniform : new boolean[] {false, true}) {
            var hetero = new ControllerPolicy.Heterogeneity(List.of("big", "big", "small", "small", "small", "small"),
                    new double[][] {{4}}, new ColdStartCost(0.5, 1e9), uniform);
            ControllerPolicy p = new ControllerPolicy(List.of(BIG_MODEL), NO_TABLE, 2.5e9, 10.0, 1, true, hetero,
                    new SplittableRandom(3));
            TwoClasses view = new TwoClasses();
            int[] out = new int[1];
            int[] hits = new int[view.servers()];
            for (int i = 0; i < 12; i++) {
                p.place(0, BIG_MODEL, view, out);
                hits[out[0]]++;
            }
            assertThat(hits).as("uniform=%s", uniform).containsExactly(uniform ? new int[] {2, 2, 2, 2, 2, 2}
                    : new int[] {4, 4, 1, 1, 1, 1});
        }
    }
}
