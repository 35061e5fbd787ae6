package dev.nona.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.dag.ContractedNode;
import dev.nona.dag.Edge;
import dev.nona.dag.Subgraph;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.assertj.core.api.Assertions;

/**
 * The optimiser equals or beats brute force on small instances: every deterministic triplet choice plus a fine
 * grid over the simplices.
 */
final class BruteForceTest {

    @Property(tries = 40, seed = "20241")
    void optimiser_oneJob_equalsOrBeatsVerticesAndFineGrid(@ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
        Random r = new Random(seed);
        NonaProblem p = problem(r, 1);

        double brute = bruteForce(p, 16);
        Solution s = NonaOptimizer.solve(p);

        assertBeats(p, s, brute);
    }

    @Property(tries = 25, seed = "777")
    void optimiser_twoJobs_equalsOrBeatsVerticesAndGrid(@ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
        Random r = new Random(seed);
        NonaProblem p = problem(r, 2);

        double brute = bruteForce(p, 5);
        Solution s = NonaOptimizer.solve(p);

        assertBeats(p, s, brute);
    }

    private static void assertBeats(NonaProblem p, Solution s, double brute) {
        if (Double.isInfinite(brute)) {
            assertThat(s.feasible()).isFalse();
            return;
        }
        assertThat(s.feasible()).isTrue();
        assertThat(s.objective()).isLessThanOrEqualTo(brute * (1 + 1e-9) + 1e-15);
        // the reported objective is the true objective of the returned theta
        List<List<double[]>> theta = s.jobs().stream()
                .map(j -> j.subgraphs().stream().map(sg -> sg.theta().stream().mapToDouble(Double::doubleValue).toArray()).toList())
                .toList();
        assertThat(NonaOptimizer.evaluate(p, theta).objective()).isCloseTo(s.objective(), Assertions.within(1e-12 * Math.max(1, s.objective())));
    }

    /** A random instance: each job one subgraph root -> {x, y} -> sink, sometimes with an x -> y edge. */
    static NonaProblem problem(Random r, int jobs) {
        double nu = 1e12;
        double mu = 1e10 * (0.2 + r.nextDouble());
        List<JobClass> list = new ArrayList<>();
        for (int j = 0; j < jobs; j++) {
            String p = "j" + j + ".";
            List<Edge> edges = new ArrayList<>(List.of(
                    new Edge(p + "r", p + "x", bytes(r)), new Edge(p + "r", p + "y", bytes(r)),
                    new Edge(p + "x", p + "k", bytes(r)), new Edge(p + "y", p + "k", bytes(r))));
            if (r.nextInt(3) == 0) {
                edges.add(new Edge(p + "x", p + "y", bytes(r)));
            }
            Subgraph sg = new Subgraph(p + "r", p + "k", List.of(p + "x", p + "y"), edges);
            Map<String, ContractedNode> nodes = Map.of(
                    p + "r", node(p + "r", r), p + "x", node(p + "x", r), p + "y", node(p + "y", r), p + "k", node(p + "k", r));
            double rate = 5 + 60 * r.nextDouble();
            list.add(new JobClass("job" + j, rate, nodes, p + "r",
                    List.of(new SubgraphChoices(sg, TestingTriplets.enumerate(sg.intermediates())))));
        }
        double rhoBg = r.nextInt(3) == 0 ? 0 : 0.9 * r.nextDouble();
        Background bg = new Background(Background.Comm.ofLoad(rhoBg, 1e6 + 1e7 * r.nextDouble(), mu), null);
        CostModel cm = r.nextBoolean() ? CostModel.PAPER : CostModel.DEFAULT;
        return new NonaProblem(list, new Cluster(2 + r.nextInt(3), nu, mu), bg, cm);
    }

    private static double bytes(Random r) {
        return r.nextDouble() < 0.2 ? 0 : 1e5 + 3e7 * r.nextDouble();
    }

    private static ContractedNode node(String id, Random r) {
        return new ContractedNode(id, 1e8 + 1e10 * r.nextDouble(), List.of(id), false);
    }

    /** Best objective over every combination of grid points of the simplices (vertices included). */
    static double bruteForce(NonaProblem p, int steps) {
        List<List<double[]>> perJob = new ArrayList<>();
        for (JobClass j : p.jobs()) {
            perJob.add(simplexGrid(j.subgraphs().get(0).triplets().size(), steps));
        }
        CompiledProblem cp = new CompiledProblem(p);
        double[] flat = new double[cp.choices()];
        double best = Double.POSITIVE_INFINITY;
        int[] at = new int[perJob.size()];
        while (true) {
            for (int j = 0; j < at.length; j++) {
                double[] t = perJob.get(j).get(at[j]);
                System.arraycopy(t, 0, flat, cp.first[j], t.length);
            }
            best = Math.min(best, cp.evaluate(flat).objective());
            int j = 0;
            while (j < at.length && ++at[j] == perJob.get(j).size()) {
                at[j++] = 0;
            }
            if (j == at.length) {
                return best;
            }
        }
    }

    /** Every point of the simplex in dimension n with coordinates multiple of 1/steps. */
    static List<double[]> simplexGrid(int n, int steps) {
        List<double[]> out = new ArrayList<>();
        fill(new int[n], 0, steps, steps, out);
        return out;
    }

    private static void fill(int[] k, int i, int left, int steps, List<double[]> out) {
        if (i == k.length - 1) {
            k[i] = left;
            double[] t = new double[k.length];
            for (int j = 0; j < k.length; j++) {
                t[j] = k[j] / (double) steps;
            }
            out.add(t);
            return;
        }
        for (int v = 0; v <= left; v++) {
            k[i] = v;
            fill(k, i + 1, left - v, steps, out);
        }
    }
}
