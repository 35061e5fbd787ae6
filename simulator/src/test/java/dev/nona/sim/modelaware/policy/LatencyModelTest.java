package dev.nona.sim.modelaware.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import dev.nona.sim.modelaware.policy.LatencyModel;
import dev.nona.sim.modelaware.policy.LatencyModel.Strategy;
import dev.nona.sim.modelaware.policy.LatencyEstimates;
import org.junit.jupiter.api.Test;

/** Worked examples: the second request of each Section 6.4 scenario, with the thesis's t5-small times. */
final class LatencyModelTest {
    private static final double TOL = 1e-9;

    @Test
    void section641_postProcessingAndSlowNetwork_favourColocationWithoutQueuing() {
        // T_CS 3, T_I 1, T_P 5, T_N 5, one request in flight at the warm machine.
        var p = LatencyModel.predict(new LatencyEstimates(3, 1, 5, 5), 1);

        assertThat(p.colocation()).isCloseTo(9.0, within(TOL)); // max(3+1+5, 1*(1+5))
        assertThat(p.colocationWithQueuing()).isCloseTo(12.0, within(TOL)); // 2*(1+5)
        assertThat(p.registry()).isCloseTo(12.0, within(TOL)); // 5+1+5 + 1*1
        assertThat(p.best()).isEqualTo(Strategy.COLOCATION);
    }

    @Test
    void section642_noPostProcessing_favoursQueuing() {
        var p = LatencyModel.predict(new LatencyEstimates(3, 1, 0, 5), 1);

        assertThat(p.colocation()).isCloseTo(4.0, within(TOL));
        assertThat(p.colocationWithQueuing()).isCloseTo(2.0, within(TOL));
        assertThat(p.registry()).isCloseTo(7.0, within(TOL));
        assertThat(p.best()).isEqualTo(Strategy.COLOCATION_WITH_QUEUING);
    }

    @Test
    void section643_fastNetwork_favoursRegistry() {
        var p = LatencyModel.predict(new LatencyEstimates(3, 1, 5, 0.001), 1);

        assertThat(p.colocation()).isCloseTo(9.0, within(TOL));
        assertThat(p.colocationWithQueuing()).isCloseTo(12.0, within(TOL));
        assertThat(p.registry()).isCloseTo(7.001, within(TOL));
        assertThat(p.best()).isEqualTo(Strategy.REGISTRY);
    }

    @Test
    void colocation_manyInFlight_isBoundedByTheWarmProxysBacklog() {
        // n (T_Iavg + T_Pavg) = 4 * 3 = 12 > T_CS + T_I + T_P = 3 + 1 + 2
        assertThat(LatencyModel.colocation(3, 1, 2, 4, 1, 2)).isCloseTo(12.0, within(TOL));
    }

    @Test
    void negativeN_isRejected() {
        assertThatThrownBy(() -> LatencyModel.colocationWithQueuing(-1, 1, 1)).hasMessageContaining("n (-1)");
    }

    @Test
    void estimates_negativeTime_namesTheSymbol() {
        assertThatThrownBy(() -> new LatencyEstimates(3, -1, 0, 0)).hasMessageContaining("tI (-1.0)");
    }
}
