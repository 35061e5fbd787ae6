package dev.nona.sim.policy.nona;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.optimize.CostModel;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.SimResult;
import dev.nona.sim.experiment.ExperimentContext;
import dev.nona.sim.policy.expert.ExpertSearch;
import dev.nona.sim.workload.SimWorkloads;
import dev.nona.workload.ServerClass;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The controller's policies on the shipped heterogeneous workloads, at load 0.7: neither places a part where it does
 * not fit (the engine refuses and counts such placements), and each runs every job; and no model's mean JCT is below
 * its longest path of ops at the fastest class's speed, the bound ({@link SimWorkload#inferenceJctLowerBoundSeconds})
 * that the quality summary holds goal (b)'s target against.
 */
final class HeterogeneousWorkloadsTest {
    private static final long JOBS = 3_000;

    /**
     * The table carries the idle gate under which the cost model predicts the least mean JCT: none at load 0.3 on
     * {@code hetero} (a request would take a T4, four times slower, whenever an A100 has work), 4 at 0.9 (the small
     * models' requests then leave the A100s' queues to the large ones); never on {@code memory-bound}, whose classes
     * have one speed.
     */
    @Test
    void controllerTable_carriesTheIdleGateTheCostModelPrefers() {
        ExperimentContext hetero = new ExperimentContext(SimWorkloads.read(Path.of("..", "examples", "hetero.json")),
                Path.of("."), JOBS, 1, CostModel.DEFAULT, ExpertSearch.Settings.defaults(), m -> { });
        assertThat(gate(hetero, 0.3)).isZero();
        assertThat(gate(hetero, 0.9)).isEqualTo(4.0);
        ExperimentContext memory = new ExperimentContext(SimWorkloads.read(Path.of("..", "examples", "memory-bound.json")),
                Path.of("."), JOBS, 1, CostModel.DEFAULT, ExpertSearch.Settings.defaults(), m -> { });
        assertThat(gate(memory, 0.9)).isZero();
    }

    private static double gate(ExperimentContext ctx, double load) {
        return ctx.scenario().controllerTable(ctx.atLoad(load)).controllerForm().table().idleGate();
    }

    @ParameterizedTest
    @ValueSource(strings = {"hetero.json", "memory-bound.json"})
    void controllerPolicies_noMemoryViolations(String file) {
        ExperimentContext ctx = new ExperimentContext(SimWorkloads.read(Path.of("..", "examples", file)), Path.of("."),
                JOBS, 1, CostModel.DEFAULT, ExpertSearch.Settings.defaults(), m -> { }).seeds(1);
        for (String policy : new String[] {"nona-controller", "nona-controller-uniform", "least-expected-finish"}) {
            SimResult r = ctx.run(policy, ctx.atLoad(0.7), file);
            System.out.printf(Locale.ROOT, "%s %s load 0.7: mean JCT %.4f s, cold starts %d, evictions %d, memory "
                    + "violations %d%n", file, policy, r.meanJctSeconds(), r.coldStarts(), r.evictions(), r.memoryViolations());
            assertThat(r.memoryViolations()).as(policy).isZero();
            SimWorkload w = ctx.atLoad(0.7);
            double fastest = w.cluster().classes().stream().mapToDouble(ServerClass::opsPerSecond).max().orElseThrow();
            for (SimResult.ClassResult c : r.classes()) {
                double bound = w.classes().get(w.indexOf(c.name())).longestPathOps() / fastest;
                assertThat(c.jct().count()).as(policy + " " + c.name()).isPositive();
                assertThat(c.jct().mean()).as(policy + " " + c.name() + ": mean JCT against the longest path at the fastest speed")
                        .isGreaterThanOrEqualTo(bound * (1 - 1e-9));
            }
        }
    }
}
