package dev.nona.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Worked examples of $C = B + y + \min(n y, B)$ by hand. */
final class MarginalCostTest {
    @Test
    void workedExample_fewLongRequests_theDelayIsEachHeldUpByThePart() {
        // 2 requests holding 6 s together (3 s each left), a part of 1 s: each is held up by 1 s; its own finish 7 s
        assertThat(MarginalCost.seconds(6, 2, 1)).isCloseTo(7 + 2, within(1e-12));
    }

    @Test
    void workedExample_manyShortRequests_theDelayIsAtMostTheBacklog() {
        // 10 requests holding 2 s together (0.2 s each left), a part of 1 s: each is held up by its own 0.2 s, 2 s
        assertThat(MarginalCost.seconds(2, 10, 1)).isCloseTo(3 + 2, within(1e-12));
    }

    @Test
    void anIdleServer_costsThePartOnly() {
        assertThat(MarginalCost.seconds(0, 0, 1.5)).isEqualTo(1.5);
    }

    @Test
    void theOwnFinishAlone_picksTheFastServer_theMarginalCostTheIdleSlowOne() {
        // a fast server holding 4 requests with 1.6 s left together (0.4 s each), a part of 0.25 s there; an idle
        // slow server, 2 s there: 1.85 s against 2 s by the own finish (the fast one), 1.85 + min(4 * 0.25, 1.6) =
        // 2.85 s against 2 s by the marginal cost (the slow one)
        assertThat(MarginalCost.seconds(1.6, 0, 0.25)).as("counting no requests there: the own finish")
                .isCloseTo(1.85, within(1e-12)).isLessThan(MarginalCost.seconds(0, 0, 2));
        assertThat(MarginalCost.seconds(1.6, 4, 0.25)).isCloseTo(2.85, within(1e-12))
                .isGreaterThan(MarginalCost.seconds(0, 0, 2));
    }

    @Test
    void aPartThatMayNotRunThere_costsInfinity_evenOnAnEmptyServer() {
        assertThat(MarginalCost.seconds(0, 0, Double.POSITIVE_INFINITY)).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(MarginalCost.seconds(1, 2, Double.POSITIVE_INFINITY)).isEqualTo(Double.POSITIVE_INFINITY);
    }
}
