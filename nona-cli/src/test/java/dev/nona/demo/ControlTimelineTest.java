package dev.nona.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class ControlTimelineTest {

    @Test
    void keepsTheTableStepsWithTheirCauses_andTheLearnedSpeeds() {
        ControlTimeline t = new ControlTimeline();
        t.accept(ControllerEvent.of(ControllerEventType.DRIFT_DETECTED, 10_500, Map.of("model", "gpt2")));
        t.accept(ControllerEvent.of(ControllerEventType.REOPTIMIZATION_STARTED, 11_000, Map.of("cause", "rate: gpt2")));
        t.accept(ControllerEvent.of(ControllerEventType.TABLE_PUBLISHED, 12_000,
                Map.of("cause", "rate: gpt2", "tableVersion", 2L)));
        t.accept(ControllerEvent.of(ControllerEventType.TABLE_REJECTED, 12_500,
                Map.of("cause", "rate: vgg16", "reason", "not better", "candidateObjective", 0.5, "currentObjective", 0.4)));
        t.accept(ControllerEvent.of(ControllerEventType.CALIBRATION, 12_000, Map.of("okOutcomes", 10,
                "observedMeanJctSeconds", 0.02, "predictedMeanJctSeconds", 0.01,
                "server.s-1.effectiveOpsPerSecond", 5.0e11, "server.s-1.parts", 7, "server.s-0.parts", 3)));
        t.accept(ControllerEvent.of(ControllerEventType.CALIBRATION, 14_000, Map.of("okOutcomes", 30,
                "observedMeanJctSeconds", 0.01, "predictedMeanJctSeconds", 0.01,
                "server.s-1.effectiveOpsPerSecond", 4.0e11)));

        assertThat(t.steps(10_000)).containsExactly(
                new DemoSummary.ControlStep(1.0, "REOPTIMIZATION_STARTED", 0, "rate: gpt2", "", Double.NaN, Double.NaN),
                new DemoSummary.ControlStep(2.0, "TABLE_PUBLISHED", 2, "rate: gpt2", "", Double.NaN, Double.NaN),
                new DemoSummary.ControlStep(2.5, "TABLE_REJECTED", 0, "rate: vgg16", "not better", 0.5, 0.4));
        assertThat(t.learnedSpeeds(10_000)).containsOnlyKeys("s-1")
                .containsEntry("s-1", new DemoSummary.LearnedSpeed(2.0, 5.0e11, 4.0e11, 2));
        // (10 * 0.02 + 30 * 0.01) / (40 * 0.01)
        assertThat(t.calibrationRatioSince(0)).isCloseTo(1.25, within(1e-12));
        assertThat(t.calibrationRatioSince(13_000)).isCloseTo(1.0, within(1e-12));
        assertThat(t.calibrationRatioSince(20_000)).isNaN();
    }
}
