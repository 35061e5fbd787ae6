package dev.nona.sim.modelaware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

final class ModelAwareSimulatorTest {
    private static SimModel model(String name, double sizeMb) {
        return new SimModel(name, sizeMb, 3, 1, 0, 0);
    }

    @Test
    void cacheCapacity_twoModelsThatDoNotFitTogether_evictAndColdStartAgain() {
        // One machine that holds one model at a time; a, b, a, b sequentially: every request loads.
        ThesisWorkload w = new ThesisWorkload(new ThesisCluster(1, 1, 1000, 0, 3),
                List.of(model("a", 600), model("b", 600)),
                List.of(group("a"), group("b"), group("a"), group("b")));

        ModelAwareResult r = new ModelAwareSimulator(w, "colocation", 1).run();

        assertThat(r.coldStarts()).isEqualTo(4);
        assertThat(r.evictions()).isEqualTo(3);
        assertThat(r.makespanSeconds()).isCloseTo(4 * (3 + 1), within(1e-9));
    }

    @Test
    void cacheCapacity_bothFit_loadEachOnce() {
        ThesisWorkload w = new ThesisWorkload(new ThesisCluster(1, 1, 1200, 0, 3),
                List.of(model("a", 600), model("b", 600)),
                List.of(group("a"), group("b"), group("a"), group("b")));

        ModelAwareResult r = new ModelAwareSimulator(w, "colocation", 1).run();

        assertThat(r.coldStarts()).isEqualTo(2);
        assertThat(r.evictions()).isZero();
    }

    @Test
    void loadingOccupiesTheReplica_aRemoteCallWaitsForTheLoad() {
        // Two whole-machine requests at once, free network: the second goes remote to the loading machine,
        // waits for its 3 s load and the first inference, then infers: 3 + 1 + 1.
        ThesisWorkload w = new ThesisWorkload(new ThesisCluster(2, 4, 1000, 0, 3),
                List.of(model("a", 100)),
                List.of(new RequestGroup("a", 2, 4, RequestGroup.Arrival.CONCURRENT)));

        ModelAwareResult r = new ModelAwareSimulator(w, "registry", 1).run();

        assertThat(r.coldStarts()).isEqualTo(1);
        assertThat(r.latenciesSeconds()).containsExactlyInAnyOrder(4.0, 5.0);
    }

    @Test
    void runTwice_isRejected() {
        ModelAwareSimulator sim = new ModelAwareSimulator(ThesisExamples.read("simple-10-requests.json"), "random", 1);
        sim.run();
        assertThatThrownBy(sim::run).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void sameSeed_sameRun() {
        ThesisWorkload w = ThesisExamples.read("simple-10-requests.json");
        assertThat(new ModelAwareSimulator(w, "random", 9).run().latenciesSeconds())
                .isEqualTo(new ModelAwareSimulator(w, "random", 9).run().latenciesSeconds());
    }

    private static RequestGroup group(String model) {
        return new RequestGroup(model, 1, 1, RequestGroup.Arrival.SEQUENTIAL);
    }
}
