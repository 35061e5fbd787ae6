package dev.nona.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

final class LinkModelTest {

    @Test
    void workedExample_figure1Edge_serviceTimeIsOneMillisecond() {
        // 10 MB = 8e7 bits over 80 Gbps
        assertThat(LinkModel.serviceTime(8e7, 80e9)).isCloseTo(1.0e-3, within(1e-15));
    }

    @Test
    void workedExample_pkFormula_twoStreams() {
        // stream A: lambda 100/s, S 2 ms; stream B: lambda 300/s, S 1 ms
        double rho = LinkModel.load(100, 2e-3) + LinkModel.load(300, 1e-3); // 0.2 + 0.3 = 0.5
        double sumLambdaS2 = 100 * 4e-6 + 300 * 1e-6; // 7e-4
        double phi = LinkModel.phi(sumLambdaS2, rho);
        assertThat(rho).isCloseTo(0.5, within(1e-12));
        assertThat(phi).isCloseTo(7e-4, within(1e-12)); // 7e-4 / (2 * 0.5)
        assertThat(LinkModel.c(phi, 2e-3)).isCloseTo(2.7e-3, within(1e-12));
    }

    @Test
    void workedExample_mD1_matchesTextbook() {
        // M/D/1: W = rho S / (2 (1 - rho)); S = 1 ms, rho = 0.95 -> 9.5 ms
        double lambda = 950, s = 1e-3;
        assertThat(LinkModel.phi(lambda * s * s, lambda * s)).isCloseTo(9.5e-3, within(1e-12));
    }

    @Test
    void lambda_isRateTimesCutProbability() {
        assertThat(LinkModel.lambda(200, 0.25)).isEqualTo(50.0);
    }

    @Test
    void phi_unstableLink_isInfinite() {
        assertThat(LinkModel.phi(1e-3, 1.0)).isInfinite();
        assertThat(LinkModel.phi(1e-3, 1.5)).isInfinite();
        assertThat(LinkModel.phi(1e-3, Double.NaN)).isInfinite();
    }
}
