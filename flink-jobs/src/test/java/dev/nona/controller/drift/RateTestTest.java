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
    void pValueRatio_workedExamples() {
        // 500 requests in two windows against 200 in one: "at least +25%" is X ~ Bin(700, 25/35), p = P[X <= 500]
        assertThat(RateTest.pValueRatio(200, 10, 500, 20, 1.25, true)).isCloseTo(0.5143014432, within(1e-9));
        // 460 against a minute of 1,200 (ratio 1.15): X ~ Bin(1660, 25/85), P[X <= 460]; not rejected at 0.01
        assertThat(RateTest.pValueRatio(1200, 60, 460, 20, 1.25, true)).isCloseTo(0.0669691876, within(1e-9));
        // 330 against 1,200 (ratio 0.825), "at most -25%": X ~ Bin(1530, 1/5), p = P[X >= 330]
        assertThat(RateTest.pValueRatio(1200, 60, 330, 20, 0.75, false)).isCloseTo(0.0675461267, within(1e-9));
        // 100 req/s -> 110 req/s, one window each: +10% shown below +25%, X ~ Bin(2100, 5/9)
        assertThat(RateTest.pValueRatio(1000, 10, 1100, 10, 1.25, true)).isCloseTo(0.0018623998, within(1e-9));
    }

    @Test
    void pValueRatio_atRatioOne_isTheOneSidedTailOfTheEqualityTest() {
        double twoSided = RateTest.pValue(10, 10, 20, 10);
        assertThat(RateTest.pValueRatio(10, 10, 20, 10, 1.0, false)).isCloseTo(twoSided / 2, within(1e-12));
    }

    @Test
    void pValueRatio_badRatio_namesTheValue() {
        assertThatThrownBy(() -> RateTest.pValueRatio(1, 10, 3, 10, 0, true)).hasMessageContaining("rate ratio (0.0)");
        assertThatThrownBy(() -> RateTest.pValueRatio(1, 10, 3, 10, Double.NaN, true)).hasMessageContaining("NaN");
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
