package dev.nona.controller.drift;

import dev.nona.check.Checks;
import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * The exact conditional test for the equality of two Poisson rates: given $k_0$ events over exposure $T_0$ and $k$
 * over $T$, under $H_0: \beta = \beta_0$ the count $k$ conditioned on $n = k_0 + k$ is
 * $\mathrm{Binomial}(n, T / (T_0 + T))$, whatever the common rate. The two-sided p-value doubles the smaller tail,
 * $p = \min(1, 2 \min(P[X \le k], P[X \ge k]))$. Exact for every count (no normal approximation), so it stays honest
 * at the 1&ndash;2 requests/s where a window holds ten or twenty requests, and it accounts for the noise of the
 * baseline count as well as of the window's.
 *
 * <p>Based on: J. Przyborowski, H. Wilenski, "Homogeneity of results in testing samples from Poisson series",
 * Biometrika 31 (1940) 313&ndash;323; as in K. Krishnamoorthy, J. Thomson, "A more powerful test for comparing
 * two Poisson means", J. Statistical Planning and Inference 119 (2004) 23&ndash;35, Section 2 (the "C-test").
 * Uses Apache Commons Math's {@link BinomialDistribution}. Thread safe (stateless).
 */
final class RateTest {
    private RateTest() {}

    /**
     * The two-sided p-value of $H_0$: the same Poisson rate produced {@code k0} events over {@code t0} seconds
     * and {@code k} over {@code t} seconds. Implements the conditional test of Przyborowski &amp; Wilenski (1940):
     * $p = \min(1, 2\min(P[X \le k], P[X \ge k]))$ with $X \sim \mathrm{Binomial}(k_0 + k, t/(t_0 + t))$. 1 when
     * there are no events at all or no baseline exposure. Worked examples in {@code RateTestTest}.
     *
     * @param k0 baseline count, {@code >= 0}
     * @param t0 baseline exposure in seconds, {@code >= 0}
     * @param k  window count, {@code >= 0}
     * @param t  window exposure in seconds, {@code > 0}
     */
    static double pValue(long k0, double t0, long k, double t) {
        if (k0 < 0 || k < 0) {
            throw new IllegalArgumentException("counts (" + k0 + ", " + k + ") must be >= 0");
        }
        if (!(t0 >= 0) || !(t > 0) || Double.isInfinite(t0) || Double.isInfinite(t)) {
            throw new IllegalArgumentException("exposures (" + t0 + " s, " + t + " s) must be finite, t0 >= 0, t > 0");
        }
        long n = k0 + k;
        if (n == 0 || t0 == 0) {
            return 1.0;
        }
        if (n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("counts (" + k0 + " + " + k + ") exceed " + Integer.MAX_VALUE);
        }
        BinomialDistribution x = new BinomialDistribution(null, (int) n, t / (t0 + t));
        double lower = x.cumulativeProbability((int) k);
        double upper = 1 - x.cumulativeProbability((int) k - 1);
        return Math.min(1.0, 2 * Math.min(lower, upper));
    }

    /**
     * The one-sided p-value of $H_0: \beta/\beta_0 \ge \rho$ (when {@code atLeast}) or $H_0: \beta/\beta_0 \le \rho$
     * (otherwise), for {@code k0} events over {@code t0} seconds at rate $\beta_0$ and {@code k} over {@code t} at
     * $\beta$. Given $n = k_0 + k$, at the boundary $\beta = \rho\beta_0$ the count $k$ is
     * $X \sim \mathrm{Binomial}(n, \rho t/(t_0 + \rho t))$, and $k$ grows with the ratio, so
     * $p = P[X \le k]$ against "at least $\rho$" and $p = P[X \ge k]$ against "at most $\rho$". Implements the
     * conditional test of a ratio of two Poisson means (the C-test of Krishnamoorthy &amp; Thomson 2004, Section 2,
     * with $H_0: \lambda_1/\lambda_2 \le c$ there; Przyborowski &amp; Wilenski 1940), exact for every count.
     * 1 when there are no events at all or no baseline exposure. Worked examples in {@code RateTestTest}.
     *
     * @param rho     the ratio at the boundary of $H_0$, finite and {@code > 0}
     * @param atLeast whether $H_0$ is "the ratio is at least {@code rho}" (else "at most")
     */
    static double pValueRatio(long k0, double t0, long k, double t, double rho, boolean atLeast) {
        pValue(k0, t0, k, t); // validates the counts and exposures
        Checks.positive(rho, "rate ratio");
        long n = k0 + k;
        if (n == 0 || t0 == 0) {
            return 1.0;
        }
        BinomialDistribution x = new BinomialDistribution(null, (int) n, rho * t / (t0 + rho * t));
        return atLeast ? x.cumulativeProbability((int) k) : 1 - x.cumulativeProbability((int) k - 1);
    }
}
