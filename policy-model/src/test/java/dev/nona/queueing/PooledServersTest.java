package dev.nona.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class PooledServersTest {

    @Test
    void erlangC_workedExample_twoServersHalfLoaded_isOneThird() {
        // N = 2, a = 1: B(1) = 1/2, B(2) = (1 * 1/2) / (2 + 1/2) = 0.2; C = 0.2 / (1 - 0.5 * 0.8) = 1/3
        // (M/M/2 at rho = 1/2: P(wait) = 2 rho^2 / (1 + rho) = 1/3)
        assertThat(PooledServers.erlangC(2, 1.0)).isCloseTo(1.0 / 3, within(1e-15));
        assertThat(PooledServers.erlangC(1, 0.7)).as("M/M/1: P(wait) = rho").isCloseTo(0.7, within(1e-15));
        assertThat(PooledServers.erlangC(80, 0)).isZero();
        assertThat(PooledServers.erlangC(4, 4)).isEqualTo(1);
    }

    @Test
    void erlangC_stoppingWhereBUnderflows_isTheFullRecursionToTheBit() {
        // a light load on many servers: B(k, a) ~ a^k / k! reaches 0 (below 4.9e-324) long before k = N
        double[][] cases = {{10_000, 1}, {10_000, 150}, {500, 5}, {500, 0.01}, {500, 450}, {80, 17}, {3, 2.5}};
        for (double[] c : cases) {
            int n = (int) c[0];
            double a = c[1];
            double b = 1;
            for (int k = 1; k <= n; k++) { // the recursion of the method's comment, every step
                b = a * b / (k + a * b);
            }
            double full = b / (1 - a / n * (1 - b));
            assertThat(PooledServers.erlangC(n, a)).as("N = %d, a = %s", n, a).isEqualTo(full);
        }
        assertThat(PooledServers.erlangC(10_000, 1)).as("underflowed").isZero();
        assertThat(PooledServers.erlangC(500, 450)).as("not underflowed").isPositive();
    }

    @Test
    void waits_workedExample_allenCunneen_mixOfTwoSizes() {
        // N = 2; customers of 0.5 s and 1.5 s at 0.5/s each: lambda = 1, E[S] = 1, a = 1, u = 0.5, C = 1/3;
        // E[S^2] = (0.25 + 2.25) / 2 = 1.25, C_s^2 = 0.25; W_q(M/M/2) = C * E[S] / (N (1 - u)) = 1/3;
        // Allen-Cunneen: m = (1 + 0.25) / 2 * 1 = 0.625 s, W_q = 0.625 / 3 = 0.208333 s
        PooledWait w = PooledServers.waits(2, 0.5 * 0.5 + 0.5 * 1.5, 0.5 * 0.25 + 0.5 * 2.25, 1.0);
        assertThat(w.probability()).isCloseTo(1.0 / 3, within(1e-15));
        assertThat(w.conditionalMean()).isCloseTo(0.625, within(1e-15));
        assertThat(w.mean()).isCloseTo(0.625 / 3, within(1e-15));
    }

    @Test
    void waits_oneServerExponentialSizes_isExactMM1() {
        // N = 1, C_s^2 = 1 (E[S^2] = 2 E[S]^2): Allen-Cunneen is exact for M/M/1, W_q = rho E[S] / (1 - rho)
        double lambda = 0.8;
        double s = 1.0;
        PooledWait w = PooledServers.waits(1, lambda * s, lambda * 2 * s * s, lambda);
        assertThat(w.mean()).isCloseTo(0.8 / 0.2, within(1e-12));
    }

    @Test
    void waits_overloadedOrIdle() {
        assertThat(PooledServers.waits(2, 2.0, 2.0, 1.0).finite()).isFalse();
        assertThat(PooledServers.waits(2, 0, 0, 0)).isEqualTo(PooledWait.NONE);
        assertThatThrownBy(() -> PooledServers.waits(0, 1, 1, 1)).hasMessageContaining("servers (0)");
        assertThatThrownBy(() -> new PooledWait(1.5, 1)).hasMessageContaining("probability of waiting (1.5)");
    }

    @Test
    void reuseProbability_workedExamples() {
        // N = 2, u = 0.11: a = 0.22 busy on average; lambda = 10/s, Delta = 11 ms: lambda Delta = 0.11;
        // P(Poisson(0.33) >= 2) = 1 - e^{-0.33} (1 + 0.33)
        assertThat(PooledServers.reuseProbability(0.011, 2, 0.11, 10)).isCloseTo(1 - Math.exp(-0.33) * 1.33, within(1e-15));
        // zoo at load 0.1 (N = 80, 54 requests/s, Delta = 0.16 s): P(Poisson(8 + 8.64) >= 80), about 1e-28
        assertThat(PooledServers.reuseProbability(0.16, 80, 0.1, 54)).isLessThan(1e-20);
        // load 0.9: P(Poisson(72 + 78) >= 80): taken but for about 1.3e-10
        assertThat(PooledServers.reuseProbability(0.16, 80, 0.9, 488)).isBetween(1 - 1e-9, 1 - 1e-11);
        assertThat(PooledServers.reuseProbability(0.16, 80, 1.0, 488)).isEqualTo(1);
        // no delay: the busy servers alone, P(Poisson(1) >= 2) = 1 - 2/e
        assertThat(PooledServers.reuseProbability(0, 2, 0.5, 100)).isCloseTo(1 - 2 / Math.E, within(1e-15));
        assertThat(PooledServers.reuseProbability(0, 2, 0, 0)).isZero();
    }

    @Test
    void remotePartWait_workedExample_residualOfTheTaskInService() {
        // every task: sum lambda s = 0.22, sum lambda s^2 = 2.02e-3 on 2 servers: u = 0.11, R = 2.02e-3 / 2 / 2 = 5.05e-4,
        // mean residual of the task in service R / u = 4.590909e-3 s; waits only if taken (probability 0.3)
        PooledWait w = PooledServers.remotePartWait(0.3, 0.22, 2.02e-3, 2);
        assertThat(w.probability()).isEqualTo(0.3);
        assertThat(w.conditionalMean()).isCloseTo(4.590909e-3, within(1e-9));
        assertThat(PooledServers.remotePartWait(0, 0.22, 2.02e-3, 2)).isEqualTo(PooledWait.NONE);
        assertThat(PooledServers.remotePartWait(0.3, 2.2, 2.02e-3, 2).finite()).isFalse();
    }

    @Test
    void expectedMax_workedExamples() {
        double[] s = new double[4];
        // one branch: a + P m = 2 + 0.5 * 1
        assertThat(PooledServers.expectedMax(1, new double[] {2}, 1, new PooledWait(0.5, 1), s)).isCloseTo(2.5, within(1e-15));
        // two equal branches always waiting: the maximum of two exponentials of mean m is 3m/2
        assertThat(PooledServers.expectedMax(0, new double[] {1, 1}, 2, new PooledWait(1, 2), s)).isCloseTo(1 + 3, within(1e-14));
        // E[max(3, 1 + Y)] = 3 + E[(Y - 2)^+] = 3 + e^{-2} for Y exponential of mean 1
        assertThat(PooledServers.expectedMax(3, new double[] {1}, 1, new PooledWait(1, 1), s)).isCloseTo(3 + Math.exp(-2), within(1e-15));
        // no waiting: the deterministic maximum
        assertThat(PooledServers.expectedMax(3, new double[] {4, 1}, 2, PooledWait.NONE, s)).isEqualTo(4);
    }

    @Test
    void expectedMax_matchesMonteCarlo() {
        double[] a = {0.010, 0.013, 0.004};
        double d = 0.011;
        PooledWait w = new PooledWait(0.4, 0.006);
        double exact = PooledServers.expectedMax(d, a, a.length, w, new double[4]);
        SplittableRandom rnd = new SplittableRandom(7);
        int n = 2_000_000;
        double sum = 0;
        for (int k = 0; k < n; k++) {
            double max = d;
            for (double ai : a) {
                double y = rnd.nextDouble() < w.probability() ? -w.conditionalMean() * Math.log(1 - rnd.nextDouble()) : 0;
                max = Math.max(max, ai + y);
            }
            sum += max;
        }
        // standard error below 3e-6 s (the spread of the maximum is below 0.006 s): 5 standard errors
        assertThat(exact).isCloseTo(sum / n, within(1.5e-5));
        assertThat(exact).isGreaterThan(0.013 + 0.4 * 0.006); // more than the slowest branch's mean
    }

    @Test
    void expectedMax_nonDecreasingInEveryBranch() {
        SplittableRandom rnd = new SplittableRandom(3);
        double[] s = new double[6];
        for (int k = 0; k < 2000; k++) {
            int count = 1 + rnd.nextInt(5);
            double[] a = new double[count];
            for (int i = 0; i < count; i++) {
                a[i] = rnd.nextDouble();
            }
            PooledWait w = new PooledWait(rnd.nextDouble(), rnd.nextDouble());
            double d = rnd.nextDouble();
            double before = PooledServers.expectedMax(d, a, count, w, s);
            a[rnd.nextInt(count)] += 0.01 * rnd.nextDouble();
            assertThat(PooledServers.expectedMax(d, a, count, w, s)).isGreaterThanOrEqualTo(before - 1e-12);
        }
    }
}
