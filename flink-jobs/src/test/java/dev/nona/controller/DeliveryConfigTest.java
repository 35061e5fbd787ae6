package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.junit.jupiter.api.Test;

/** {@code decisions.delivery} and the latency settings: defaults, parsing, validation, where they go. */
final class DeliveryConfigTest {
    @Test
    void defaults_atLeastOnce_noLinger_oneMillisecondBufferTimeout() {
        ControllerConfig c = ControllerConfig.withBootstrap("b");
        assertThat(c.delivery()).isEqualTo(DecisionDelivery.AT_LEAST_ONCE);
        assertThat(KafkaIo.decisionGuarantee(c)).isEqualTo(DeliveryGuarantee.AT_LEAST_ONCE);
        assertThat(c.decisionsLinger()).isEqualTo(Duration.ZERO);
        assertThat(ControllerEnvironment.configuration(c).get(ExecutionOptions.BUFFER_TIMEOUT))
                .isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void decisionsProducer_largeBatches_oneRequestInFlight_noLinger() {
        ControllerConfig c = ControllerConfig.withBootstrap("b");
        assertThat(KafkaIo.decisionProducerSettings(c)).containsEntry("linger.ms", "0")
                .containsEntry("batch.size", String.valueOf(256 * 1024))
                .containsEntry("max.in.flight.requests.per.connection", "1");
        ControllerConfig lingering = ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "decisions.linger", "2ms"));
        assertThat(KafkaIo.decisionProducerSettings(lingering)).containsEntry("linger.ms", "2");
    }

    @Test
    void exactlyOnce_isTheTransactionalSink() {
        ControllerConfig c = ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "decisions.delivery", "exactly-once",
                "checkpoint.interval", "100ms"));
        assertThat(c.delivery()).isEqualTo(DecisionDelivery.EXACTLY_ONCE);
        assertThat(KafkaIo.decisionGuarantee(c)).isEqualTo(DeliveryGuarantee.EXACTLY_ONCE);
    }

    @Test
    void atLeastOnce_withoutCheckpoints_isAllowed() {
        ControllerConfig c = ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "checkpoint.interval", "0"));
        assertThat(KafkaIo.decisionGuarantee(c)).isEqualTo(DeliveryGuarantee.AT_LEAST_ONCE);
    }

    @Test
    void badValues_nameTheKeyAndValue() {
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "decisions.delivery", "twice")))
                .hasMessage("decisions.delivery (twice) must be at-least-once or exactly-once");
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "decisions.delivery",
                "exactly-once", "checkpoint.interval", "0")))
                .hasMessageStartingWith("decisions.delivery (exactly-once) needs checkpoints, but checkpoint.interval is 0");
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "decisions.linger", "-1")))
                .hasMessage("decisions.linger (-1ms) must be >= 0");
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "network.buffer-timeout", "soon")))
                .hasMessage("network.buffer-timeout (soon) is not a duration like 250ms, 10s, 5m or 1h");
    }

    @Test
    void flinkPassThrough_winsOverTheBufferTimeoutKey() {
        Configuration conf = ControllerEnvironment.configuration(ControllerConfig.fromMap(Map.of("bootstrap.servers", "b",
                "network.buffer-timeout", "0ms", "flink.execution.buffer-timeout.interval", "7ms")));
        assertThat(conf.get(ExecutionOptions.BUFFER_TIMEOUT)).isEqualTo(Duration.ofMillis(7));
    }
}
