package dev.nona.dag;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Nona's Table II counts, reproduced on PipeDream's own graphs. */
final class PipeDreamModelsTest {

    @Test
    void analyse_alexnet_contractsTwentyThreeTasksToOne() {
        DagStats stats = DagAnalysis.analyse(SharedDags.read("alexnet")).stats();

        assertThat(stats.tasks()).isEqualTo(23);
        assertThat(stats.contractedTasks()).isEqualTo(1);
        assertThat(stats.subgraphs()).isZero();
        assertThat(stats.variables()).isZero();
    }

    @Test
    void analyse_resnet18_givesTenTasksThreeSubgraphsFifteenVariables() {
        DagStats stats = DagAnalysis.analyse(SharedDags.read("resnet18")).stats();

        assertThat(stats.tasks()).isEqualTo(71);
        assertThat(stats.contractedTasks()).isEqualTo(10);
        assertThat(stats.subgraphs()).isEqualTo(3);
        assertThat(stats.variables()).isEqualTo(15);
        assertThat(stats.capped()).isFalse();
    }
}
