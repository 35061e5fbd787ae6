package dev.nona.optimize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.dag.ContractedNode;
import dev.nona.dag.Edge;
import dev.nona.dag.Subgraph;
import dev.nona.dag.Triplet;
import dev.nona.queueing.ServerWaits;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** Eqs. (X)-(XI) of Nona and their generalisation. */
final class CostPropagationTest {
    private static final double NU = 1e12;
    private static final double MU = 1e10;

    @Property(tries = 60, seed = "31")
    void reduction_forkJoin_equalsPaperEquationsXandXI(@ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
        Random r = new Random(seed);
        RandomSubgraph g = RandomSubgraph.draw(r, 1 + r.nextInt(4), 1e8, false);
        Subgraph sg = g.subgraph();
        Map<String, ContractedNode> nodes = g.nodes();
        List<String> inter = sg.intermediates();
        double phi = 1e-3 * r.nextDouble();
        for (Triplet t : TestingTriplets.enumerate(inter)) {
            ChoiceCost c = ChoiceCost.compile(sg, t, nodes, NU, MU, ServerWaits.NONE);
            double paper = paperKappaWithoutSink(sg, t, nodes, phi);
            assertThat(c.delay(phi, ServerWaits.NONE)).isCloseTo(paper, within(1e-15));
            assertThat(c.delay(phi)).isCloseTo(paper, within(1e-15));
        }
    }

    /**
     * A direct transcription of Eq. (X) (intended meaning, docs/optimizer.md, "The cost model") maximised over parts as in (XI):
     * chi_i = sum over tasks of p/nu + sum of c over root inputs if i != k + sum of c over sink outputs if i != l.
     */
    private static double paperKappaWithoutSink(Subgraph sg, Triplet t, Map<String, ContractedNode> nodes, double phi) {
        double max = 0;
        for (int i = 0; i < t.parts().size(); i++) {
            List<String> part = t.parts().get(i);
            double chi = 0;
            for (String task : part) {
                chi += nodes.get(task).ops() / NU;
            }
            for (Edge e : sg.edges()) {
                double c = phi + e.bits() / MU;
                if (e.from().equals(sg.root()) && part.contains(e.to()) && i != t.rootPart()) {
                    chi += c;
                }
                if (e.to().equals(sg.sink()) && part.contains(e.from()) && i != t.sinkPart()) {
                    chi += c;
                }
            }
            max = Math.max(max, chi);
        }
        return max;
    }

    @Property(tries = 60, seed = "32")
    void envelope_equalsDynamicProgram_withCrossPartEdges(@ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
        Random r = new Random(seed);
        RandomSubgraph g = RandomSubgraph.draw(r, 2 + r.nextInt(3), 0, true);
        Subgraph sg = g.subgraph();
        Map<String, ContractedNode> nodes = g.nodes();
        List<String> inter = sg.intermediates();
        ServerWaits w = new ServerWaits(1e-3 * r.nextDouble(), 3 * r.nextDouble());
        for (Triplet t : TestingTriplets.enumerate(inter)) {
            ChoiceCost c = ChoiceCost.compile(sg, t, nodes, NU, MU, w);
            for (double phi : new double[] {0, 1e-5, 1e-3 * r.nextDouble(), 0.1}) {
                assertThat(c.delay(phi)).isCloseTo(c.delay(phi, w), within(1e-12));
            }
        }
    }

    @Test
    void workedExample_crossPartDependency_waitsForTransfer() {
        // root r -> a -> b -> sink k, a and b in different parts (a with the root, b with the sink):
        // a: 2 ms; transfer a->b: 1 ms + phi; b: 3 ms; b's part sends nothing (sink local) -> 6 ms + phi
        Map<String, ContractedNode> nodes = Map.of(
                "r", new ContractedNode("r", 0, List.of("r"), false),
                "a", new ContractedNode("a", 2e9, List.of("a"), false),
                "b", new ContractedNode("b", 3e9, List.of("b"), false),
                "k", new ContractedNode("k", 0, List.of("k"), false));
        Subgraph sg = new Subgraph("r", "k", List.of("a", "b"), List.of(
                new Edge("r", "a", 0), new Edge("a", "b", 1.25e6), new Edge("b", "k", 0)));
        ChoiceCost c = ChoiceCost.compile(sg, new Triplet(List.of(List.of("a"), List.of("b")), 0, 1), nodes, NU, MU, ServerWaits.NONE);

        assertThat(c.cutEdges).isEqualTo(1);
        assertThat(c.cutSeconds).isCloseTo(1e-3, within(1e-15));
        assertThat(c.delay(2e-4)).isCloseTo(6e-3 + 2e-4, within(1e-15));
    }

