package dev.nona.optimize;

/**
 * For a fixed bound $\hat\phi$ on the link wait, Nona's problem becomes a linear program: the delay of every
 * triplet is a constant $d_c(\hat\phi)$ and $\phi(\theta) \le \hat\phi$ is the single linear constraint
 * $$\sum_c \beta_{s(c)} \theta_c \,(Q_c + 2\hat\phi B_c) \le 2\hat\phi(1-\rho_{bg}) - M_{bg},$$
 * where $B_c = \sum_{\mathrm{cut}} S_e$ and $Q_c = \sum_{\mathrm{cut}} S_e^2$ (Eqs. (VI), (VIII) rearranged). A
 * linear program with simplex constraints per subgraph and one coupling constraint is solved exactly through its
 * one-dimensional Lagrangian dual: for a multiplier $\eta \ge 0$ each subgraph picks its best triplet for
 * $\beta(d_c + \eta g_c)$; bisection finds the $\eta$ where the constraint becomes tight, and the optimum mixes the
 * two selections on either side of it (so at most the subgraphs whose choice flips there are randomised).
 *
 * <p>Cost: $O(C \log(1/\epsilon))$ for $C$ triplets in all. Not thread-safe (scratch arrays).
 */
final class ParametricLp {
    private static final int BISECTIONS = 64;

    private final CompiledProblem cp;
    private final double[] a;
    private final double[] g;
    private final int[] lo;
    private final int[] hi;
    /** Whether the last {@link #solve} found the link-wait constraint slack (its multiplier $\eta = 0$). */
    boolean unconstrained;

    ParametricLp(CompiledProblem cp) {
        this.cp = cp;
        this.a = new double[cp.choices()];
        this.g = new double[cp.choices()];
        this.lo = new int[cp.subgraphs];
        this.hi = new int[cp.subgraphs];
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
            for (int c = cp.first[s]; c < cp.first[s + 1]; c++) {
                a[c] = cp.beta[s] * delay[c];
                g[c] = cp.beta[s] * (cp.cost[c].cutSquares + 2 * phiHat * cp.cost[c].cutSeconds);
            }
        }
        double cap = capacity(phiHat);
        double slack = 1e-12 * Math.max(1e-300, Math.abs(cap));
        double total = pick(0, delay, lo);
        unconstrained = total <= cap + slack;
        if (unconstrained) {
            fill(lo, lo, 1.0, theta);
            return true;
        }
        if (pick(Double.POSITIVE_INFINITY, delay, hi) > cap + slack) {
            return false;
        }
        double etaLo = 0;
        double etaHi = 1;
        for (int i = 0; i < 2000 && pick(etaHi, delay, hi) > cap; i++) {
            etaHi *= 2;
        }
        for (int i = 0; i < BISECTIONS; i++) {
            double mid = 0.5 * (etaLo + etaHi);
            if (pick(mid, delay, lo) > cap) {
                etaLo = mid;
            } else {
                etaHi = mid;
            }
        }
        double gLo = pick(etaLo, delay, lo);
        double gHi = pick(etaHi, delay, hi);
        double alpha = gLo > gHi ? Math.min(1, Math.max(0, (cap - gHi) / (gLo - gHi))) : 0;
        fill(lo, hi, alpha, theta);
        return true;
    }

    /** Each subgraph's best triplet for $a + \eta g$ (ties: smaller $g$, then lower index); returns $\sum g$. */
    private double pick(double eta, double[] delay, int[] out) {
        double total = 0;
        for (int s = 0; s < cp.subgraphs; s++) {
            int best = cp.first[s];
            for (int c = best + 1; c < cp.first[s + 1]; c++) {
                if (better(c, best, eta, delay, cp.beta[s] == 0)) {
                    best = c;
                }
            }
            out[s] = best;
            total += g[best];
        }
        return total;
    }

    private boolean better(int c, int best, double eta, double[] delay, boolean idle) {
        if (idle) {
            // a job class without traffic: no effect on the objective; keep its fastest triplet, least traffic first
            return delay[c] < delay[best] || (delay[c] == delay[best] && cp.cost[c].cutSeconds < cp.cost[best].cutSeconds);
        }
        if (Double.isInfinite(eta)) {
            return g[c] < g[best] || (g[c] == g[best] && a[c] < a[best]);
        }
        double vc = a[c] + eta * g[c];
        double vb = a[best] + eta * g[best];
        double tol = 1e-13 * Math.max(Math.abs(vc), Math.abs(vb));
        return vc < vb - tol || (Math.abs(vc - vb) <= tol && g[c] < g[best]);
    }

    private void fill(int[] pickLo, int[] pickHi, double alpha, double[] theta) {
        java.util.Arrays.fill(theta, 0);
        for (int s = 0; s < cp.subgraphs; s++) {
            theta[pickLo[s]] += alpha;
            theta[pickHi[s]] += 1 - alpha;
        }
    }
}
