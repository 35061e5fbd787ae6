package dev.nona.dag;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/** Decomposition on random DAGs, against the definition (fixed jqwik seed). */
final class DecomposerPropertiesTest {

    @Property(tries = 300, seed = "20261123")
    void decompose_rootsAreExactlyTheNodesOnEveryPath(@ForAll @LongRange(min = 0, max = 1_000_000) long seed,
            @ForAll @IntRange(min = 1, max = 25) int n, @ForAll @DoubleRange(min = 0.02, max = 0.5) double p) {
        Decomposition d = Decomposer.decompose(DagContractor.contract(RandomDags.random(seed, n, p)));
        List<String> ids = d.nodes().stream().map(ContractedNode::id).toList();
        String source = ids.get(0);
        String sink = ids.get(ids.size() - 1);

        for (String v : ids) {
            boolean onEveryPath = v.equals(source) || v.equals(sink)
                    || !RandomDags.reachability(ids, d.edges().stream()
                            .filter(e -> !e.from().equals(v) && !e.to().equals(v)).toList()).get(source).contains(sink);
            assertThat(d.roots().contains(v)).as("node %s", v).isEqualTo(onEveryPath);
        }
    }

    @Property(tries = 300, seed = "20261123")
    void decompose_subgraphsCoverNodesAndEdgesOnce(@ForAll @LongRange(min = 0, max = 1_000_000) long seed,
            @ForAll @IntRange(min = 1, max = 25) int n, @ForAll @DoubleRange(min = 0.02, max = 0.5) double p) {
        Decomposition d = Decomposer.decompose(DagContractor.contract(RandomDags.random(seed, n, p)));

        List<String> covered = new ArrayList<>(d.roots());
        d.subgraphs().forEach(s -> covered.addAll(s.intermediates()));
        assertThat(covered).containsExactlyInAnyOrderElementsOf(d.nodes().stream().map(ContractedNode::id).toList());
        assertThat(d.subgraphs().stream().flatMap(s -> s.edges().stream()).toList())
                .containsExactlyInAnyOrderElementsOf(d.edges());
        for (int i = 0; i < d.subgraphs().size(); i++) {
            assertThat(d.subgraphs().get(i).root()).isEqualTo(d.roots().get(i));
            assertThat(d.subgraphs().get(i).sink()).isEqualTo(d.roots().get(i + 1));
        }
    }
}
