package dev.nona.sim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.optimize.CostModel;
import dev.nona.sim.SimJobClass;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.ClusterView;
import dev.nona.sim.engine.SimConfig;
import dev.nona.sim.engine.Simulator;
import dev.nona.sim.policy.Policy;
import dev.nona.sim.policy.PolicyContext;
import dev.nona.sim.policy.PolicyRegistry;
import dev.nona.sim.policy.expert.ExpertSearch;
import dev.nona.sim.workload.SimWorkloads;
import dev.nona.workload.WorkloadReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Common random numbers: at one seed, every policy the quality experiment compares sees the same inference arrivals
 * (class and time, in order), however differently it places them; another seed gives other arrivals.
 */
final class CommonArrivalsTest {
    private static final long JOBS = 1_000;

    private final SimWorkloads.Loaded loaded = SimWorkloads.from(WorkloadReader.parse("""
            {"cluster": {"servers": 8, "opsPerSecond": 1.0e11, "linkBitsPerSecond": 1.0e10},
             "models": [{"name": "alexnet", "dag": {"zoo": "alexnet"}, "ratePerSecond": 20},
                        {"name": "resnet18", "dag": {"zoo": "resnet18"}, "ratePerSecond": 30}],
             "background": {"comm": {"ratePerSecond": 0.5, "bytes": 4.0e7}, "compute": {"ratePerSecond": 0.5, "ops": 1.0e9}}}
            """, false, null));
    private final Scenario scenario = new Scenario(loaded, CostModel.DEFAULT, new ExpertSearch.Settings(200, 17, 1, 5_000), m -> { });
    private final SimWorkload w = loaded.sim().withLoad(0.8);

    @Test
    void run_qualityPoliciesAtOneSeed_placeTheSameArrivalSequence() {
        List<String> reference = arrivals("jsq", 3);
        assertThat(reference).hasSizeGreaterThanOrEqualTo((int) (JOBS + JOBS / 10));

        for (String policy : Quality.POLICIES) {
            List<String> seen = arrivals(policy, 3);
            int common = Math.min(seen.size(), reference.size());
            assertThat(common).as(policy).isGreaterThanOrEqualTo((int) (JOBS + JOBS / 10));
            assertThat(seen.subList(0, common)).as(policy).isEqualTo(reference.subList(0, common));
        }
    }

    @Test
    void run_anotherSeed_givesOtherArrivals() {
        List<String> a = arrivals("jsq", 3);
        List<String> b = arrivals("jsq", 4);

        assertThat(b.subList(0, 100)).isNotEqualTo(a.subList(0, 100));
    }

    /** "class@time" of every inference job placed, in order, by {@code policy} at {@code seed}. */
    private List<String> arrivals(String policy, long seed) {
        PolicyContext context = new PolicyContext(w, seed, x -> scenario.nonaTable(w), x -> scenario.nonaStarTable(),
                x -> scenario.expertTable(w), x -> scenario.expertLiveTable(w), x -> scenario.controllerTable(w));
        Policy placing = PolicyRegistry.create(policy, context);
        List<String> seen = new ArrayList<>();
        Policy recording = (int classIndex, SimJobClass jobClass, ClusterView view, int[] servers) -> {
            seen.add(classIndex + "@" + Double.toHexString(view.now()));
            placing.place(classIndex, jobClass, view, servers);
        };
        new Simulator(w, recording, policy, SimConfig.of(JOBS, seed)).run();
        return seen;
    }
}
