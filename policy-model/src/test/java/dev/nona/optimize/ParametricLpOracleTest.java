package dev.nona.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.dag.ContractedNode;
import dev.nona.dag.Edge;
import dev.nona.dag.Subgraph;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.commons.math3.optim.MaxIter;
import org.apache.commons.math3.optim.PointValuePair;
import org.apache.commons.math3.optim.linear.LinearConstraint;
import org.apache.commons.math3.optim.linear.LinearConstraintSet;
import org.apache.commons.math3.optim.linear.LinearObjectiveFunction;
import org.apache.commons.math3.optim.linear.NoFeasibleSolutionException;
import org.apache.commons.math3.optim.linear.NonNegativeConstraint;
import org.apache.commons.math3.optim.linear.PivotSelectionRule;
import org.apache.commons.math3.optim.linear.Relationship;
import org.apache.commons.math3.optim.linear.SimplexSolver;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.junit.jupiter.api.Test;

/**
 * {@link ParametricLp} against an independent oracle: Apache Commons Math's {@link SimplexSolver} on the same
 * fixed-$\hat\phi$ linear program, written out in full (one variable per triplet of every subgraph, no merging of
 * identical subgraphs):
 * $$\min \sum_s \beta_s \sum_{c \in s} d_c(\hat\phi)\,\theta_c \quad\text{s.t.}\quad \sum_{c\in s}\theta_c = 1\ \forall s,
 * \quad \sum_s \beta_s \sum_{c\in s} \theta_c (Q_c + 2\hat\phi B_c) \le 2\hat\phi(1-\rho_{bg}) - M_{bg},\quad \theta\ge 0.$$
 * On every instance both must agree on feasibility, the optimum values must agree to $10^{-9}$ relative, and
 * {@link ParametricLp}'s $\theta$ must itself be feasible (so it cannot win by breaking a constraint).
 *
 * <p>Instances are random (fixed seeds) with the degenerate cases mixed in: subgraphs without intermediates (one
 * triplet), one-server clusters (only the all-together triplets are admissible), jobs of rate 0, identical job
 * classes and identical subgraphs (merged by {@link CompiledProblem#representative}), ties in traffic or delay
 * (equal edge sizes and task sizes, zero-byte edges), background traffic, both cost models, and bounds
 * $\hat\phi$ from infeasible through tight to slack.
 */
final class ParametricLpOracleTest {
    private static final double RELATIVE = 1e-9;

    @Test
    void solve_randomInstances_optimumEqualsSimplexSolver() {
        int feasible = 0;
        int binding = 0;
        int infeasible = 0;
        for (long seed = 1; seed <= 200; seed++) {
            Random r = new Random(seed);
            CompiledProblem cp = new CompiledProblem(problem(r, seed));
            for (double phiHat : bounds(cp, r)) {
                Outcome o = compare(cp, phiHat, "seed " + seed + ", phiHat " + phiHat);
                feasible += o == Outcome.SLACK || o == Outcome.BINDING ? 1 : 0;
                binding += o == Outcome.BINDING ? 1 : 0;
                infeasible += o == Outcome.INFEASIBLE ? 1 : 0;
            }
        }
        // the instances exercise every case, not just the easy one
        // (1,800 programs: 1,401 feasible of which 364 binding, 399 infeasible)
        assertThat(feasible).isGreaterThan(1_000);
        assertThat(binding).isGreaterThan(250);
        assertThat(infeasible).isGreaterThan(250);
    }

