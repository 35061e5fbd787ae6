package dev.nona.dag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

final class PipeDreamImporterTest {
    // Hand-written lines in the profiler's format (not PipeDream data; the real graphs are read from ../shared/dags).
    private static final String FORWARD = "forward_compute_time";
    private static final String INPUT = node("node1", "Input0", "0.000", "6422528.0");
    private static final String CONV = node("node2", "Conv2d(3, 64, kernel_size=(3, 3))", "3.200", "[64.0; 128.0]");
    private static final String RELU = node("node3", "ReLU(inplace)", "0.016", "64.0");

    private static String node(String id, String op, String forwardMs, String activation) {
        return id + " -- " + op + " -- " + FORWARD + "=" + forwardMs + ", backward_compute_time=0.1, activation_size="
                + activation + ", parameter_size=0.000";
    }

    private static ModelDag parse(String... lines) {
        return PipeDreamImporter.parse("m", List.of(lines), PipeDreamConversion.defaults());
    }

    @Test
    void parse_workedExample_convertsPerRequest() {
        ModelDag dag = parse(INPUT, CONV, RELU, "\tnode1 -- node2", "\tnode2 -- node3");

        // ops = 3.2 ms / 1000 / 64 * 4e12 ops/s = 2.0e8; bytes = 6422528 / 64 = 100352
        assertThat(dag.tasks()).extracting(Task::id).containsExactly("node1", "node2", "node3");
        assertThat(dag.tasks().get(1).ops()).isCloseTo(2.0e8, within(1e-3));
        assertThat(dag.tasks().get(2).ops()).isCloseTo(1.0e6, within(1e-6));
        assertThat(dag.edges().get(0)).isEqualTo(new Edge("node1", "node2", 100352.0));
        // a list of activation sizes (several outputs) is summed: (64 + 128) / 64 = 3
        assertThat(dag.edges().get(1).bytes()).isCloseTo(3.0, within(1e-12));
    }

    @Test
    void parse_otherConversion_scalesLinearly() {
        ModelDag dag = PipeDreamImporter.parse("m", List.of(INPUT, CONV, "\tnode1 -- node2"),
                new PipeDreamConversion(1.0e12, 32));

        assertThat(dag.tasks().get(1).ops()).isCloseTo(3.2e-3 / 32 * 1.0e12, within(1e-3));
        assertThat(dag.edges().get(0).bytes()).isCloseTo(6422528.0 / 32, within(1e-9));
    }

    @Test
    void read_alexnetFile_hasItsNodesAndEdges() throws Exception {
        ModelDag dag = PipeDreamImporter.read(SharedDags.pipedream("alexnet"));

        assertThat(dag.name()).isEqualTo("alexnet");
        assertThat(dag.tasks()).hasSize(23);
        assertThat(dag.edges()).hasSize(23);
    }

    @Test
    void parse_edgeToUnknownNode_namesLineAndNode() {
        assertThatThrownBy(() -> parse(INPUT, CONV, "\tnode1 -- node2", "\tnode2 -- node9"))
                .isInstanceOf(DagValidationException.class)
                .hasMessage("line 4: edge 'node2 -- node9': 'node9' is not a node of the graph");
    }

    @Test
    void parse_selfLoop_namesLine() {
        assertThatThrownBy(() -> parse(INPUT, "\tnode1 -- node1")).hasMessage("line 2: edge 'node1 -- node1' is a self-loop");
    }

    @Test
    void parse_duplicateEdge_namesLine() {
        assertThatThrownBy(() -> parse(INPUT, CONV, "\tnode1 -- node2", "\tnode1 -- node2"))
                .hasMessage("line 4: duplicate edge 'node1 -- node2'");
    }

    @Test
    void parse_duplicateNode_namesBothLines() {
        assertThatThrownBy(() -> parse(INPUT, CONV, INPUT)).hasMessage("line 3: duplicate node id 'node1' (first on line 1)");
    }

    @Test
    void parse_negativeTime_namesLineAndValue() {
        assertThatThrownBy(() -> parse(CONV.replace(FORWARD + "=3.200", FORWARD + "=-1")))
                .hasMessage("line 1: forward_compute_time (-1) must be finite and >= 0");
    }

    @Test
    void parse_nanActivation_namesLineAndValue() {
        assertThatThrownBy(() -> parse(INPUT, RELU.replace("activation_size=64.0", "activation_size=NaN")))
                .hasMessage("line 2: activation_size (NaN) must be finite and >= 0");
    }

    @Test
    void parse_notANumber_namesLineAndValue() {
        assertThatThrownBy(() -> parse(RELU.replace(FORWARD + "=0.016", FORWARD + "=fast")))
                .hasMessage("line 1: forward_compute_time 'fast' is not a number");
    }

    @Test
    void parse_missingAttribute_namesLineAndAttribute() {
        assertThatThrownBy(() -> parse("node1 -- Input0 -- backward_compute_time=0.0, activation_size=1.0"))
                .hasMessage("line 1: missing attribute forward_compute_time");
    }

    @Test
    void parse_malformedLines_nameTheLine() {
        assertThatThrownBy(() -> parse(INPUT, "node2 has no separators")).hasMessageStartingWith("line 2: node line is not");
        assertThatThrownBy(() -> parse(INPUT, "\tnode1 node2")).hasMessage("line 2: edge line 'node1 node2' is not '<from> -- <to>'");
    }

    @Test
    void parse_noNodes_isEmptyGraphError() {
        assertThatThrownBy(() -> parse("", "  ")).hasMessage("pipedream graph 'm': no node lines (empty graph)");
    }

    @Test
    void parse_cycle_namesIt() {
        assertThatThrownBy(() -> parse(INPUT, CONV, RELU, "\tnode1 -- node2", "\tnode2 -- node3", "\tnode3 -- node2"))
                .hasMessage("lines 5, 6: the edges form a cycle: node2 -> node3 -> node2");
    }

    @Test
    void conversion_badArguments_rejectedWithValue() {
        assertThatThrownBy(() -> new PipeDreamConversion(0, 64)).hasMessage("referenceOpsPerSecond (0.0) must be finite and > 0");
        assertThatThrownBy(() -> new PipeDreamConversion(1e12, 0)).hasMessage("batchSize (0) must be >= 1");
    }
}
