package dev.nona.modelaware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The thesis's Section 6.3 figures: 8 machines, break-even at a 0.01 s per-request difference. */
final class ColdStartAmortizationTest {
    @Test
    void breakEven_thesisFigures() {
        assertThat(ColdStartAmortization.breakEvenRequests(8, 3, 0.01)).isEqualTo(2100); // t5-small
        assertThat(ColdStartAmortization.breakEvenRequests(8, 6, 0.01)).isEqualTo(4200); // t5-base
        assertThat(ColdStartAmortization.breakEvenRequests(8, 17, 0.01)).isEqualTo(11900); // t5-large
    }

    @Test
    void expectedColdStarts_tenRequestsOnEightServers() {
        // 8 (1 - (7/8)^10) = 5.8954; the thesis observed 5.
        assertThat(ColdStartAmortization.expectedColdStartsUniform(8, 10)).isCloseTo(5.8954, within(1e-4));
        assertThat(ColdStartAmortization.expectedColdStartsUniform(8, 1)).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void expectedGap_fallsBelowTheBoundAndUnderEpsilonAt2100() {
        double gap = ColdStartAmortization.expectedAverageGapSeconds(8, 2100, 3);
        assertThat(gap).isLessThanOrEqualTo(0.01).isCloseTo(0.01, within(1e-6));
    }

    @Test
    void badInput_isRejected() {
        assertThatThrownBy(() -> ColdStartAmortization.breakEvenRequests(8, 3, 0)).hasMessageContaining("epsilon (0.0)");
        assertThatThrownBy(() -> ColdStartAmortization.expectedColdStartsUniform(0, 3)).hasMessageContaining("servers (0)");
    }
}
