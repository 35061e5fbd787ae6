package dev.nona.optimize;

import java.util.Arrays;

/**
 * For a fixed bound $\hat\phi$ on the link wait, Nona's problem becomes a linear program: the delay of every
 * triplet is a constant $d_c(\hat\phi)$ and $\phi(\theta) \le \hat\phi$ is the single linear constraint
 * $$\sum_c \beta_{s(c)} \theta_c \,(Q_c + 2\hat\phi B_c) \le 2\hat\phi(1-\rho_{bg}) - M_{bg},$$
 * where $B_c = \sum_{\mathrm{cut}} S_e$ and $Q_c = \sum_{\mathrm{cut}} S_e^2$ (Eqs. (VI), (VIII) rearranged).
 * Minimise $\sum_c a_c\theta_c$ with $a_c = \beta_{s(c)} d_c$ and $g_c = \beta_{s(c)}(Q_c + 2\hat\phi B_c)$.
 *
 * <p>A linear program with a simplex per subgraph and one coupling constraint is solved exactly by its Lagrangian
 * dual: for a multiplier $\eta \ge 0$ each subgraph picks the triplet minimising $a_c + \eta g_c$, which is a vertex
 * of the lower convex hull of its points $(g_c, a_c)$. Starting from $\eta = \infty$ (least traffic everywhere),
 * the hull breakpoints of all subgraphs are swept in decreasing $\eta$; each step moves one subgraph to a faster,
 * busier vertex while the constraint allows, and the step that would violate it is taken fractionally. So at most
 * one subgraph is randomised, between two adjacent hull vertices (the LP's basic optimal solution).
 *
 * <p>Subgraphs whose triplets cost exactly the same (e.g. the identical layers of a transformer) are solved as
 * one subgraph weighted by their summed rates and share its $\theta$: the LP's optimum is the same.
 *
 * <p>Cost: $O(C \log C)$ for $C$ triplets in all. Not thread-safe (scratch arrays).
 */
final class ParametricLp {
    private final CompiledProblem cp;
    private final double[] a;
    private final double[] g;
    private final int[] order;
    private final int[] tmp;
    private final int[] hull;
    private final int[] selected;
    private final double[] bpEta;
    private final double[] bpKey;
    private final int[] bpSub;
    private final int[] bpTo;
    private final int[] bpOrder;
    /** Per representative subgraph: the summed rates of the subgraphs it stands for. */
    private final double[] weight;
    /** Whether the last {@link #solve} found the link-wait constraint slack (its multiplier $\eta = 0$). */
    boolean unconstrained;

    ParametricLp(CompiledProblem cp) {
        this.cp = cp;
        int n = cp.choices();
        this.a = new double[n];
        this.g = new double[n];
        this.order = new int[n];
        this.tmp = new int[n];
        this.hull = new int[n];
        this.selected = new int[cp.subgraphs];
        this.bpEta = new double[n];
        this.bpKey = new double[n];
        this.bpSub = new int[n];
        this.bpTo = new int[n];
        this.bpOrder = new int[n];
        this.weight = new double[cp.subgraphs];
        for (int s = 0; s < cp.subgraphs; s++) {
            weight[cp.representative[s]] += cp.beta[s];
        }
    }

    /** The capacity $G(\hat\phi) = 2\hat\phi(1-\rho_{bg}) - M_{bg}$. */
    double capacity(double phiHat) {
        return 2 * phiHat * (1 - cp.rhoBackground) - cp.m2Background;
    }

