package dev.nona.sim.modelaware;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** adaptive beyond the thesis's three scenarios, on a reduced grid (the full one is the experiment). */
final class AdaptiveSweepExperimentTest {
    @Test
    void reducedGrid_adaptiveMostlyMatchesTheBestAndNeverFallsFarBehind() {
        var grid = new AdaptiveSweepExperiment.Grid(List.of(1.0, 3.0, 30.0), List.of(0.0, 5.0), List.of(0.001, 5.0),
                List.of(false, true), List.of(2, 6), 2);

        List<AdaptiveSweepExperiment.Cell> cells = new AdaptiveSweepExperiment().run(grid);

        assertThat(cells).hasSize(48);
        assertThat(AdaptiveSweepExperiment.withinShare(cells, 0.05)).isGreaterThanOrEqualTo(0.9);
        assertThat(AdaptiveSweepExperiment.worstRatio(cells)).isLessThanOrEqualTo(1.25);
    }
}
