package dev.nona.topics.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class RecordConstructorTest {

    @Test
    void constructor_unknownSchemaVersion_namesFieldAndValue() {
        assertThatThrownBy(() -> new InferenceRequest(2, "r", "m", "t", 1L, null))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessage("field 'schemaVersion' (2) is not supported (supported: 1)");
    }

    @Test
    void constructor_nanRate_isRejected() {
        assertThatThrownBy(() -> ServerTelemetry.of("s", true, Double.NaN, 0, List.of(), null, 1L))
                .hasMessage("field 'opsPerSecond' (NaN) must be finite and >= 0");
        assertThatThrownBy(() -> ServerTelemetry.of("s", true, 1, 0, List.of(), Double.NaN, 1L))
                .hasMessage("field 'linkBitsPerSecond' (NaN) must be finite and > 0");
    }

    @Test
    void freeMemory_isCheckedAgainstTheMemory_andKeptByTheWithers() {
        ServerTelemetry t = ServerTelemetry.of("s", true, 1, 0, List.of(), null, 1L).withClass("a", 8.0);
        assertThatThrownBy(() -> t.withFreeMemoryBytes(8.5))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessage("field 'freeMemoryBytes' (8.5) must not be above field 'memoryBytes' (8.0)");
        assertThatThrownBy(() -> t.withFreeMemoryBytes(Double.NaN))
                .hasMessage("field 'freeMemoryBytes' (NaN) must be finite and >= 0");
        ServerTelemetry full = t.withFreeMemoryBytes(8.0);
        assertThat(full.withOpsPerSecond(2).freeMemoryBytes()).isEqualTo(8.0);
        assertThat(full.withClass("b", 9.0).freeMemoryBytes()).isEqualTo(8.0);
        assertThatThrownBy(() -> full.withClass("b", 4.0))
                .hasMessage("field 'freeMemoryBytes' (8.0) must not be above field 'memoryBytes' (4.0)");
        assertThat(t.freeMemoryBytes()).isNull();
        assertThat(ServerTelemetry.of("s", true, 1, 0, List.of(), null, 1L).withFreeMemoryBytes(5.0e9).freeMemoryBytes())
                .isEqualTo(5.0e9);
    }

    @Test
    void constructor_nanSizes_areRejected() {
        assertThatThrownBy(() -> new CatalogEdge("a", "b", Double.NaN))
                .hasMessage("field 'bytes' (NaN) must be finite and >= 0");
        assertThatThrownBy(() -> new CatalogTask("a", Double.POSITIVE_INFINITY))
                .hasMessage("field 'ops' (Infinity) must be finite and >= 0");
        assertThatThrownBy(() -> PlacementDecision.of("r", "m", "t", 1, false, List.of(new StageAssignment("a", "s")),
                Double.NaN, 1L))
                .hasMessage("field 'predictedJctSeconds' (NaN) must be finite and >= 0");
    }

    @Test
    void constructor_copiesLists_soCallerChangesDoNotLeakIn() {
        List<CachedModel> cached = new ArrayList<>(List.of(new CachedModel("a", 1)));
        ServerTelemetry telemetry = ServerTelemetry.of("s", true, 1, 0, cached, null, 1L);

        cached.add(new CachedModel("b", 2));

        assertThat(telemetry.cachedModels()).containsExactly(new CachedModel("a", 1));
        assertThatThrownBy(() -> telemetry.cachedModels().add(new CachedModel("c", 3)))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void controllerEvent_details_areSortedCopiedAndScalarOnly() {
        Map<String, Object> details = new HashMap<>();
        details.put("z", 1);
        details.put("a", "x");
        ControllerEvent event = ControllerEvent.of(ControllerEventType.DRIFT_DETECTED, 5L, details);

        details.put("b", true);

        assertThat(event.details().keySet()).containsExactly("a", "z");
        assertThatThrownBy(() -> ControllerEvent.of(ControllerEventType.FALLBACK, 1L, Map.of("rho", Double.NaN)))
                .hasMessage("field 'details.rho' (NaN) must be finite");
        Map<String, Object> withNull = new HashMap<>();
        withNull.put("k", null);
        assertThatThrownBy(() -> ControllerEvent.of(ControllerEventType.FALLBACK, 1L, withNull))
                .hasMessage("field 'details.k' (null) must be a string, a number or a boolean");
    }

    @Test
    void placementTable_textThatIsNotAnObject_isRejected() {
        assertThatThrownBy(() -> PlacementTableRecord.of("t", 1, 1, "[1,2]"))
                .hasMessage("field 'table' must be a JSON object");
        assertThatThrownBy(() -> PlacementTableRecord.of("t", 1, 1, "{\"a\":"))
                .hasMessageStartingWith("field 'table' is not valid JSON");
    }

    @Test
    void catalogDag_diamond_isAccepted() {
        CatalogDag dag = new CatalogDag("d", List.of(new CatalogTask("a", 1), new CatalogTask("b", 1),
                new CatalogTask("c", 1), new CatalogTask("d", 1)),
                List.of(new CatalogEdge("a", "b", 1), new CatalogEdge("a", "c", 1), new CatalogEdge("b", "d", 1),
                        new CatalogEdge("c", "d", 1)));

        assertThat(dag.tasks()).hasSize(4);
        assertThat(dag.edges()).hasSize(4);
    }
}
