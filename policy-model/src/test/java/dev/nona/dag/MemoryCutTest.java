package dev.nona.dag;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Cutting a contracted node no server holds into pieces that fit, worked by hand on small chains. */
final class MemoryCutTest {

    /** A chain of tasks with the given bytes (1 op each) and edge bytes between consecutive tasks. */
    private static ModelDag chain(double[] bytes, double[] edgeBytes) {
        List<Task> tasks = new ArrayList<>();
        List<Edge> edges = new ArrayList<>();
        for (int i = 0; i < bytes.length; i++) {
            tasks.add(new Task(String.valueOf((char) ('a' + i)), 1e9, bytes[i]));
            if (i > 0) {
                edges.add(new Edge(String.valueOf((char) ('a' + i - 1)), String.valueOf((char) ('a' + i)), edgeBytes[i - 1]));
            }
        }
        return new ModelDag("chain", tasks, edges);
    }

    private static Map<String, Double> bytes(ModelDag dag) {
        Map<String, Double> out = new HashMap<>();
        dag.tasks().forEach(t -> out.put(t.id(), t.sizeBytes()));
        return out;
    }

    private static List<List<String>> pieces(DagAnalysis a) {
        return a.contracted().nodes().stream().map(ContractedNode::originalTasks).toList();
    }

    @Test
    void aChainNoServerHolds_isCutWhereTheLeastBytesCross_intoOneSubgraph() {
        // 410 bytes, servers of 250: pieces of at most 250 - max(0, 10) = 240 among b..e (100 each). Two pieces of two
        // tasks: cut b,c | d,e (1 byte crosses) rather than anywhere else (50 bytes); three pieces would cross more.
        ModelDag dag = chain(new double[] {0, 100, 100, 100, 100, 10}, new double[] {5, 50, 1, 50, 5});
        assertThat(DagAnalysis.analyse(dag).contracted().nodes()).as("contraction merges the chain").hasSize(1);

        DagAnalysis a = DagAnalysis.analyse(dag, EnumerationBound.defaults(), 0, 250);

        assertThat(pieces(a)).containsExactly(List.of("a"), List.of("b", "c"), List.of("d", "e"), List.of("f"));
        assertThat(a.contracted().nodes()).extracting(ContractedNode::ops).containsExactly(1e9, 2e9, 2e9, 1e9);
        assertThat(a.contracted().edges()).containsExactly(new Edge("a", "b", 5), new Edge("b", "d", 1), new Edge("d", "f", 5));
        assertThat(a.roots()).as("the inner pieces are intermediates, not roots").containsExactly("a", "f");
        Subgraph s = a.decomposition().subgraphs().get(0);
        assertThat(s.intermediates()).containsExactly("b", "d");
        // {b},{d} apart: root with b, sink with d (and the other ways round); {b, d} together: everything on one server
        assertThat(a.triplets().get(0).triplets()).contains(new Triplet(List.of(List.of("b"), List.of("d")), 0, 1));
        // two cuts of two pieces each: where fewer bytes cross
        ModelDag five = chain(new double[] {0, 100, 100, 100, 10}, new double[] {5, 1, 50, 5});
        assertThat(pieces(DagAnalysis.analyse(five, EnumerationBound.defaults(), 0, 250)))
                .containsExactly(List.of("a"), List.of("b"), List.of("c", "d"), List.of("e"));
        ModelDag other = chain(new double[] {0, 100, 100, 100, 10}, new double[] {5, 50, 1, 5});
        assertThat(pieces(DagAnalysis.analyse(other, EnumerationBound.defaults(), 0, 250)))
                .containsExactly(List.of("a"), List.of("b", "c"), List.of("d"), List.of("e"));
    }

    @Test
    void innerTasksThatFitOnePiece_areStillCutInTwo_soTheRootAndTheSinkCanRunApart() {
        // 140 bytes, servers of 100: b and c (10 each) fit one piece of 100 - 60 = 40, but a with it and d with it
        // would be one server of 140; two pieces let a run with b and d with c
        ModelDag dag = chain(new double[] {60, 10, 10, 60}, new double[] {1, 2, 3});

        DagAnalysis a = DagAnalysis.analyse(dag, EnumerationBound.defaults(), 0, 100);

        assertThat(pieces(a)).containsExactly(List.of("a"), List.of("b"), List.of("c"), List.of("d"));
        assertThat(a.roots()).containsExactly("a", "d");
    }