    @Test
    void workedExample_serverWaits_remotePartPaysEntryTwice() {
        // Fig. 1 of the paper (tasks 1, 10, 10, 1 ms; edges 1->3 and 3->4 take 1 ms) with W = 2 ms, f = 0.5,
        // phi = 0.1 ms. Split with root and sink beside task 2: task 2 re-enters the root's server
        // (0.5 * 10 + 10 ms), then the sink re-enters (0.5 * 1 ms): 15.5 ms; task 3 waits for its input
        // (1 + 0.1 ms), enters its server (2 ms), runs (10 ms), sends (1 + 0.1 ms) and the sink, fed over the
        // link, joins its queue afresh (2 ms): 16.2 ms. The delay is the later one.
        Map<String, ContractedNode> nodes = Figure1.job(1).nodes();
        ServerWaits waits = new ServerWaits(2e-3, 0.5);
        ChoiceCost split = ChoiceCost.compile(Figure1.SUBGRAPH, Figure1.SPLIT_WITH_2, nodes, Figure1.NU, Figure1.MU, waits);
        assertThat(split.delay(1e-4, waits)).isCloseTo(16.2e-3, within(1e-12));
        assertThat(split.delay(1e-4)).isCloseTo(16.2e-3, within(1e-12));

        // with no entry wait the local branch is the later one: 15.5 ms against 12.2 ms
        ServerWaits noEntry = new ServerWaits(0, 0.5);
        ChoiceCost cheap = ChoiceCost.compile(Figure1.SUBGRAPH, Figure1.SPLIT_WITH_2, nodes, Figure1.NU, Figure1.MU, noEntry);
        assertThat(cheap.delay(1e-4, noEntry)).isCloseTo(15.5e-3, within(1e-12));

        // together: every task re-enters, 0.5 * 21 ms of waiting plus 20 ms of compute before the sink
        ChoiceCost together = ChoiceCost.compile(Figure1.SUBGRAPH, Figure1.TOGETHER, nodes, Figure1.NU, Figure1.MU, waits);
        assertThat(together.delay(1e-4)).isCloseTo(30.5e-3, within(1e-12));
    }

    @Test
    void identicalJobs_solveLikeOneJobWithSummedRate() {
        JobClass a = Figure1.job(30);
        JobClass b = new JobClass("g", 50, a.nodes(), a.source(), a.subgraphs());
        Background bg = new Background(Background.Comm.ofLoad(0.6, 1e7, Figure1.MU), null);
        NonaProblem two = new NonaProblem(List.of(a, b), Figure1.CLUSTER, bg, CostModel.PAPER);
        NonaProblem one = new NonaProblem(List.of(Figure1.job(80)), Figure1.CLUSTER, bg, CostModel.PAPER);

        Solution s2 = NonaOptimizer.solve(two);
        Solution s1 = NonaOptimizer.solve(one);

        assertThat(s2.objective()).isCloseTo(s1.objective(), within(1e-9 * s1.objective()));
        assertThat(s2.job("f").subgraphs().get(0).theta()).isEqualTo(s2.job("g").subgraphs().get(0).theta());
    }

    @Test
    void tripletsNeedingMoreServersThanCluster_areDropped() {
        NonaProblem p = new NonaProblem(List.of(Figure1.job(10)), new Cluster(1, Figure1.NU, Figure1.MU), Background.NONE, CostModel.PAPER);
        Solution s = NonaOptimizer.solve(p);

        assertThat(s.job("f").subgraphs().get(0).triplets()).containsExactly(Figure1.TOGETHER);
        assertThat(s.job("f").predictedJctSeconds()).isCloseTo(0.022, within(1e-12));
    }

    /** A random subgraph r -> t0..t(m-1) -> k drawn from {@code r}; the two properties share its draw order. */
    private record RandomSubgraph(Subgraph subgraph, Map<String, ContractedNode> nodes) {
        /**
         * Task ti computes minOps + 1e10 * U ops; every task has an edge from the root and to the sink. With
         * {@code crossEdges}, ti also gets an edge from each earlier tj with probability 1/3, and the root an edge
         * straight to the sink with probability 1/2.
         */
        static RandomSubgraph draw(Random r, int m, double minOps, boolean crossEdges) {
            List<String> inter = new ArrayList<>();
            List<Edge> edges = new ArrayList<>();
            Map<String, ContractedNode> nodes = new HashMap<>();
            nodes.put("r", new ContractedNode("r", 1e9, List.of("r"), false));
            nodes.put("k", new ContractedNode("k", 1e9, List.of("k"), false));
            for (int i = 0; i < m; i++) {
                String id = "t" + i;
                inter.add(id);
                nodes.put(id, new ContractedNode(id, minOps + 1e10 * r.nextDouble(), List.of(id), false));
                edges.add(new Edge("r", id, 1e7 * r.nextDouble()));
                edges.add(new Edge(id, "k", 1e7 * r.nextDouble()));
                for (int j = 0; crossEdges && j < i; j++) {
                    if (r.nextInt(3) == 0) {
                        edges.add(new Edge("t" + j, id, 1e7 * r.nextDouble()));
                    }
                }
            }
            if (crossEdges && r.nextBoolean()) {
                edges.add(new Edge("r", "k", 1e7 * r.nextDouble()));
            }
            return new RandomSubgraph(new Subgraph("r", "k", inter, edges), nodes);
        }
    }
}
