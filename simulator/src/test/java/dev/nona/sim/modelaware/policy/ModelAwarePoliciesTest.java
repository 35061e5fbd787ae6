package dev.nona.sim.modelaware.policy;

import static dev.nona.sim.modelaware.policy.TestingModelAwareView.T5_SMALL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import dev.nona.sim.modelaware.policy.Decision;
import dev.nona.sim.modelaware.policy.Decision.Place;
import dev.nona.sim.modelaware.policy.Decision.Route;
import dev.nona.sim.modelaware.policy.LatencyEstimator;
import dev.nona.sim.modelaware.policy.ModelAwarePolicies;
import dev.nona.sim.modelaware.policy.ModelAwareRequest;
import dev.nona.sim.modelaware.policy.RandomServerPolicy;
import dev.nona.sim.modelaware.policy.RegistryPolicy;
import dev.nona.sim.modelaware.policy.ColocationPolicy;
import dev.nona.sim.modelaware.policy.ColocationQueuingPolicy;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The thesis's four policies on hand-set cluster states. */
final class ModelAwarePoliciesTest {
    private static final ModelAwareRequest WHOLE_MACHINE = new ModelAwareRequest("r", "t5-small", 4);
    private static final ModelAwareRequest ONE_CORE = new ModelAwareRequest("r", "t5-small", 1);

    private static SplittableRandom random() {
        return new SplittableRandom(7);
    }

    @Test
    void colocation_warmServerWithRoom_runsWarmThere() {
        TestingModelAwareView c = new TestingModelAwareView(4, 4).running("s2", 1, T5_SMALL);

        Decision d = new ColocationPolicy(random()).decide(ONE_CORE, c);

        assertThat(d).isEqualTo(new Place("s2", "s2", Route.WARM_LOCAL, "colocation"));
    }

    @Test
    void colocation_warmServerFull_startsColdElsewhere() {
        TestingModelAwareView c = new TestingModelAwareView(4, 4).running("s2", 4, T5_SMALL);

        Place p = (Place) new ColocationPolicy(random()).decide(WHOLE_MACHINE, c);

        assertThat(p.cpuServer()).isNotEqualTo("s2");
        assertThat(p.route()).isEqualTo(Route.COLD_LOCAL);
    }

    @Test
    void colocation_warmServerAtTarget_startsColdElsewhere() {
        TestingModelAwareView c = new TestingModelAwareView(2, 8);
        for (int i = 0; i < 3; i++) {
            c.running("s0", 1, T5_SMALL);
        }

        Place p = (Place) new ColocationPolicy(random()).decide(ONE_CORE, c);

        assertThat(p).isEqualTo(new Place("s1", "s1", Route.COLD_LOCAL, "colocation"));
    }

    @Test
    void colocation_noRoomAnywhere_waits() {
        TestingModelAwareView c = new TestingModelAwareView(2, 4).running("s0", 4, T5_SMALL).running("s1", 4, T5_SMALL);

        assertThat(new ColocationPolicy(random()).decide(WHOLE_MACHINE, c)).isInstanceOf(Decision.Wait.class);
    }

    @Test
    void colocationQueuing_warmServerFull_waitsInsteadOfColdStart() {
        TestingModelAwareView c = new TestingModelAwareView(4, 4).running("s2", 4, T5_SMALL);

        Decision d = new ColocationQueuingPolicy(random()).decide(WHOLE_MACHINE, c);

        assertThat(d).isInstanceOf(Decision.Wait.class);
        assertThat(((Decision.Wait) d).reason()).contains("t5-small");
    }

    @Test
    void colocationQueuing_modelNowhere_startsTheUnavoidableColdStart() {
        TestingModelAwareView c = new TestingModelAwareView(4, 4);

        Place p = (Place) new ColocationQueuingPolicy(random()).decide(WHOLE_MACHINE, c);

        assertThat(p.route()).isEqualTo(Route.COLD_LOCAL);
    }

    @Test
    void registry_warmServerFull_runsCpuElsewhereAndInferenceRemotely() {
        TestingModelAwareView c = new TestingModelAwareView(4, 4).running("s2", 4, T5_SMALL);

        Place p = (Place) new RegistryPolicy(random()).decide(WHOLE_MACHINE, c);

        assertThat(p.cpuServer()).isNotEqualTo("s2");
        assertThat(p.inferenceServer()).isEqualTo("s2");
        assertThat(p.route()).isEqualTo(Route.REMOTE);
    }

    @Test
    void registry_proxiesAtTarget_loadsLocally() {
        TestingModelAwareView c = new TestingModelAwareView(2, 8);
        for (int i = 0; i < 3; i++) {
            c.running("s0", 1, T5_SMALL);
        }
        c.running("s0", 5, T5_SMALL); // s0 has no room: the process must go to s1

        Place p = (Place) new RegistryPolicy(random()).decide(ONE_CORE, c);

        assertThat(p).isEqualTo(new Place("s1", "s1", Route.COLD_LOCAL, "registry"));
    }

    @Test
    void random_ignoresWhereTheModelIs_andSpreadsOverServers() {
        TestingModelAwareView c = new TestingModelAwareView(8, 4).running("s0", 1, T5_SMALL);
        RandomServerPolicy policy = new RandomServerPolicy(random());
        Set<String> chosen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            chosen.add(((Place) policy.decide(ONE_CORE, c)).cpuServer());
        }
        assertThat(chosen).hasSize(8);
    }

    @Test
    void place_routeMustMatchServers() {
        assertThatThrownBy(() -> new Place("s0", "s1", Route.WARM_LOCAL, "x")).hasMessageContaining("route WARM_LOCAL");
        assertThatThrownBy(() -> new Place("s0", "s0", Route.REMOTE, "x")).hasMessageContaining("route REMOTE");
    }

    @Test
    void policies_byName_andUnknownNameListsKnownOnes() {
        LatencyEstimator estimator = new LatencyEstimator(0);
        for (String name : ModelAwarePolicies.names()) {
            assertThat(ModelAwarePolicies.create(name, random(), estimator).name()).isEqualTo(name);
        }
        assertThat(ModelAwarePolicies.names())
                .containsExactly("colocation", "colocation-queuing", "registry", "random", "adaptive");
        assertThatThrownBy(() -> ModelAwarePolicies.create("lru", random(), estimator))
                .hasMessageContaining("policy 'lru'").hasMessageContaining("colocation-queuing");
    }
}
