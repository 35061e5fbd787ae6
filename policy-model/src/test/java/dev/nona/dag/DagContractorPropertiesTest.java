package dev.nona.dag;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.jgrapht.traverse.TopologicalOrderIterator;

/** Properties of Technique 1 on random DAGs (fixed jqwik seed). */
final class DagContractorPropertiesTest {

    @Property(tries = 300, seed = "20261123")
    void contract_isIdempotent(@ForAll @LongRange(min = 0, max = 1_000_000) long seed,
            @ForAll @IntRange(min = 1, max = 30) int n, @ForAll @DoubleRange(min = 0.02, max = 0.5) double p) {
        ContractedDag once = DagContractor.contract(RandomDags.random(seed, n, p));

        ContractedDag twice = DagContractor.contract(RandomDags.asModel(once));

        assertThat(twice.nodes()).extracting(ContractedNode::id).containsExactlyElementsOf(
                once.nodes().stream().map(ContractedNode::id).toList());
        assertThat(twice.edges()).containsExactlyInAnyOrderElementsOf(once.edges());
    }

    @Property(tries = 300, seed = "20261123")
    void contract_keepsExactlyTheDependenciesBetweenTasksOfDifferentNodes(
            @ForAll @LongRange(min = 0, max = 1_000_000) long seed,
            @ForAll @IntRange(min = 1, max = 30) int n, @ForAll @DoubleRange(min = 0.02, max = 0.5) double p) {
        ModelDag dag = RandomDags.random(seed, n, p);
        ContractedDag contracted = DagContractor.contract(dag);
        Map<String, Set<String>> original = RandomDags.reachability(dag);
        Map<String, Set<String>> after = RandomDags.reachability(
                contracted.nodes().stream().map(ContractedNode::id).toList(), contracted.edges());
        Map<String, String> nodeOf = contracted.nodeOfTask();

        for (Task x : dag.tasks()) {
            for (Task y : dag.tasks()) {
                String nx = nodeOf.get(x.id());
                String ny = nodeOf.get(y.id());
                if (!nx.equals(ny)) {
                    assertThat(after.get(nx).contains(ny))
                            .as("%s (in %s) -> %s (in %s)", x.id(), nx, y.id(), ny)
                            .isEqualTo(original.get(x.id()).contains(y.id()));
                }
            }
        }
    }

    @Property(tries = 300, seed = "20261123")
    void contract_neverMergesTasksThatCouldRunInParallel(@ForAll @LongRange(min = 0, max = 1_000_000) long seed,
            @ForAll @IntRange(min = 1, max = 30) int n, @ForAll @DoubleRange(min = 0.02, max = 0.5) double p) {
        ModelDag dag = RandomDags.random(seed, n, p);
        Map<String, Set<String>> reach = RandomDags.reachability(dag);

        for (ContractedNode node : DagContractor.contract(dag).nodes()) {
            List<String> tasks = node.originalTasks();
            for (int i = 0; i < tasks.size(); i++) {
                for (int j = i + 1; j < tasks.size(); j++) {
                    assertThat(reach.get(tasks.get(i))).as("%s before %s in %s", tasks.get(i), tasks.get(j), node.id())
                            .contains(tasks.get(j));
                }
            }
        }
    }

    @Property(tries = 200, seed = "20261123")
    void contract_partitionsTheTasksAndAddsUpTheirOps(@ForAll @LongRange(min = 0, max = 1_000_000) long seed,
            @ForAll @IntRange(min = 1, max = 30) int n, @ForAll @DoubleRange(min = 0.02, max = 0.5) double p) {
        ModelDag dag = RandomDags.random(seed, n, p);
        ContractedDag contracted = DagContractor.contract(dag);
        Map<String, Double> ops = new HashMap<>();
        dag.tasks().forEach(t -> ops.put(t.id(), t.ops()));

        assertThat(contracted.nodes().stream().flatMap(c -> c.originalTasks().stream()))
                .containsExactlyInAnyOrderElementsOf(ops.keySet());
        for (ContractedNode node : contracted.nodes()) {
            assertThat(node.ops()).isEqualTo(node.originalTasks().stream().mapToDouble(ops::get).sum());
        }
    }

    @Property(tries = 300, seed = "20261123")
    void contract_matchesTheNaiveRescanningReference(@ForAll @LongRange(min = 0, max = 1_000_000) long seed,
            @ForAll @IntRange(min = 1, max = 30) int n, @ForAll @DoubleRange(min = 0.02, max = 0.5) double p) {
        ModelDag dag = RandomDags.random(seed, n, p);
        List<String> order = new ArrayList<>();
        new TopologicalOrderIterator<>(DagValidator.toGraph(dag), Comparator.comparing(
                (String id) -> dag.tasks().indexOf(dag.tasks().stream().filter(t -> t.id().equals(id)).findFirst().orElseThrow())))
                .forEachRemaining(order::add);

        List<List<String>> expected = NaiveContraction.groups(dag, order);

        assertThat(DagContractor.contract(dag).nodes()).extracting(ContractedNode::originalTasks).containsExactlyElementsOf(expected);
    }
}