    @Test
    void solve_handBuiltDegenerateInstances_optimumEqualsSimplexSolver() {
        // Fig. 1 of the paper at a light and a busy link: two hull vertices, the constraint slack or binding
        for (double rhoBg : new double[] {0, 0.5, 0.95}) {
            Background bg = new Background(Background.Comm.ofLoad(rhoBg, 1e7, Figure1.MU), Background.Compute.NONE);
            CompiledProblem cp = new CompiledProblem(Figure1.problem(10, bg, CostModel.PAPER));
            for (double phiHat : new double[] {0, 1e-6, 1e-4, 1e-3, 1e-2, 1}) {
                compare(cp, phiHat, "figure 1, rhoBg " + rhoBg + ", phiHat " + phiHat);
            }
        }
        // every rate 0: nothing to weigh, every subgraph takes its fastest triplet, the objective is 0
        Random r = new Random(99);
        NonaProblem zero = problem(r, 99);
        zero = new NonaProblem(zero.jobs().stream().map(j -> j.withRate(0)).toList(), zero.cluster(), zero.background(),
                zero.costModel());
        CompiledProblem cp = new CompiledProblem(zero);
        for (double phiHat : new double[] {0, 1e-3, 1}) {
            compare(cp, phiHat, "all rates 0, phiHat " + phiHat);
        }
    }

    private enum Outcome { INFEASIBLE, SLACK, BINDING }

    /** Solves one LP both ways and checks that they agree; returns which case it was. */
    private static Outcome compare(CompiledProblem cp, double phiHat, String what) {
        int n = cp.choices();
        double[] delay = new double[n];
        cp.delays(phiHat, delay);
        double[] theta = new double[n];
        ParametricLp lp = new ParametricLp(cp);
        boolean ours = lp.solve(phiHat, delay, theta);
        Oracle oracle = Oracle.of(cp, phiHat);
        PointValuePair best = oracle.solve();

        assertThat(ours).as(what + ": feasible (ParametricLp) vs oracle").isEqualTo(best != null);
        if (!ours) {
            return Outcome.INFEASIBLE;
        }
        double expected = oracle.objective(best.getPoint());
        double actual = oracle.objective(theta);
        assertThat(Math.abs(actual - expected)).as(what + ": objective " + actual + " vs simplex " + expected)
                .isLessThanOrEqualTo(RELATIVE * Math.max(Math.abs(expected), Math.abs(actual)));
        oracle.requireFeasible(theta, what);
        return lp.unconstrained ? Outcome.SLACK : Outcome.BINDING;
    }

    /**
     * The LP over every triplet of every subgraph (no representatives), with coefficients from the compiled costs,
     * rows scaled to a largest coefficient of 1 so that the simplex's tolerances are relative.
     */
    private record Oracle(CompiledProblem cp, double phiHat, double[] a, double[] g, double cap) {
        static Oracle of(CompiledProblem cp, double phiHat) {
            int n = cp.choices();
            double[] a = new double[n];
            double[] g = new double[n];
            for (int s = 0; s < cp.subgraphs; s++) {
                for (int c = cp.first[s]; c < cp.first[s + 1]; c++) {
                    a[c] = cp.beta[s] * cp.cost[c].delay(phiHat);
                    g[c] = cp.beta[s] * (cp.cost[c].cutSquares + 2 * phiHat * cp.cost[c].cutSeconds);
                }
            }
            return new Oracle(cp, phiHat, a, g, 2 * phiHat * (1 - cp.rhoBackground) - cp.m2Background);
        }

        /** The simplex's optimum, or null if the LP has no feasible point. */
        PointValuePair solve() {
            int n = a.length;
            List<LinearConstraint> rows = new ArrayList<>();
            for (int s = 0; s < cp.subgraphs; s++) {
                double[] row = new double[n];
                for (int c = cp.first[s]; c < cp.first[s + 1]; c++) {
                    row[c] = 1;
                }
                rows.add(new LinearConstraint(row, Relationship.EQ, 1));
            }
            double gScale = rowScale();
            if (gScale > 0) {
                rows.add(new LinearConstraint(scaled(g, gScale), Relationship.LEQ, cap / gScale));
            } else if (cap < 0) {
                return null;
            }
            double aScale = maxAbs(a) > 0 ? maxAbs(a) : 1;
            try {
                return new SimplexSolver(1e-12, 10, 1e-30).optimize(new MaxIter(1_000_000),
                        new LinearObjectiveFunction(scaled(a, aScale), 0), new LinearConstraintSet(rows),
                        GoalType.MINIMIZE, new NonNegativeConstraint(true), PivotSelectionRule.BLAND);
            } catch (NoFeasibleSolutionException e) {
                return null;
            }
        }

