package dev.nona.sim.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

final class LogHistogramTest {
    @Test
    void quantile_lognormalSample_withinRelativeAccuracyOfExact() {
        LogHistogram h = new LogHistogram(0.01);
        Random r = new Random(11);
        double[] xs = new double[100_000];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = Math.exp(r.nextGaussian() * 2 - 3);
            h.record(xs[i]);
        }
        Arrays.sort(xs);
        for (double q : new double[] {0.01, 0.5, 0.9, 0.99, 0.999}) {
            double exact = xs[(int) Math.ceil(q * xs.length) - 1];
            assertThat(h.quantile(q)).isCloseTo(exact, within(0.01 * exact + 1e-12));
        }
        assertThat(h.mean()).isCloseTo(Arrays.stream(xs).average().orElseThrow(), within(1e-9));
        assertThat(h.count()).isEqualTo(100_000);
    }

    @Test
    void record_negativeOrNaN_isRejectedNamingTheValue() {
        LogHistogram h = new LogHistogram();
        assertThatThrownBy(() -> h.record(-1)).hasMessageContaining("-1.0");
        assertThatThrownBy(() -> h.record(Double.NaN)).hasMessageContaining("NaN");
    }

    @Test
    void quantile_empty_isNaN() {
        assertThat(new LogHistogram().quantile(0.5)).isNaN();
    }
}
