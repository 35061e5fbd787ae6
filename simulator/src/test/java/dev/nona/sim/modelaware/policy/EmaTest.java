package dev.nona.sim.modelaware.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.nona.sim.modelaware.policy.Ema;
import org.junit.jupiter.api.Test;

final class EmaTest {
    @Test
    void observe_workedExample() {
        Ema ema = new Ema(0.5, 3.0);
        ema.observe(1.0); // 0.5*1 + 0.5*3 = 2
        ema.observe(4.0); // 0.5*4 + 0.5*2 = 3
        assertThat(ema.value()).isCloseTo(3.0, within(1e-12));
        assertThat(ema.observations()).isEqualTo(2);
    }

    @Test
    void badInput_isRejected() {
        assertThatThrownBy(() -> new Ema(0, 1)).hasMessageContaining("alpha (0.0)");
        assertThatThrownBy(() -> new Ema(0.3, 1).observe(Double.NaN)).hasMessageContaining("observed time (NaN)");
    }
}