        /**
         * The size of the coupling row: its largest coefficient or the terms of its right-hand side
         * $2\hat\phi(1-\rho_{bg}) - M_{bg}$, a difference whose value alone can be a rounding error of 0.
         */
        double rowScale() {
            return Math.max(maxAbs(g), Math.abs(2 * phiHat * (1 - cp.rhoBackground)) + cp.m2Background);
        }

        double objective(double[] theta) {
            double sum = 0;
            for (int c = 0; c < a.length; c++) {
                sum += a[c] * theta[c];
            }
            return sum;
        }

        void requireFeasible(double[] theta, String what) {
            double load = 0;
            for (int s = 0; s < cp.subgraphs; s++) {
                double sum = 0;
                for (int c = cp.first[s]; c < cp.first[s + 1]; c++) {
                    assertThat(theta[c]).as(what + ": theta[" + c + "]").isBetween(0.0, 1.0);
                    sum += theta[c];
                    load += g[c] * theta[c];
                }
                assertThat(Math.abs(sum - 1)).as(what + ": subgraph " + s + " sums to " + sum).isLessThanOrEqualTo(1e-12);
            }
            assertThat(load).as(what + ": coupling constraint").isLessThanOrEqualTo(cap + 1e-9 * rowScale());
        }

        private static double maxAbs(double[] v) {
            double m = 0;
            for (double x : v) {
                m = Math.max(m, Math.abs(x));
            }
            return m;
        }

        private static double[] scaled(double[] v, double by) {
            double[] out = new double[v.length];
            for (int i = 0; i < v.length; i++) {
                out[i] = v[i] / by;
            }
            return out;
        }
    }

    /**
     * Bounds $\hat\phi$ for one instance: 0, the least bound at which the least-traffic choices fit (tight, so the
     * LP's feasible set is one point or a face), just below it (infeasible), and random ones on a log scale around
     * the largest service time (from binding to slack).
     */
    private static double[] bounds(CompiledProblem cp, Random r) {
        double largest = cp.backgroundS;
        double minQ = cp.m2Background;
        double minB = cp.rhoBackground;
        for (int s = 0; s < cp.subgraphs; s++) {
            double q = Double.POSITIVE_INFINITY;
            double b = Double.POSITIVE_INFINITY;
            for (int c = cp.first[s]; c < cp.first[s + 1]; c++) {
                largest = Math.max(largest, cp.cost[c].cutSeconds);
                q = Math.min(q, cp.cost[c].cutSquares);
                b = Math.min(b, cp.cost[c].cutSeconds);
            }
            minQ += cp.beta[s] * q;
            minB += cp.beta[s] * b;
        }
        largest = largest > 0 ? largest : 1e-3;
        // with the same least-traffic choice for Q and B in every subgraph, cap = total at phi = minQ / (2 (1 - minB))
        double tight = minB < 1 ? minQ / (2 * (1 - minB)) : largest;
        double[] out = {0, tight, tight * (1 - 1e-6), largest * Math.pow(10, -3 + 4 * r.nextDouble()),
                largest * Math.pow(10, -3 + 4 * r.nextDouble()), 0, 0, 0, 0};
        for (int i = 5; i < out.length; i++) { // between the tight bound and a slack one, where the constraint binds
            out[i] = tight > 0 ? tight * Math.pow(10 * largest / tight, r.nextDouble() * r.nextDouble()) : largest * r.nextDouble();
        }
        return out;
    }

