package dev.nona.twin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.nona.dag.ModelDag;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.OutcomePart;
import dev.nona.topics.record.OutcomeStatus;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.workload.ColdStartCost;
import dev.nona.workload.ServerClass;
import dev.nona.zoo.ModelZoo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class BaselineReplayTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final TwinOptions OPTIONS = new TwinOptions(3, 1e12, 1e9, 0, 0.5, 10, Map.of(), Map.of());
    private static final Map<String, CatalogDag> PAIR = Map.of("pair", new CatalogDag("pair",
            List.of(new CatalogTask("a", 2e9), new CatalogTask("b", 3e9)), List.of(new CatalogEdge("a", "b", 1e6))));

    private static List<BaselineReplay.Arrival> arrivals(String model, int n, long gapMillis) {
        List<BaselineReplay.Arrival> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new BaselineReplay.Arrival("r-" + i, model, T0 + i * gapMillis));
        }
        return out;
    }

    @Test
    void local_keepsEachRequestWholeOnOneServer_jctIsItsComputeAlone() {
        List<PlacementOutcome> out = BaselineReplay.run("local", OPTIONS, PAIR, arrivals("pair", 5, 1_000), 1);

        // a then b on one server, 2 ms + 3 ms, nothing over the link, no queueing one second apart
        assertThat(out).hasSize(5).allSatisfy(o -> {
            assertThat(o.status()).isEqualTo(OutcomeStatus.OK);
            assertThat(o.parts()).hasSize(1);
            assertThat(o.linkBytes()).isZero();
            assertThat(o.observedJctSeconds()).isCloseTo(0.005, within(1e-9));
        });
    }

    @Test
    void random_sameSeed_sameOutcomes_andSomeRequestsSplit() {
        // a diamond does not contract: its branches b and c are placed on their own
        Map<String, CatalogDag> diamond = Map.of("diamond", new CatalogDag("diamond",
                List.of(new CatalogTask("a", 1e9), new CatalogTask("b", 2e9), new CatalogTask("c", 2e9),
                        new CatalogTask("d", 1e9)),
                List.of(new CatalogEdge("a", "b", 1e6), new CatalogEdge("a", "c", 1e6), new CatalogEdge("b", "d", 1e6),
                        new CatalogEdge("c", "d", 1e6))));
        List<BaselineReplay.Arrival> burst = arrivals("diamond", 50, 1);

        List<PlacementOutcome> first = BaselineReplay.run("random", OPTIONS, diamond, burst, 7);
        List<PlacementOutcome> second = BaselineReplay.run("random", OPTIONS, diamond, burst, 7);

        assertThat(first).hasSize(50).isEqualTo(second);
        assertThat(first).anySatisfy(o -> assertThat(o.linkBytes()).isPositive());
        assertThat(first).anySatisfy(o -> assertThat(o.parts()).hasSizeGreaterThan(1));
    }

    @Test
    void sparkFair_onAZooModel_placesEveryOriginalTask() {
        ModelDag dag = ModelZoo.load("resnet18");
        Map<String, CatalogDag> catalog = Map.of("resnet18", new CatalogDag("resnet18",
                dag.tasks().stream().map(t -> new CatalogTask(t.id(), t.ops())).toList(),
                dag.edges().stream().map(e -> new CatalogEdge(e.from(), e.to(), e.bytes())).toList()));

        List<PlacementOutcome> out = BaselineReplay.run("spark-fair", OPTIONS, catalog, arrivals("resnet18", 20, 2), 3);

        assertThat(out).hasSize(20).allSatisfy(o -> assertThat(o.status()).isEqualTo(OutcomeStatus.OK));
    }

    @Test
    void badPolicyOrModel_isAnErrorNamingIt() {
        assertThatThrownBy(() -> BaselineReplay.run("nona", OPTIONS, PAIR, arrivals("pair", 1, 1), 1))
                .hasMessage("baseline policy 'nona' is not one of [jsq, local, p2c, random, spark-fair]");
        assertThatThrownBy(() -> BaselineReplay.run("random", OPTIONS, PAIR, arrivals("other", 1, 1), 1))
                .hasMessage("arrival 'r-0' names model 'other', not in the catalog");
    }

    /**
     * Where the classes bound memory, every baseline keeps each part off the servers too small for it, as in the
     * simulator: a chain of two 4 MB tasks on one server of 1 GB and two of 1 MB. Random, spark-fair, jsq and p2c
     * run every request, every part on s-0; none is refused by the twin.
     */
    @Test
    void memoryBoundClasses_everyBaselineKeepsPartsOffTheServersTooSmall() {
        TwinOptions twoClasses = TwinOptions.ofClasses(List.of(new ServerClass("big", 1, 1e12, 1e9),
                new ServerClass("small", 2, 1e12, 1e6)), new ColdStartCost(0.01, 1e9), 1e9, 10, Map.of(), Map.of());
        Map<String, CatalogDag> sized = Map.of("pair", new CatalogDag("pair",
                List.of(new CatalogTask("a", 2e9, 4e6), new CatalogTask("b", 3e9, 4e6)),
                List.of(new CatalogEdge("a", "b", 1e6))));
        for (String policy : List.of("random", "spark-fair", "jsq", "p2c")) {
            List<PlacementOutcome> out = BaselineReplay.run(policy, twoClasses, sized, arrivals("pair", 30, 1), 5);
            assertThat(out).as(policy).hasSize(30).allSatisfy(o -> {
                assertThat(o.status()).isEqualTo(OutcomeStatus.OK);
                assertThat(o.parts()).extracting(OutcomePart::server).containsOnly("s-0");
            });
        }
    }
}
