package dev.nona.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

final class FastestIdleFirstTest {

    @Test
    void oneSpeed_isThatSpeedExactly_atEveryLoad() {
        for (double u : new double[] {0, 0.3, 0.99, 1.5}) {
            assertThat(FastestIdleFirst.effectiveSpeed(new int[] {3, 5}, new double[] {1.7e9, 1.7e9}, u)).isEqualTo(1.7e9);
        }
    }

    @Test
    void idleCluster_landsOnTheFastest_overloadedOnTheMeanSpeed() {
        int[] counts = {2, 2};
        double[] speeds = {1, 4};
        assertThat(FastestIdleFirst.effectiveSpeed(counts, speeds, 0)).isEqualTo(4.0);
        // every server busy: the first to free up, class c with probability K_c / C: 1/tau = C / N = 10 / 4
        assertThat(FastestIdleFirst.effectiveSpeed(counts, speeds, 1)).isEqualTo(2.5);
    }

    @Test
    void workedExample_twoServers_halfLoaded() {
        // one server of speed 2 and one of speed 1, u = 0.5: x = 1.5 ops/s all on the fast one (busy 0.75);
        // B1 = C(1, 0.75) = 0.75 (M/M/1: rho); B2 = C(2, 0.75) = 2 rho^2 / (1 + rho), rho = 0.375: 0.2045454545;
        // tau = (1 - 0.75)/2 + (0.75 - 0.2045454545)/1 + 0.2045454545/1.5 = 0.8068181818
        double b2 = 2 * 0.375 * 0.375 / 1.375;
        double tau = 0.25 / 2 + (0.75 - b2) + b2 / 1.5;
        assertThat(tau).isCloseTo(0.8068181818, within(1e-9));
        assertThat(FastestIdleFirst.effectiveSpeed(new int[] {1, 1}, new double[] {1, 2}, 0.5)).isCloseTo(1 / tau, within(1e-12));
    }

    @Test
    void effectiveSpeed_movesFromFastestToMean_withinTheClassesSpeeds() {
        int[] counts = {10, 30, 40};
        double[] speeds = {4e12, 2e12, 1e12};
        assertThat(FastestIdleFirst.effectiveSpeed(counts, speeds, 0)).isEqualTo(4e12);
        double atHalf = FastestIdleFirst.effectiveSpeed(counts, speeds, 0.5);
        double atNinety = FastestIdleFirst.effectiveSpeed(counts, speeds, 0.9);
        // at u = 0.5 the fast class (40e12 of 140e12 ops/s) is saturated: parts land on the 2e12 class and below
        assertThat(atHalf).isBetween(1e12, 2.5e12);
        assertThat(atNinety).isBetween(1e12, atHalf);
        for (int i = 0; i <= 20; i++) {
            assertThat(FastestIdleFirst.effectiveSpeed(counts, speeds, i / 20.0)).isBetween(1e12, 4e12);
        }
        assertThat(FastestIdleFirst.effectiveSpeed(counts, speeds, 1)).isEqualTo(140e12 / 80);
    }

    @Test
    void badInput_namesTheValue() {
        assertThatThrownBy(() -> FastestIdleFirst.effectiveSpeed(new int[] {1}, new double[] {1}, Double.NaN))
                .hasMessageContaining("utilisation u (NaN)");
        assertThatThrownBy(() -> FastestIdleFirst.effectiveSpeed(new int[] {0}, new double[] {1}, 0.5))
                .hasMessageContaining("count (0)");
        assertThatThrownBy(() -> FastestIdleFirst.effectiveSpeed(new int[] {1}, new double[] {1, 2}, 0.5))
                .hasMessageContaining("equally many");
    }
}