    @Test
    void whatCannotBeLaidOut_staysWhole() {
        // three tasks: the root and the sink each run with the one inner piece, so all three on one server
        ModelDag three = chain(new double[] {60, 60, 60}, new double[] {1, 1});
        assertThat(MemoryCut.cut(three, DagContractor.contract(three), bytes(three), 100).notRoots()).isEmpty();
        assertThat(pieces(DagAnalysis.analyse(three, EnumerationBound.defaults(), 0, 100))).containsExactly(List.of("a", "b", "c"));
        // an inner task larger than the memory less the larger end
        ModelDag wide = chain(new double[] {30, 80, 10, 10}, new double[] {1, 1, 1});
        assertThat(pieces(DagAnalysis.analyse(wide, EnumerationBound.defaults(), 0, 100))).hasSize(1);
    }

    @Test
    void aNodeThatFits_orUnboundedMemory_leavesTheAnalysisAsItWas() {
        ModelDag dag = chain(new double[] {0, 100, 100, 100, 100, 10}, new double[] {5, 50, 1, 50, 5});
        DagAnalysis plain = DagAnalysis.analyse(dag);
        assertThat(DagAnalysis.analyse(dag, EnumerationBound.defaults(), 0, Double.POSITIVE_INFINITY)).isEqualTo(plain);
        assertThat(DagAnalysis.analyse(dag, EnumerationBound.defaults(), 0, 410)).isEqualTo(plain);
        MemoryCut.Result r = MemoryCut.cut(dag, plain.contracted(), bytes(dag), 410);
        assertThat(r.contracted()).isSameAs(plain.contracted());
        assertThat(r.notRoots()).isEqualTo(Set.of());
    }

    @Test
    void aCutNodeInsideTheGraph_keepsEveryEdge_andItsNeighboursRoots() {
        // x -> [a b c d e f] -> y with x and y small: the chain is one node between roots x and y
        List<Task> tasks = new ArrayList<>(List.of(new Task("x", 1e9, 1)));
        double[] b = {1, 100, 100, 100, 100, 1};
        for (int i = 0; i < b.length; i++) {
            tasks.add(new Task(String.valueOf((char) ('a' + i)), 1e9, b[i]));
        }
        tasks.add(new Task("y", 1e9, 1));
        List<Edge> edges = new ArrayList<>(List.of(new Edge("x", "a", 7)));
        for (int i = 1; i < b.length; i++) {
            edges.add(new Edge(String.valueOf((char) ('a' + i - 1)), String.valueOf((char) ('a' + i)), i == 3 ? 1 : 9));
        }
        edges.add(new Edge("f", "y", 8));
        // x -> a -> ... is a chain too: contraction merges everything, so make x and y branch points
        tasks.add(new Task("z", 1e9, 1));
        edges.add(new Edge("x", "z", 3));
        edges.add(new Edge("z", "y", 4));
        ModelDag dag = new ModelDag("inside", tasks, edges);

        DagAnalysis a = DagAnalysis.analyse(dag, EnumerationBound.defaults(), 0, 250);

        assertThat(pieces(a)).contains(List.of("a"), List.of("b", "c"), List.of("d", "e"), List.of("f"));
        double crossing = a.contracted().edges().stream().mapToDouble(Edge::bytes).sum();
        assertThat(crossing).as("every edge between nodes kept, the one inside a piece dropped")
                .isEqualTo(7 + 9 + 1 + 9 + 8 + 3 + 4);
        List<String> covered = a.contracted().nodes().stream().flatMap(n -> n.originalTasks().stream()).toList();
        assertThat(covered).containsExactlyInAnyOrderElementsOf(dag.tasks().stream().map(Task::id).toList());
        assertThat(a.roots()).startsWith("x").endsWith("y");
    }
}
