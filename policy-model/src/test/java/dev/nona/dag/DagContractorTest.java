package dev.nona.dag;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

final class DagContractorTest {

    @Test
    void contract_chain_becomesOneNodeWithSummedOps() {
        ContractedDag dag = DagContractor.contract(Dags.of("a>b", "b>c", "c>d"));

        assertThat(dag.nodes()).containsExactly(new ContractedNode("a", 4.0, List.of("a", "b", "c", "d"), false));
        assertThat(dag.edges()).isEmpty();
    }

    @Test
    void contract_parallelBranches_keepsBothBranches() {
        ContractedDag dag = DagContractor.contract(Dags.of("s>a1", "a1>a2", "a2>t", "s>b1", "b1>b2", "b2>t"));

        assertThat(dag.nodes()).extracting(ContractedNode::id).containsExactly("s", "a1", "b1", "t");
        assertThat(dag.node("a1").originalTasks()).containsExactly("a1", "a2");
        assertThat(dag.node("b1").originalTasks()).containsExactly("b1", "b2");
        assertThat(dag.edges()).extracting(e -> e.from() + ">" + e.to()).containsExactly("s>a1", "s>b1", "a1>t", "b1>t");
    }

    @Test
    void contract_edgeWhoseProducerFeedsAnotherBranch_isNotContracted() {
        // contracting a>b would make c wait for b: a dependency the graph does not have (Nona, Fig. 2a, nodes 4, 5, 8)
        ContractedDag dag = DagContractor.contract(Dags.of("a>b", "a>c", "b>d", "c>d"));

        assertThat(dag.nodes()).extracting(ContractedNode::id).containsExactly("a", "b", "c", "d");
    }

    @Test
    void contract_shortcutEdge_mergesTheWholeSequence() {
        // a>b>c plus a>c: c needs both a and b, b needs a: nothing can run in parallel
        ContractedDag dag = DagContractor.contract(Dags.of("a>b", "a>c", "b>c"));

        assertThat(dag.nodes()).containsExactly(new ContractedNode("a", 3.0, List.of("a", "b", "c"), false));
    }

    @Test
    void contract_parallelEdgesIntoMergedNode_sumTheirBytes() {
        ModelDag dag = new ModelDag("m",
                List.of(new Task("x", 1), new Task("y", 1), new Task("a", 2), new Task("b", 3), new Task("w", 1), new Task("z", 1)),
                List.of(new Edge("x", "a", 10), new Edge("y", "a", 1), new Edge("x", "b", 20), new Edge("a", "b", 99),
                        new Edge("a", "z", 100), new Edge("b", "z", 200), new Edge("w", "z", 7)));

        ContractedDag contracted = DagContractor.contract(dag);

        assertThat(contracted.node("a")).isEqualTo(new ContractedNode("a", 5.0, List.of("a", "b"), false));
        assertThat(contracted.edges()).containsExactlyInAnyOrder(
                new Edge("x", "a", 30), new Edge("y", "a", 1), new Edge("a", "z", 300), new Edge("w", "z", 7));
    }

    @Test
    void contract_mapsEveryTaskToItsNode() {
        ContractedDag dag = DagContractor.contract(Dags.of("s>a1", "a1>a2", "a2>t", "s>b1", "b1>t"));

        assertThat(dag.nodeOfTask()).containsEntry("a2", "a1").containsEntry("a1", "a1").containsEntry("b1", "b1")
                .hasSize(5);
    }

    @Test
    void contract_inputOrderOfTasks_doesNotChangeTheResult() {
        ModelDag dag = Dags.of("s>a1", "a1>a2", "a2>t", "s>b1", "b1>b2", "b2>t", "s>c", "c>t");
        List<Task> reversed = new ArrayList<>(dag.tasks());
        Collections.reverse(reversed);

        ContractedDag forward = DagContractor.contract(dag);
        ContractedDag backward = DagContractor.contract(new ModelDag("m", reversed, dag.edges()));

        assertThat(backward.nodes().stream().map(n -> n.originalTasks()).toList())
                .containsExactlyInAnyOrderElementsOf(forward.nodes().stream().map(n -> n.originalTasks()).toList());
    }
}
