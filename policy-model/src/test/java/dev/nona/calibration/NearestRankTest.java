package dev.nona.calibration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

final class NearestRankTest {

    @Test
    void hundredValues_pXIsTheXthValue() {
        long[] oneToHundred = LongStream.rangeClosed(1, 100).toArray();
        assertThat(NearestRank.of(oneToHundred, 0.50)).isEqualTo(50);
        assertThat(NearestRank.of(oneToHundred, 0.90)).isEqualTo(90);
        assertThat(NearestRank.of(oneToHundred, 0.99)).isEqualTo(99);
        assertThat(NearestRank.of(oneToHundred, 1.0)).isEqualTo(100);
        assertThat(NearestRank.of(oneToHundred, 0.0)).isEqualTo(1);
    }

    @Test
    void threeValues_p99IsTheLargest_andP50TheMiddle() {
        double[] xs = {0.1, 0.2, 0.7};
        assertThat(NearestRank.of(xs, 0.99)).isEqualTo(0.7);
        assertThat(NearestRank.of(xs, 0.5)).isEqualTo(0.2);
        assertThat(NearestRank.of(xs, 0.34)).isEqualTo(0.2); // ceil(1.02) = 2
        assertThat(NearestRank.of(xs, 0.33)).isEqualTo(0.1); // ceil(0.99) = 1
    }

    @Test
    void index_isZeroBased_andAgreesWithTheSketchsRank() {
        assertThat(NearestRank.index(1, 0.99)).isZero();
        assertThat(NearestRank.index(1_000, 0.999)).isEqualTo(998);
        assertThat(NearestRank.index(7, 0.0)).isZero();
    }

    @Test
    void empty_isNaN_forDoubles() {
        assertThat(NearestRank.of(new double[0], 0.99)).isNaN();
    }

    @Test
    void badQuantileOrCount_isRejected_namingTheValue() {
        assertThatThrownBy(() -> NearestRank.index(10, 1.5)).hasMessage("quantile (1.5) must be in [0, 1]");
        assertThatThrownBy(() -> NearestRank.index(10, Double.NaN)).hasMessage("quantile (NaN) must be in [0, 1]");
        assertThatThrownBy(() -> NearestRank.of(new double[0], -0.1))
                .hasMessage("quantile (-0.1) must be in [0, 1]");
        assertThatThrownBy(() -> NearestRank.index(0, 0.5)).hasMessage("values (0) must be >= 1");
        assertThatThrownBy(() -> NearestRank.of(new long[0], 0.5)).hasMessage("values (0) must be >= 1");
    }
}