    /**
     * Solves the LP at $\hat\phi$.
     *
     * @param phiHat the bound on $\phi$, finite and $\ge 0$
     * @param delay  every triplet's delay at $\hat\phi$ (see {@link CompiledProblem#delays})
     * @param theta  receives the optimal flat $\theta$
     * @return {@code true} if feasible; {@code false} (theta untouched) if no $\theta$ has $\phi \le \hat\phi$
     */
    boolean solve(double phiHat, double[] delay, double[] theta) {
        for (int s = 0; s < cp.subgraphs; s++) {
            if (cp.representative[s] != s) {
                continue;
            }
            for (int c = cp.first[s]; c < cp.first[s + 1]; c++) {
                a[c] = weight[s] * delay[c];
                g[c] = weight[s] * (cp.cost[c].cutSquares + 2 * phiHat * cp.cost[c].cutSeconds);
            }
        }
        double cap = capacity(phiHat);
        double total = 0;
        int breakpoints = 0;
        for (int s = 0; s < cp.subgraphs; s++) {
            if (cp.representative[s] != s) {
                continue;
            }
            if (weight[s] == 0) {
                selected[s] = fastest(s, delay);
                continue;
            }
            int h = lowerHull(s);
            selected[s] = hull[0];
            total += g[hull[0]];
            for (int i = 0; i + 1 < h; i++) {
                int from = hull[i];
                int to = hull[i + 1];
                bpEta[breakpoints] = (a[from] - a[to]) / (g[to] - g[from]);
                bpKey[breakpoints] = -bpEta[breakpoints];
                bpSub[breakpoints] = s;
                bpTo[breakpoints] = to;
                bpOrder[breakpoints] = breakpoints;
                breakpoints++;
            }
        }
        double slack = slack(phiHat, total);
        if (total > cap + slack) {
            return false;
        }
        IndexSort.sort(bpOrder, 0, breakpoints, bpKey, null, tmp);
        Arrays.fill(theta, 0);
        unconstrained = true;
        int split = -1;
        double alpha = 0;
        for (int i = 0; i < breakpoints; i++) {
            int b = bpOrder[i];
            int s = bpSub[b];
            double dg = g[bpTo[b]] - g[selected[s]];
            if (total + dg <= cap + slack) {
                selected[s] = bpTo[b];
                total += dg;
            } else {
                unconstrained = false;
                split = b;
                alpha = Math.max(0, Math.min(1, (cap - total) / dg));
                break;
            }
        }
        for (int s = 0; s < cp.subgraphs; s++) {
            if (cp.representative[s] == s) {
                theta[selected[s]] = 1;
            }
        }
        if (split >= 0) {
            int s = bpSub[split];
            theta[selected[s]] = 1 - alpha;
            theta[bpTo[split]] += alpha;
        }
        for (int s = 0; s < cp.subgraphs; s++) {
            int r = cp.representative[s];
            if (r != s) {
                System.arraycopy(theta, cp.first[r], theta, cp.first[s], cp.first[s + 1] - cp.first[s]);
            }
        }
        return true;
    }

    /**
     * The rounding allowance of the constraint: $10^{-12}$ of the size of the terms it is made of. Not of $|G|$
     * alone: at the least feasible bound $G = 2\hat\phi(1-\rho_{bg}) - M_{bg}$ is a difference of two equal terms,
     * and its rounding error (about $10^{-16} M_{bg}$) would make a feasible bound look infeasible.
     */
    private double slack(double phiHat, double leastLoad) {
        double terms = Math.abs(2 * phiHat * (1 - cp.rhoBackground)) + cp.m2Background;
        return 1e-12 * Math.max(1e-300, Math.max(terms, leastLoad));
    }

    /**
     * The part of the lower convex hull of subgraph s's points $(g, a)$ from the least-traffic point to the point of
     * least $a$ (ties: less traffic), into {@code hull}; returns its length.
     */
    private int lowerHull(int s) {
        int from = cp.first[s];
        int to = cp.first[s + 1];
        for (int c = from; c < to; c++) {
            order[c] = c;
        }
        IndexSort.sort(order, from, to, g, a, tmp);
        int k = 0;
        for (int i = from; i < to; i++) {
            int p = order[i];
            if (k > 0 && g[p] == g[hull[k - 1]]) {
                continue; // same traffic, no faster (sorted by a within equal g)
            }
            if (k > 0 && a[p] >= a[hull[k - 1]]) {
                continue; // more traffic and no faster: never optimal for eta >= 0
            }
            while (k >= 2 && cross(hull[k - 2], hull[k - 1], p) <= 0) {
                k--;
            }
            hull[k++] = p;
        }
        return k;
    }

    private double cross(int o, int p, int q) {
        return (g[p] - g[o]) * (a[q] - a[o]) - (a[p] - a[o]) * (g[q] - g[o]);
    }

    /** For a subgraph of a job class without traffic: its fastest triplet (ties: least traffic, then first). */
    private int fastest(int s, double[] delay) {
        int best = cp.first[s];
        for (int c = best + 1; c < cp.first[s + 1]; c++) {
            if (delay[c] < delay[best] || (delay[c] == delay[best] && cp.cost[c].cutSeconds < cp.cost[best].cutSeconds)) {
                best = c;
            }
        }
        return best;
    }
}
