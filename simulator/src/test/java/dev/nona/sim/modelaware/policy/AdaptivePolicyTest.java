package dev.nona.sim.modelaware.policy;

import static dev.nona.sim.modelaware.policy.TestingModelAwareView.T5_SMALL;
import static org.assertj.core.api.Assertions.assertThat;
import dev.nona.modelaware.ModelProfile;
import dev.nona.sim.modelaware.policy.AdaptivePolicy;
import dev.nona.sim.modelaware.policy.Decision.Place;
import dev.nona.sim.modelaware.policy.Decision.Route;
import dev.nona.sim.modelaware.policy.Decision;
import dev.nona.sim.modelaware.policy.LatencyEstimator;
import dev.nona.sim.modelaware.policy.LatencyModel;
import dev.nona.sim.modelaware.policy.ModelAwareRequest;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class AdaptivePolicyTest {
    private static final ModelAwareRequest WHOLE_MACHINE = new ModelAwareRequest("r", "t5-small", 4);

    private static LatencyEstimator estimator(ModelProfile profile, double network) {
        LatencyEstimator e = new LatencyEstimator(network);
        e.register(profile);
        return e;
    }

    @Test
    void warmServerWithRoom_isTakenDirectly() {
        TestingModelAwareView c = new TestingModelAwareView(4, 4).running("s1", 1, T5_SMALL);
        AdaptivePolicy policy = new AdaptivePolicy(new SplittableRandom(1), estimator(T5_SMALL, 5));

        Decision d = policy.decide(new ModelAwareRequest("r", "t5-small", 1), c);

        assertThat(d).isEqualTo(new Place("s1", "s1", Route.WARM_LOCAL, "adaptive/warm"));
    }

    @Test
    void slowNetworkAndPostProcessing_startsColdLikeSection641() {
        TestingModelAwareView c = new TestingModelAwareView(4, 4).running("s0", 4, T5_SMALL);
        AdaptivePolicy policy = new AdaptivePolicy(new SplittableRandom(1), estimator(T5_SMALL, 5));

        Place p = (Place) policy.decide(WHOLE_MACHINE, c);

        assertThat(p.route()).isEqualTo(Route.COLD_LOCAL);
        assertThat(p.strategy()).isEqualTo("adaptive/colocation");
    }

    @Test
    void noPostProcessing_waitsLikeSection642() {
        ModelProfile noPost = new ModelProfile("t5-small", 242, 3, 1, 0);
        TestingModelAwareView c = new TestingModelAwareView(4, 4).running("s0", 4, noPost);
        AdaptivePolicy policy = new AdaptivePolicy(new SplittableRandom(1), estimator(noPost, 5));

        assertThat(policy.decide(WHOLE_MACHINE, c)).isInstanceOf(Decision.Wait.class);
    }

    @Test
    void fastNetwork_goesRemoteLikeSection643() {
        TestingModelAwareView c = new TestingModelAwareView(4, 4).running("s0", 4, T5_SMALL);
        AdaptivePolicy policy = new AdaptivePolicy(new SplittableRandom(1), estimator(T5_SMALL, 0.001));

        Place p = (Place) policy.decide(WHOLE_MACHINE, c);

        assertThat(p.route()).isEqualTo(Route.REMOTE);
        assertThat(p.inferenceServer()).isEqualTo("s0");
    }

    @Test
    void observedColdStartsFasterThanTheCatalog_switchFromWaitingToColdStart() {
        ModelProfile noPost = new ModelProfile("t5-small", 242, 3, 1, 0);
        TestingModelAwareView c = new TestingModelAwareView(4, 4).running("s0", 4, noPost);
        LatencyEstimator estimator = estimator(noPost, 5);
        AdaptivePolicy policy = new AdaptivePolicy(new SplittableRandom(1), estimator);
        assertThat(policy.decide(WHOLE_MACHINE, c)).isInstanceOf(Decision.Wait.class);

        // Loads now hit a local disk cache: 0.2 s. T_COL = max(0.2 + 1, 1) < T_CQ = 2 once the EMA has moved.
        for (int i = 0; i < 10; i++) {
            estimator.observeColdStart("t5-small", 0.2);
        }

        assertThat(policy.predict("t5-small", c.registry()).best()).isEqualTo(LatencyModel.Strategy.COLOCATION);
        assertThat(((Place) policy.decide(WHOLE_MACHINE, c)).route()).isEqualTo(Route.COLD_LOCAL);
    }

    @Test
    void burst_countsRequestsAlreadyWaiting_thenStartsCold() {
        // T_CS 3, T_I 1, T_P 0, slow network; the warm machine is busy with one request.
        // Waiting behind n requests costs (n + 1) s; a cold start costs 4 s: two wait, the third starts cold.
        ModelProfile noPost = new ModelProfile("t5-small", 242, 3, 1, 0);
        TestingModelAwareView c = new TestingModelAwareView(4, 4).running("s0", 4, noPost);
        AdaptivePolicy policy = new AdaptivePolicy(new SplittableRandom(1), estimator(noPost, 10));

        Decision first = policy.decide(new ModelAwareRequest("a", "t5-small", 4), c);
        Decision second = policy.decide(new ModelAwareRequest("b", "t5-small", 4), c);
        Decision third = policy.decide(new ModelAwareRequest("c", "t5-small", 4), c);
        Decision firstAgain = policy.decide(new ModelAwareRequest("a", "t5-small", 4), c);

        assertThat(first).isInstanceOf(Decision.Wait.class);
        assertThat(second).isInstanceOf(Decision.Wait.class);
        assertThat(((Place) third).route()).isEqualTo(Route.COLD_LOCAL);
        assertThat(firstAgain).isInstanceOf(Decision.Wait.class);
    }

    @Test
    void proxyStillLoading_queuingPaysForTheLoad() {
        // The only holder is loading (3 s): waiting costs 3 + 2 * 1, a cold start 4: start cold.
        ModelProfile noPost = new ModelProfile("t5-small", 242, 3, 1, 0);
        TestingModelAwareView c = new TestingModelAwareView(4, 4);
        c.registry().assign("s0", noPost);
        c.registry().beginRequest("s0");
        AdaptivePolicy policy = new AdaptivePolicy(new SplittableRandom(1), estimator(noPost, 10));

        var p = policy.predict("t5-small", c.registry());

        assertThat(p.colocationWithQueuing()).isEqualTo(5.0);
        assertThat(p.registry()).isEqualTo(10 + 1 + 0 + 1.0);
        assertThat(p.best()).isEqualTo(LatencyModel.Strategy.COLOCATION);
    }
}
