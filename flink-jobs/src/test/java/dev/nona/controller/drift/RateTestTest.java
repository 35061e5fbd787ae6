package dev.nona.controller.drift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

final class RateTestTest {
    @Test
    void pValue_workedExamples() {
        // 10 then 20 requests in two 10 s windows: X ~ Bin(30, 1/2), p = 2 P[X >= 20] = 0.098737...
        assertThat(RateTest.pValue(10, 10, 20, 10)).isCloseTo(0.0987371467, within(1e-9));
        // 200 then 251 (20 req/s, just past +25%) with a one-window baseline: not significant at 0.002
        assertThat(RateTest.pValue(200, 10, 251, 10)).isCloseTo(0.0184534052, within(1e-9));
        // the same window against a minute of baseline (1,200 over 60 s): X ~ Bin(1451, 1/7)
        assertThat(RateTest.pValue(1200, 60, 251, 10)).isCloseTo(0.0015532921, within(1e-9));
    }

    @Test
    void pValue_noEvidence_isOne() {
        assertThat(RateTest.pValue(5, 10, 5, 10)).isEqualTo(1.0);
        assertThat(RateTest.pValue(0, 10, 0, 10)).isEqualTo(1.0);
        assertThat(RateTest.pValue(7, 0, 3, 10)).as("no baseline exposure").isEqualTo(1.0);
    }

    @Test
    void pValue_badInput_namesTheValues() {
        assertThatThrownBy(() -> RateTest.pValue(-1, 10, 3, 10)).hasMessageContaining("-1");
        assertThatThrownBy(() -> RateTest.pValue(1, 10, 3, 0)).hasMessageContaining("0.0 s");
        assertThatThrownBy(() -> RateTest.pValue(1, Double.NaN, 3, 10)).hasMessageContaining("NaN");
    }
}
