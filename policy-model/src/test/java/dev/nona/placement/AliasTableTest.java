package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class AliasTableTest {

    @Test
    void sample_frequenciesMatchWeights() {
        double[] w = {0.5, 0.0, 0.2, 0.3};
        AliasTable t = new AliasTable(w);
        SplittableRandom rnd = new SplittableRandom(7);
        int n = 400_000;
        int[] counts = new int[w.length];
        for (int i = 0; i < n; i++) {
            counts[t.sample(rnd)]++;
        }
        for (int i = 0; i < w.length; i++) {
            // 4 standard deviations of a binomial proportion at n = 400k is < 0.004
            assertThat(counts[i] / (double) n).isCloseTo(w[i], within(0.004));
        }
        assertThat(counts[1]).isZero();
    }

    @Test
    void sample_unnormalisedWeights_areNormalised() {
        AliasTable t = new AliasTable(new double[] {3, 1});
        SplittableRandom rnd = new SplittableRandom(11);
        int zeros = 0;
        for (int i = 0; i < 100_000; i++) {
            zeros += t.sample(rnd) == 0 ? 1 : 0;
        }
        assertThat(zeros / 100_000.0).isCloseTo(0.75, within(0.006));
    }

    @Test
    void sample_singleOutcome_alwaysZero() {
        AliasTable t = new AliasTable(new double[] {2});
        assertThat(t.sample(new SplittableRandom(1))).isZero();
    }

    @Test
    void badWeights_areRejectedWithValue() {
        assertThatThrownBy(() -> new AliasTable(new double[] {1, -0.5})).hasMessage("weight 1 (-0.5) must be finite and >= 0");
        assertThatThrownBy(() -> new AliasTable(new double[] {0, 0})).hasMessageContaining("sum to 0.0");
        assertThatThrownBy(() -> new AliasTable(new double[] {Double.NaN})).hasMessageContaining("NaN");
    }
}
