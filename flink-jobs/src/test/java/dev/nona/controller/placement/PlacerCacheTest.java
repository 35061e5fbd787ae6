package dev.nona.controller.placement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.TestingCluster;
import dev.nona.controller.cluster.ClusterSnapshot;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.placement.LiveServers;
import dev.nona.placement.PlacementExplanation;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.StageAssignment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

final class PlacerCacheTest {
    /** Builds a {@link TestingPlacer} for every model but "uncovered" (the table has no distribution for it). */
    private static final class TestingFactory implements PlacerFactory {
        final List<Double> opsSeen = new ArrayList<>();

        @Override
        public RequestPlacer create(String model, CatalogDag dag, ControllerTable table, double opsPerSecond) {
            opsSeen.add(opsPerSecond);
            return model.equals("uncovered") ? null : new TestingPlacer(model);
        }
    }

    private record TestingPlacer(String model) implements RequestPlacer {
        @Override
        public List<StageAssignment> place(LiveServers servers, long eventTime, RandomGenerator rng) {
            throw new UnsupportedOperationException("not placed in this test");
        }

        @Override
        public double predictedJctSeconds() {
            return 0.042;
        }

        @Override
        public PlacementExplanation explanation() {
            return new PlacementExplanation();
        }

        @Override
        public List<String> tasks() {
            return List.of();
        }
    }

    private static ControllerTable table(long version, boolean fallback) {
        return new ControllerTable(version, fallback, 0, "test", Map.of(), new ClusterSnapshot(List.of("s0"), 1e12, 1e10),
                Double.NaN, Double.NaN, Map.of(), fallback ? null : "{}");
    }

    private final TestingFactory factory = new TestingFactory();
    private final Map<String, Double> jcts = new LinkedHashMap<>();
    private final PlacerCache cache = new PlacerCache(factory, jcts::put);
    private final CatalogDag dag = TestingCluster.figure1();

    @Test
    void beforeTheFirstTable_andUnderTheFallback_placesLocally() {
        assertThat(cache.isStale()).as("nothing built yet").isTrue();
        cache.use(null);
        assertThat(cache.tableVersion()).isZero();
        assertThat(cache.build("fig1", dag)).isInstanceOf(LocalPlacer.class);
        cache.use(table(3, true));
        assertThat(cache.tableVersion()).isEqualTo(3);
        assertThat(cache.build("fig1", dag)).isInstanceOf(LocalPlacer.class);
        assertThat(factory.opsSeen).as("the factory is not asked").isEmpty();
    }

    @Test
    void underATable_theFactorysPlacer_elseLocal_keptPerModel_andItsJctReported() {
        cache.use(table(7, false));
        RequestPlacer placer = cache.build("fig1", dag);
        assertThat(placer).isEqualTo(new TestingPlacer("fig1"));
        assertThat(cache.get("fig1")).isSameAs(placer);
        assertThat(cache.build("uncovered", dag)).isInstanceOf(LocalPlacer.class);
        assertThat(cache.get("other")).isNull();
        assertThat(jcts).containsEntry("fig1", 0.042).containsKey("uncovered");
        assertThat(cache.isStale()).isFalse();
    }

    @Test
    void use_dropsEveryPlacer() {
        cache.use(table(7, false));
        cache.build("fig1", dag);
        cache.markStale();
        assertThat(cache.isStale()).isTrue();
        assertThat(cache.get("fig1")).as("kept until the next use").isNotNull();
        cache.use(table(8, false));
        assertThat(cache.isStale()).isFalse();
        assertThat(cache.get("fig1")).isNull();
    }

    @Test
    void meanOpsPerSecond_staleOnlyWhenItMovesMoreThanTheTolerance_andTheNextPlacersUseIt() {
        cache.meanOpsPerSecond(1e9);
        cache.use(table(1, false));
        cache.meanOpsPerSecond(1e9 * (1 + PlacerCache.OPS_REBUILD_TOLERANCE / 2));
        assertThat(cache.isStale()).isFalse();
        cache.meanOpsPerSecond(1e9 * (1 + 2 * PlacerCache.OPS_REBUILD_TOLERANCE));
        assertThat(cache.isStale()).isTrue();
        cache.use(table(1, false));
        cache.build("fig1", dag);
        assertThat(factory.opsSeen).containsExactly(1e9 * (1 + 2 * PlacerCache.OPS_REBUILD_TOLERANCE));
    }
}
