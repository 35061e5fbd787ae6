package dev.nona.controller.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.loop.ControlInput;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.StageAssignment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

final class DecisionDigestTest {
    private static final PlacementDecision DECISION = PlacementDecision.of("r1", "m", "acme", 3, false,
            List.of(new StageAssignment("a", "s1"), new StageAssignment("b", "s2"), new StageAssignment("c", "s1")),
            0.25, 1_000);

    private static ControlInput catalog(String... tasks) {
        List<CatalogTask> list = new ArrayList<>();
        for (int i = 0; i < tasks.length; i++) {
            list.add(new CatalogTask(tasks[i], (i + 1) * 1e9));
        }
        return ControlInput.of(ModelCatalogEntry.of("m", new CatalogDag("m", list, List.of())));
    }

    @Test
    void summary_opsPerServerFromTheCatalog() throws Exception {
        try (var h = ProcessFunctionTestHarnesses.forBroadcastProcessFunction(new DecisionDigest(), DecisionDigest.TASK_OPS)) {
            h.processBroadcastElement(catalog("a", "b", "c"), 0);
            h.processElement(DECISION, 0);
            assertThat(h.extractOutputValues()).containsExactly(
                    new DecisionSummary("r1", "m", 3, 0.25, Map.of("s1", 1e9 + 3e9, "s2", 2e9)));
        }
    }

    @Test
    void unknownTaskOrModel_serverLeftOut() throws Exception {
        try (var h = ProcessFunctionTestHarnesses.forBroadcastProcessFunction(new DecisionDigest(), DecisionDigest.TASK_OPS)) {
            h.processElement(DECISION, 0); // no catalog yet
            h.processBroadcastElement(catalog("a", "b"), 0); // c unknown: s1's ops unknown
            h.processElement(DECISION, 0);
            h.processBroadcastElement(ControlInput.removed("m"), 0);
            h.processElement(DECISION, 0);
            assertThat(h.extractOutputValues()).containsExactly(
                    new DecisionSummary("r1", "m", 3, 0.25, Map.of()),
                    new DecisionSummary("r1", "m", 3, 0.25, Map.of("s2", 2e9)),
                    new DecisionSummary("r1", "m", 3, 0.25, Map.of()));
        }
    }
}
