package dev.nona.controller.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.calibration.PartObservation;
import dev.nona.topics.record.OutcomePart;
import dev.nona.topics.record.PlacementOutcome;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class OutcomePartsTest {
    private static final DecisionSummary DECISION = new DecisionSummary("r1", "m", 1, 0.5, Map.of("s1", 4e12, "s2", 1e12));

    @Test
    void partsWithoutTasks_takeTheDecisionsOpsOnTheirServer() {
        PlacementOutcome o = PlacementOutcome.ok("r1", "m", 1, List.of(
                new OutcomePart("s1", 1_000, 3_500, true, null, 2.0), OutcomePart.of("s2", 3_600, 4_000, false)),
                0, 4_000, 3.0);
        assertThat(OutcomeParts.of(DECISION, o, null)).containsExactly(
                new PartObservation("s1", 4e12, 2.5, 2.0, true), new PartObservation("s2", 1e12, 0.4, null, false));
    }

    @Test
    void twoPartsOnOneServerWithoutTasks_opsUnknown_withTasks_fromTheCatalog() {
        PlacementOutcome unlisted = PlacementOutcome.ok("r1", "m", 1, List.of(OutcomePart.of("s1", 0, 100, false),
                OutcomePart.of("s2", 100, 200, false), OutcomePart.of("s1", 200, 300, false)), 0, 300, 0.3);
        List<PartObservation> parts = OutcomeParts.of(DECISION, unlisted, Map.of("a", 1e12));
        assertThat(parts.get(0).ops()).isNaN();
        assertThat(parts.get(1).ops()).isEqualTo(1e12);
        assertThat(parts.get(2).ops()).isNaN();

        PlacementOutcome listed = PlacementOutcome.ok("r1", "m", 1, List.of(
                new OutcomePart("s1", 0, 100, false, List.of("a"), null),
                new OutcomePart("s1", 200, 300, false, List.of("a", "unknown"), null)), 0, 300, 0.3);
        List<PartObservation> fromCatalog = OutcomeParts.of(DECISION, listed, Map.of("a", 1e12));
        assertThat(fromCatalog.get(0).ops()).isEqualTo(1e12);
        assertThat(fromCatalog.get(1).ops()).as("a task the catalog does not know").isNaN();
    }
}
