package dev.nona.controller.rates;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.apache.flink.api.common.typeinfo.Types;
import org.junit.jupiter.api.Test;

final class RateEstimatorTest {
    private static KeyedOneInputStreamOperatorTestHarness<String, String, RateEstimate> harness() throws Exception {
        return ProcessFunctionTestHarnesses.forKeyedProcessFunction(new RateEstimator(1000), m -> m, Types.STRING);
    }

    @Test
    void window_countsPerModel_emitsRateWhenWatermarkPasses() throws Exception {
        try (var h = harness()) {
            for (int i = 0; i < 30; i++) {
                h.processElement("resnet", 100L + i);
            }
            for (int i = 0; i < 5; i++) {
                h.processElement("vgg", 500L + i);
            }
            assertThat(h.extractOutputValues()).isEmpty();
            h.processWatermark(new Watermark(999));
            assertThat(h.extractOutputValues()).containsExactlyInAnyOrder(
                    RateEstimate.of("resnet", 0, 1000, 30), RateEstimate.of("vgg", 0, 1000, 5));
            assertThat(h.extractOutputValues().get(0).ratePerSecond()).isIn(30.0, 5.0);
        }
    }

    @Test
    void quietModel_emitsOneZeroWindow_thenHoldsNoStateAndNoTimers() throws Exception {
        try (var h = harness()) {
            h.processElement("resnet", 10L);
            h.processElement("resnet", 1500L);
            assertThat(h.numKeyedStateEntries()).as("one map state for the one model").isEqualTo(1);
            assertThat(h.numEventTimeTimers()).as("one timer per open window").isEqualTo(2);
            h.processWatermark(new Watermark(10_000));
            List<RateEstimate> out = h.extractOutputValues();
            assertThat(out).containsExactly(
                    RateEstimate.of("resnet", 0, 1000, 1),
                    RateEstimate.of("resnet", 1000, 2000, 1),
                    RateEstimate.of("resnet", 2000, 3000, 0));
            assertThat(h.numKeyedStateEntries()).isZero();
            assertThat(h.numEventTimeTimers()).isZero();
        }
    }

    @Test
    void lateRequest_isNotCounted_andLeavesNoState() throws Exception {
        try (var h = harness()) {
            h.processWatermark(new Watermark(2500));
            h.processElement("resnet", 1200L);
            assertThat(h.extractOutputValues()).isEmpty();
            assertThat(h.numKeyedStateEntries()).isZero();
            assertThat(h.numEventTimeTimers()).isZero();
        }
    }

    @Test
    void state_isBoundedByOpenWindows_notByRequests() throws Exception {
        try (var h = harness()) {
            for (int i = 0; i < 100_000; i++) {
                h.processElement("m" + (i % 4), (long) (i % 1000));
            }
            assertThat(h.numKeyedStateEntries()).isEqualTo(4);
            assertThat(h.numEventTimeTimers()).isEqualTo(4);
        }
    }
}
