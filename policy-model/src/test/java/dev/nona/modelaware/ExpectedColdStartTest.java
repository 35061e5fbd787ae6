package dev.nona.modelaware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

final class ExpectedColdStartTest {
    @Test
    void warmFirst_workedExamples() {
        // 2 warm servers, target 3: 6 slots. lambda 4/s, 2 s each: L = 8 in flight, 2 of 8 overflow: p = 0.25.
        assertThat(ExpectedColdStart.probabilityWarmFirst(2, 3, 4, 2)).isCloseTo(0.25, within(1e-12));
        // Enough warm slots: never cold.
        assertThat(ExpectedColdStart.probabilityWarmFirst(3, 3, 4, 2)).isZero();
        // Nothing warm: always cold.
        assertThat(ExpectedColdStart.probabilityWarmFirst(0, 3, 4, 2)).isEqualTo(1.0);
    }

    @Test
    void uniform_andTheTerm() {
        assertThat(ExpectedColdStart.probabilityUniform(2, 8)).isCloseTo(0.75, within(1e-12));
        assertThat(ExpectedColdStart.seconds(0.25, 3)).isCloseTo(0.75, within(1e-12));
    }

    @Test
    void badInput_isRejected() {
        assertThatThrownBy(() -> ExpectedColdStart.probabilityUniform(9, 8)).hasMessageContaining("warmServers (9)");
        assertThatThrownBy(() -> ExpectedColdStart.seconds(1.5, 3)).hasMessageContaining("cold probability (1.5)");
    }
}
