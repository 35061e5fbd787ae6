package dev.nona.dag;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The facade on every PipeDream graph, including those with several sources and sinks (GNMT, Inception). The
 * four CNNs come from the built-in zoo (edge for edge PipeDream's graphs); the others need the PipeDream files
 * and are skipped without them (see {@link SharedDags}).
 */
final class DagAnalysisTest {

    @ParameterizedTest
    @ValueSource(strings = {"alexnet", "vgg16", "resnet18", "resnet50", "densenet121", "inception_v3", "gnmt", "squeezenet1_0"})
    void analyse_pipedreamModel_coversEveryTaskExactlyOnce(String model) {
        ModelDag dag = SharedDags.zooOrPipedream(model);

        DagAnalysis analysis = DagAnalysis.analyse(dag);

        List<String> covered = analysis.contracted().nodes().stream().flatMap(n -> n.originalTasks().stream()).toList();
        assertThat(covered).hasSameSizeAs(dag.tasks())
                .containsExactlyInAnyOrderElementsOf(dag.tasks().stream().map(Task::id).toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"resnet50", "inception_v3", "gnmt", "densenet121"})
    void analyse_pipedreamModel_tripletsPartitionEachSubgraphWithinTheBound(String model) {
        EnumerationBound bound = EnumerationBound.defaults();

        DagAnalysis analysis = DagAnalysis.analyse(SharedDags.zooOrPipedream(model), bound);

        assertThat(analysis.triplets()).hasSameSizeAs(analysis.decomposition().subgraphs());
        for (SubgraphTriplets st : analysis.triplets()) {
            Set<String> intermediates = new HashSet<>(st.subgraph().intermediates());
            assertThat((long) st.triplets().size()).isLessThanOrEqualTo(bound.maxTripletsPerSubgraph());
            assertThat(st.capped()).isEqualTo(st.exactCount().compareTo(BigInteger.valueOf(bound.maxTripletsPerSubgraph())) > 0);
            for (Triplet t : st.triplets()) {
                assertThat(t.parts().stream().flatMap(List::stream)).containsExactlyInAnyOrderElementsOf(intermediates);
            }
        }
        assertThat(analysis.variables()).isEqualTo(analysis.triplets().stream().mapToLong(t -> t.triplets().size()).sum());
    }

    @ParameterizedTest
    @ValueSource(strings = {"gnmt", "inception_v3"})
    void analyse_severalSourcesOrSinks_addsVirtualEndsAsRoots(String model) {
        ModelDag dag = SharedDags.zooOrPipedream(model);
        Set<String> consumers = new HashSet<>();
        Set<String> producers = new HashSet<>();
        dag.edges().forEach(e -> {
            producers.add(e.from());
            consumers.add(e.to());
        });
        long sources = dag.tasks().stream().filter(t -> !consumers.contains(t.id())).count();
        long sinks = dag.tasks().stream().filter(t -> !producers.contains(t.id())).count();

        Decomposition d = DagAnalysis.analyse(dag).decomposition();

        assertThat(sources > 1 || sinks > 1).isTrue();
        assertThat(d.nodes().get(0).virtual()).isEqualTo(sources > 1);
        assertThat(d.nodes().get(d.nodes().size() - 1).virtual()).isEqualTo(sinks > 1);
        assertThat(d.roots().get(0)).isEqualTo(d.nodes().get(0).id());
        assertThat(d.roots().get(d.roots().size() - 1)).isEqualTo(d.nodes().get(d.nodes().size() - 1).id());
    }

    @ParameterizedTest
    @ValueSource(strings = {"resnet18", "inception_v3", "gnmt"})
    void stats_matchTheAnalysis(String model) {
        DagAnalysis analysis = DagAnalysis.analyse(SharedDags.zooOrPipedream(model));

        DagStats stats = analysis.stats();

        assertThat(stats.contractedTasks()).isEqualTo(analysis.contracted().nodes().size());
        assertThat(stats.contractedEdges()).isEqualTo(analysis.contracted().edges().size());
        assertThat(stats.subgraphs()).isEqualTo(analysis.decomposition().nonTrivialSubgraphs().size());
        assertThat(stats.variables()).isEqualTo(analysis.variables());
        assertThat(stats.capped()).isEqualTo(analysis.capped());
    }
}
