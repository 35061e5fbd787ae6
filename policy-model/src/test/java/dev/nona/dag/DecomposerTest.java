package dev.nona.dag;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

final class DecomposerTest {

    private static Decomposition decompose(ModelDag dag) {
        return Decomposer.decompose(DagContractor.contract(dag));
    }

    @Test
    void decompose_twoDiamondsInSeries_cutsAtTheMiddle() {
        Decomposition d = decompose(Dags.of("s>a", "s>b", "a>m", "b>m", "m>c", "m>d", "c>t", "d>t"));

        assertThat(d.roots()).containsExactly("s", "m", "t");
        assertThat(d.subgraphs()).extracting(Subgraph::root, Subgraph::sink, Subgraph::intermediates).containsExactly(
                Tuple.tuple("s", "m", List.of("a", "b")),
                Tuple.tuple("m", "t", List.of("c", "d")));
        assertThat(d.subgraphs().get(0).edges()).extracting(e -> e.from() + ">" + e.to())
                .containsExactlyInAnyOrder("s>a", "s>b", "a>m", "b>m");
        assertThat(d.hasVirtualNodes()).isFalse();
    }

    @Test
    void decompose_edgeJumpingOverANode_makesItNoRoot() {
        // without s>t, m would be on every path
        Decomposition d = decompose(Dags.of("s>a", "s>b", "a>m", "b>m", "m>t", "s>t"));

        assertThat(d.roots()).containsExactly("s", "t");
        assertThat(d.subgraphs().get(0).intermediates()).containsExactly("a", "b", "m");
    }

    @Test
    void decompose_severalSourcesAndSinks_addsVirtualEnds() {
        Decomposition d = decompose(Dags.of("a>c", "b>c", "c>d", "c>e"));

        assertThat(d.roots()).containsExactly(Decomposer.VIRTUAL_SOURCE, "c", Decomposer.VIRTUAL_SINK);
        assertThat(d.nodes().get(0)).isEqualTo(new ContractedNode(Decomposer.VIRTUAL_SOURCE, 0.0, List.of(), true));
        assertThat(d.subgraphs()).extracting(Subgraph::intermediates).containsExactly(List.of("a", "b"), List.of("d", "e"));
        assertThat(d.edges()).contains(new Edge(Decomposer.VIRTUAL_SOURCE, "a", 0.0), new Edge("e", Decomposer.VIRTUAL_SINK, 0.0));
    }

    @Test
    void decompose_virtualIdTaken_picksAnotherId() {
        Decomposition d = decompose(Dags.of("__source__>c", "b>c", "c>d"));

        assertThat(d.roots()).containsExactly("__source___", "c");
        assertThat(d.nodes()).filteredOn(ContractedNode::virtual).extracting(ContractedNode::id).containsExactly("__source___");
    }

    @Test
    void decompose_disconnectedChains_makeOneSubgraphOfTwoBranches() {
        Decomposition d = decompose(Dags.of("a>b", "c>d"));

        assertThat(d.roots()).containsExactly(Decomposer.VIRTUAL_SOURCE, Decomposer.VIRTUAL_SINK);
        assertThat(d.subgraphs()).singleElement().extracting(Subgraph::intermediates).isEqualTo(List.of("a", "c"));
    }

    @Test
    void decompose_singleTask_isOneRootAndNoSubgraph() {
        Decomposition d = decompose(Dags.of("a"));

        assertThat(d.roots()).containsExactly("a");
        assertThat(d.subgraphs()).isEmpty();
    }

    @Test
    void decompose_resnet18_rootsAreOnEveryPath() {
        Decomposition d = decompose(SharedDags.zooOrPipedream("resnet18"));

        assertThat(d.roots()).hasSize(4);
        assertThat(d.nonTrivialSubgraphs()).hasSize(3).allSatisfy(s -> assertThat(s.intermediates()).hasSize(2));
        // removing any root disconnects the source from the sink
        for (String root : d.roots().subList(1, d.roots().size() - 1)) {
            List<Edge> without = d.edges().stream().filter(e -> !e.from().equals(root) && !e.to().equals(root)).toList();
            List<String> ids = d.nodes().stream().map(ContractedNode::id).toList();
            assertThat(RandomDags.reachability(ids, without).get(d.roots().get(0))).doesNotContain(d.roots().get(3));
        }
    }
}