    /** A random problem: 1&ndash;3 job classes, each a chain of 1&ndash;3 subgraphs; see the class comment. */
    private static NonaProblem problem(Random r, long seed) {
        // compute from 0.1x to 30x the transfers: sometimes splitting never pays, mostly it does up to a point
        double nu = 1e12 / Math.pow(10, -1 + 2.5 * r.nextDouble());
        double mu = 1e10 * (0.2 + r.nextDouble());
        boolean ties = r.nextInt(4) == 0; // equal sizes everywhere: many triplets with the same traffic and delay
        List<JobClass> jobs = new ArrayList<>();
        int jobCount = 1 + r.nextInt(3);
        for (int j = 0; j < jobCount; j++) {
            double rate = r.nextInt(6) == 0 ? 0 : 1 + 30 * r.nextDouble();
            if (j > 0 && r.nextInt(4) == 0) { // an identical job class at another rate
                jobs.add(copy(jobs.get(j - 1), "job" + j, rate));
                continue;
            }
            jobs.add(job(r, "job" + j, rate, ties, r.nextInt(3) == 0));
        }
        double rhoBg = r.nextInt(3) == 0 ? 0 : 0.8 * r.nextDouble();
        Background bg = new Background(Background.Comm.ofLoad(rhoBg, 1e6 + 1e7 * r.nextDouble(), mu),
                r.nextBoolean() ? Background.Compute.NONE : new Background.Compute(5 * r.nextDouble(), 1e9));
        CostModel model = r.nextBoolean() ? CostModel.PAPER : CostModel.DEFAULT;
        int servers = r.nextInt(6) == 0 ? 1 : 2 + r.nextInt(4);
        return new NonaProblem(jobs, new Cluster(servers, nu, mu), bg, model);
    }

    private static JobClass job(Random r, String name, double rate, boolean ties, boolean repeatSubgraph) {
        Map<String, ContractedNode> nodes = new LinkedHashMap<>();
        List<SubgraphChoices> subgraphs = new ArrayList<>();
        String root = name + ".r0";
        nodes.put(root, node(root, r, ties));
        int count = 1 + r.nextInt(3);
        long shapeSeed = r.nextLong();
        for (int k = 0; k < count; k++) {
            // a repeated subgraph has the same random shape and sizes: identical costs, merged by the LP
            Random shape = repeatSubgraph ? new Random(shapeSeed) : r;
            String sink = name + ".r" + (k + 1);
            subgraphs.add(subgraph(shape, nodes, root, sink, name + ".s" + k + ".", ties));
            root = sink;
        }
        return new JobClass(name, rate, nodes, name + ".r0", subgraphs);
    }

    /** root -> intermediates (0 to 4, random edges in topological order) -> sink. */
    private static SubgraphChoices subgraph(Random r, Map<String, ContractedNode> nodes, String root, String sink,
                                            String prefix, boolean ties) {
        int k = r.nextInt(8) == 0 ? 4 : r.nextInt(4);
        List<String> inter = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            inter.add(prefix + i);
            nodes.put(prefix + i, node(prefix + i, r, ties));
        }
        nodes.put(sink, node(sink, r, ties));
        List<Edge> edges = new ArrayList<>();
        if (k == 0) {
            edges.add(new Edge(root, sink, bytes(r, ties)));
        }
        boolean[] hasIn = new boolean[k];
        boolean[] hasOut = new boolean[k];
        for (int i = 0; i < k; i++) {
            for (int j = i + 1; j < k; j++) {
                if (r.nextInt(3) == 0) {
                    edges.add(new Edge(inter.get(i), inter.get(j), bytes(r, ties)));
                    hasOut[i] = true;
                    hasIn[j] = true;
                }
            }
        }
        for (int i = 0; i < k; i++) {
            if (!hasIn[i] || r.nextInt(4) == 0) {
                edges.add(new Edge(root, inter.get(i), bytes(r, ties)));
            }
            if (!hasOut[i] || r.nextInt(4) == 0) {
                edges.add(new Edge(inter.get(i), sink, bytes(r, ties)));
            }
        }
        Subgraph sg = new Subgraph(root, sink, inter, edges);
        return new SubgraphChoices(sg, TestingTriplets.enumerate(inter));
    }

    private static JobClass copy(JobClass template, String name, double rate) {
        return new JobClass(name, rate, template.nodes(), template.source(), template.subgraphs());
    }

    private static double bytes(Random r, boolean ties) {
        if (ties) {
            return 1e7;
        }
        return r.nextInt(6) == 0 ? 0 : 1e5 + 3e7 * r.nextDouble();
    }

    private static ContractedNode node(String id, Random r, boolean ties) {
        return new ContractedNode(id, ties ? 1e9 : 1e8 + 1e10 * r.nextDouble(), List.of(id), false);
    }
}
