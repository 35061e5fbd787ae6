package dev.nona.twin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.dag.ModelDag;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.OutcomeStatus;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.StageAssignment;
import dev.nona.zoo.ModelZoo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The twin on the zoo's real DAGs: a request placed whole on one server takes its total ops over $\nu$. */
final class TwinZooTest {
    private static final long T0 = 1_700_000_000_000L;

    @Test
    void wholeOnOneServer_takesTotalOpsOverNu_forEveryZooModel() {
        TwinCluster cluster = new TwinCluster(new TwinOptions(2, 1e12, 1e10, 0, 0.5, 10, Map.of(), Map.of()), T0);
        long now = T0;
        for (String name : ModelZoo.names()) {
            ModelDag dag = ModelZoo.load(name);
            TwinModel model = new TwinModel(name, new CatalogDag(name,
                    dag.tasks().stream().map(t -> new CatalogTask(t.id(), t.ops())).toList(),
                    dag.edges().stream().map(e -> new CatalogEdge(e.from(), e.to(), e.bytes())).toList()));
            List<StageAssignment> stages = dag.tasks().stream().map(t -> new StageAssignment(t.id(), "s-1")).toList();
            assertThat(cluster.submit(PlacementDecision.of("r-" + name, name, "t", 1, false, stages, 0, now), model, now))
                    .isNull();
            now += 1_000;
            cluster.advanceTo(now);
            List<PlacementOutcome> out = cluster.drainOutcomes();

            double ops = dag.tasks().stream().mapToDouble(t -> t.ops()).sum();
            assertThat(out).as(name).singleElement().satisfies(o -> {
                assertThat(o.status()).isEqualTo(OutcomeStatus.OK);
                assertThat(o.observedJctSeconds()).isCloseTo(ops / 1e12, within(1e-9));
                assertThat(o.linkBytes()).isZero();
            });
        }
    }
}
