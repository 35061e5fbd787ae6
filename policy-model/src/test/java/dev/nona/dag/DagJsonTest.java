package dev.nona.dag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

final class DagJsonTest {
    private static final String VALID = """
            {"name": "m", "tasks": [{"id": "t1", "ops": 1.0e6}, {"id": "t2", "ops": 2}],
             "edges": [{"from": "t1", "to": "t2", "bytes": 1.0e8}]}""";

    @Test
    void read_contractExample_givesTasksAndEdges() {
        ModelDag dag = DagJson.read(VALID);

        assertThat(dag).isEqualTo(new ModelDag("m", List.of(new Task("t1", 1.0e6), new Task("t2", 2)),
                List.of(new Edge("t1", "t2", 1.0e8))));
    }

    @Test
    void writeThenRead_roundTripsExactly() {
        ModelDag dag = new ModelDag("rt", List.of(new Task("a", 0.1), new Task("b", 3.5e12)),
                List.of(new Edge("a", "b", 12345.678)));

        assertThat(DagJson.read(DagJson.write(dag))).isEqualTo(dag);
    }

    @Test
    void read_unknownTopLevelField_namesIt() {
        assertThatThrownBy(() -> DagJson.read("{\"name\":\"m\",\"tasks\":[],\"edges\":[],\"colour\":1}"))
                .isInstanceOf(DagValidationException.class)
                .hasMessage("unknown field 'colour'");
    }

    @Test
    void read_unknownTaskField_namesPathAndField() {
        String json = "{\"name\":\"m\",\"tasks\":[{\"id\":\"a\",\"ops\":1},{\"id\":\"b\",\"ops\":1,\"flops\":2}],\"edges\":[]}";

        assertThatThrownBy(() -> DagJson.read(json)).hasMessage("tasks[1]: unknown field 'flops'");
    }

    @Test
    void read_missingOps_namesField() {
        assertThatThrownBy(() -> DagJson.read("{\"name\":\"m\",\"tasks\":[{\"id\":\"a\"}],\"edges\":[]}"))
                .hasMessage("tasks[0].ops: missing (required)");
    }

    @Test
    void read_missingEdges_namesField() {
        assertThatThrownBy(() -> DagJson.read("{\"name\":\"m\",\"tasks\":[{\"id\":\"a\",\"ops\":1}]}"))
                .hasMessage("edges: missing (required)");
    }

    @Test
    void read_nanOps_namesTaskAndValue() {
        assertThatThrownBy(() -> DagJson.read("{\"name\":\"m\",\"tasks\":[{\"id\":\"a\",\"ops\":NaN}],\"edges\":[]}"))
                .hasMessage("tasks[0]: task 'a': ops (NaN) must be finite and >= 0");
    }

    @Test
    void read_overflowingBytes_isInfiniteAndRejected() {
        String json = "{\"name\":\"m\",\"tasks\":[{\"id\":\"a\",\"ops\":1},{\"id\":\"b\",\"ops\":1}],"
                + "\"edges\":[{\"from\":\"a\",\"to\":\"b\",\"bytes\":1e400}]}";

        assertThatThrownBy(() -> DagJson.read(json)).hasMessage("edges[0]: edge a->b: bytes (Infinity) must be finite and >= 0");
    }

    @Test
    void read_negativeBytes_namesEdgeAndValue() {
        String json = "{\"name\":\"m\",\"tasks\":[{\"id\":\"a\",\"ops\":1},{\"id\":\"b\",\"ops\":1}],"
                + "\"edges\":[{\"from\":\"a\",\"to\":\"b\",\"bytes\":-5}]}";

        assertThatThrownBy(() -> DagJson.read(json)).hasMessage("edges[0]: edge a->b: bytes (-5.0) must be finite and >= 0");
    }

    @Test
    void read_wrongType_namesField() {
        assertThatThrownBy(() -> DagJson.read("{\"name\":\"m\",\"tasks\":[{\"id\":\"a\",\"ops\":\"lots\"}],\"edges\":[]}"))
                .hasMessageStartingWith("tasks[0].ops: ");
    }

    @Test
    void read_malformedJson_saysSoWithLine() {
        assertThatThrownBy(() -> DagJson.read("{\"name\":\"m\",\n\"tasks\":[")).hasMessageStartingWith("malformed JSON: ")
                .hasMessageContaining("(line 2)");
    }

    @Test
    void read_danglingEdge_isValidated() {
        String json = "{\"name\":\"m\",\"tasks\":[{\"id\":\"a\",\"ops\":1}],\"edges\":[{\"from\":\"a\",\"to\":\"z\",\"bytes\":1}]}";

        assertThatThrownBy(() -> DagJson.read(json)).hasMessage("edges[0].to: 'z' is not a task id");
    }

    @Test
    void read_repeatedField_isRejected() {
        assertThatThrownBy(() -> DagJson.read("{\"name\":\"m\",\"tasks\":[{\"id\":\"a\",\"ops\":1,\"ops\":2}],\"edges\":[]}"))
                .hasMessageStartingWith("malformed JSON: Duplicate field 'ops'");
    }

    @Test
    void read_numberAsString_isNotCoerced() {
        assertThatThrownBy(() -> DagJson.read("{\"name\":\"m\",\"tasks\":[{\"id\":\"a\",\"ops\":\"1e6\"}],\"edges\":[]}"))
                .hasMessageStartingWith("tasks[0].ops: ");
    }

    @Test
    void read_taskSizeBytes_isKeptAndRoundTrips() {
        ModelDag dag = DagJson.read("""
                {"name": "m", "tasks": [{"id": "a", "ops": 1, "sizeBytes": 4.0e8}, {"id": "b", "ops": 2, "sizeBytes": 0}],
                 "edges": [{"from": "a", "to": "b", "bytes": 1}]}""");

        assertThat(dag.tasks()).containsExactly(new Task("a", 1, 4.0e8), new Task("b", 2, 0));
        assertThat(DagJson.read(DagJson.write(dag))).isEqualTo(dag);
    }

    @Test
    void write_taskWithoutSize_writesNoSizeField() {
        assertThat(DagJson.write(DagJson.read(VALID))).doesNotContain("sizeBytes");
    }

    @Test
    void read_negativeOrNonFiniteSize_namesFieldAndValue() {
        assertThatThrownBy(() -> DagJson.read("{\"name\":\"m\",\"tasks\":[{\"id\":\"a\",\"ops\":1,\"sizeBytes\":-3}],\"edges\":[]}"))
                .hasMessage("tasks[0].sizeBytes (-3.0) must be finite and >= 0");
        assertThatThrownBy(() -> DagJson.read("{\"name\":\"m\",\"tasks\":[{\"id\":\"a\",\"ops\":1,\"sizeBytes\":NaN}],\"edges\":[]}"))
                .hasMessage("tasks[0].sizeBytes (NaN) must be finite and >= 0");
        assertThatThrownBy(() -> DagJson.read("{\"name\":\"m\",\"tasks\":[{\"id\":\"a\",\"ops\":1,\"sizeBytes\":1e400}],\"edges\":[]}"))
                .hasMessage("tasks[0].sizeBytes (Infinity) must be finite and >= 0");
    }
}
