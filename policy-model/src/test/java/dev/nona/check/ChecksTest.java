package dev.nona.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.workload.WorkloadException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

final class ChecksTest {

    @Test
    void positive_double_returnsTheValue_rejectsZeroNegativeNanAndInfinity_namingRoleAndValue() {
        assertThat(Checks.positive(2.5, "link capacity")).isEqualTo(2.5);
        assertThatThrownBy(() -> Checks.positive(-1.0, "link capacity"))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("link capacity (-1.0) must be finite and > 0");
        for (double bad : new double[] {0, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> Checks.positive(bad, "x")).hasMessage("x (" + bad + ") must be finite and > 0");
        }
    }

    @Test
    void positive_duration_returnsTheValue_rejectsZeroAndNegative_namingRoleAndMillis() {
        assertThat(Checks.positive(Duration.ofSeconds(5), "half-life")).isEqualTo(Duration.ofSeconds(5));
        assertThatThrownBy(() -> Checks.positive(Duration.ZERO, "half-life"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("half-life (0ms) must be > 0");
        assertThatThrownBy(() -> Checks.positive(Duration.ofMillis(-250), "half-life"))
                .hasMessage("half-life (-250ms) must be > 0");
    }

    @Test
    void nonNegative_double_acceptsZero_rejectsNegativeNanAndInfinity() {
        assertThat(Checks.nonNegative(0.0, "delay")).isZero();
        for (double bad : new double[] {-0.5, Double.NaN, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> Checks.nonNegative(bad, "delay"))
                    .hasMessage("delay (" + bad + ") must be finite and >= 0");
        }
    }

    @Test
    void errorForms_throwTheCallersException() {
        assertThatThrownBy(() -> Checks.positive(0, "cluster.opsPerSecond", WorkloadException::new))
                .isExactlyInstanceOf(WorkloadException.class)
                .hasMessage("cluster.opsPerSecond (0.0) must be finite and > 0");
        assertThatThrownBy(() -> Checks.nonNegative(Double.NaN, "coldStart.seconds", WorkloadException::new))
                .isExactlyInstanceOf(WorkloadException.class)
                .hasMessage("coldStart.seconds (NaN) must be finite and >= 0");
    }

    @Test
    void positive_int_and_notBlank() {
        assertThat(Checks.positive(3, "cores")).isEqualTo(3);
        assertThatThrownBy(() -> Checks.positive(0, "cores")).hasMessage("cores (0) must be > 0");
        assertThat(Checks.notBlank("s1", "server id")).isEqualTo("s1");
        assertThatThrownBy(() -> Checks.notBlank(" ", "server id")).hasMessage("server id must not be blank");
        assertThatThrownBy(() -> Checks.notBlank(null, "server id"))
                .isExactlyInstanceOf(NullPointerException.class).hasMessage("server id");
    }

    @Test
    void atLeastOne_andPortOrZero_nameTheRoleAndValue() {
        assertThat(Checks.atLeastOne(1, "--jobs")).isEqualTo(1);
        assertThatThrownBy(() -> Checks.atLeastOne(0, "--jobs")).hasMessage("--jobs (0) must be >= 1");
        assertThat(Checks.portOrZero(0, "--port")).isZero();
        assertThat(Checks.portOrZero(65_535, "--port")).isEqualTo(65_535);
        assertThatThrownBy(() -> Checks.portOrZero(-1, "--port")).hasMessage("--port (-1) must be in 0..65535");
        assertThatThrownBy(() -> Checks.portOrZero(65_536, "--port")).hasMessage("--port (65536) must be in 0..65535");
    }
}
