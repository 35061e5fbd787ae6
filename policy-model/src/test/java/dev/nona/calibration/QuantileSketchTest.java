package dev.nona.calibration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

final class QuantileSketchTest {

    @Test
    void workedExample_oneToHundred_p50Is50AndP99Is99WithinOnePercent() {
        QuantileSketch sketch = new QuantileSketch();
        for (int i = 1; i <= 100; i++) {
            sketch.add(i);
        }
        // nearest rank: p50 is the 50th value, p99 the 99th
        assertThat(sketch.quantile(0.5)).isCloseTo(50, within(0.5));
        assertThat(sketch.quantile(0.99)).isCloseTo(99, within(0.99));
        assertThat(sketch.quantile(1.0)).isCloseTo(100, within(1.0));
        assertThat(sketch.quantile(0.0)).isCloseTo(1, within(0.01));
        assertThat(sketch.count()).isEqualTo(100);
    }

    @Test
    void workedExample_bucketValue() {
        // alpha 1%: gamma = 1.01/0.99; 2.0 goes to bucket ceil(ln 2 / ln gamma) = ceil(34.65) = 35,
        // returned as 2 gamma^35 / (gamma + 1)
        QuantileSketch sketch = new QuantileSketch(0.01, 100);
        sketch.add(2.0);
        double gamma = 1.01 / 0.99;
        assertThat(sketch.quantile(0.99)).isCloseTo(2 * Math.pow(gamma, 35) / (gamma + 1), within(1e-12));
    }

    @Test
    void threeValues_p99IsTheLargest() {
        QuantileSketch sketch = new QuantileSketch();
        sketch.add(2);
        sketch.add(6);
        sketch.add(4);
        assertThat(sketch.quantile(0.99)).isCloseTo(6, within(0.06));
    }

    @Test
    void randomValues_everyQuantileWithinTheRelativeAccuracyOfTheExactOne() {
        Random random = new Random(42);
        double[] values = new double[10_000];
        QuantileSketch sketch = new QuantileSketch(0.01, 2048);
        for (int i = 0; i < values.length; i++) {
            values[i] = Math.exp(random.nextGaussian() * 2); // log-normal, spans several decades
            sketch.add(values[i]);
        }
        Arrays.sort(values);
        for (double q : new double[] {0.01, 0.1, 0.5, 0.9, 0.99, 0.999}) {
            double exact = values[(int) Math.ceil(q * values.length) - 1];
            assertThat(sketch.quantile(q)).as("q=%s", q).isCloseTo(exact, within(exact * 0.01 + 1e-12));
        }
    }

    @Test
    void merge_isTheSketchOfTheUnion() {
        QuantileSketch a = new QuantileSketch();
        QuantileSketch b = new QuantileSketch();
        QuantileSketch union = new QuantileSketch();
        for (int i = 1; i <= 50; i++) {
            a.add(i * 0.1);
            b.add(i * 3.0);
            union.add(i * 0.1);
            union.add(i * 3.0);
        }
        a.merge(b);
        assertThat(a.state()).isEqualTo(union.state());
        assertThat(a.quantile(0.99)).isEqualTo(union.quantile(0.99));
    }

    @Test
    void zeros_countBelowEverything() {
        QuantileSketch sketch = new QuantileSketch();
        sketch.add(0);
        sketch.add(0);
        sketch.add(5);
        assertThat(sketch.quantile(0.5)).isZero();
        assertThat(sketch.quantile(0.99)).isCloseTo(5, within(0.05));
    }

    @Test
    void bounded_lowestBucketsCollapse_highQuantilesKept() {
        QuantileSketch sketch = new QuantileSketch(0.01, 10);
        for (int i = 1; i <= 1000; i++) {
            sketch.add(i);
        }
        assertThat(sketch.state().buckets()).hasSize(10);
        assertThat(sketch.count()).isEqualTo(1000);
        assertThat(sketch.quantile(0.999)).isCloseTo(999, within(9.99));
    }

    @Test
    void restore_givesTheSameSketch() {
        QuantileSketch sketch = new QuantileSketch();
        for (int i = 0; i < 20; i++) {
            sketch.add(i * 0.25);
        }
        QuantileSketch restored = QuantileSketch.restore(sketch.state());
        assertThat(restored.state()).isEqualTo(sketch.state());
        assertThat(restored.count()).isEqualTo(20);
        assertThat(restored.quantile(0.9)).isEqualTo(sketch.quantile(0.9));
    }

    @Test
    void empty_quantileIsNaN_badValuesRejected() {
        QuantileSketch sketch = new QuantileSketch();
        assertThat(sketch.quantile(0.99)).isNaN();
        assertThatThrownBy(() -> sketch.add(-1)).hasMessage("value (-1.0) must be finite and >= 0");
        assertThatThrownBy(() -> sketch.add(Double.NaN)).hasMessage("value (NaN) must be finite and >= 0");
        assertThatThrownBy(() -> sketch.quantile(1.5)).hasMessage("quantile (1.5) must be in [0, 1]");
    }
}
