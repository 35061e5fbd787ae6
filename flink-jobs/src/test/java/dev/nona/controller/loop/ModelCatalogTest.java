package dev.nona.controller.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.TestingCluster;
import dev.nona.controller.optimize.NonaTableSolver;
import dev.nona.topics.record.ControllerEventType;
import java.time.Duration;
import org.junit.jupiter.api.Test;

final class ModelCatalogTest {
    private final TestingLoop loop = new TestingLoop(TestingLoop.settings(Duration.ofMinutes(10)),
            new NonaTableSolver(false));

    @Test
    void addedReplacedAndRemovedModels_areChanges_andAnEqualEntryIsNot() throws Exception {
        loop.catalog.put(TestingCluster.entry("fig1", TestingCluster.figure1()), loop.io);
        loop.catalog.put(TestingCluster.entry("fig1", TestingCluster.figure1()), loop.io);
        loop.catalog.put(TestingCluster.entry("chain", TestingCluster.chain()), loop.io);
        loop.catalog.put(TestingCluster.entry("chain", TestingCluster.figure1()), loop.io);
        loop.catalog.remove("fig1", loop.io);
        loop.catalog.remove("fig1", loop.io);
        assertThat(loop.io.events(ControllerEventType.CATALOG_UPDATED)).extracting(e -> e.details().get("change"))
                .containsExactly("catalog: model added fig1", "catalog: model added chain",
                        "catalog: model replaced chain", "catalog: model removed fig1");
        assertThat(loop.io.events.get(0).details()).containsEntry("model", "fig1").containsEntry("tasks", 4);
        assertThat(loop.drift.value().pendingCause()).isEqualTo("catalog: model added fig1; "
                + "catalog: model added chain; catalog: model replaced chain; catalog: model removed fig1");
        assertThat(loop.catalog.models()).containsExactly("chain");
        assertThat(loop.catalog.dags()).containsOnlyKeys("chain");
    }
}
