package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.PipelineOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ControllerConfigTest {
    @Test
    void defaults_matchTheDocumentedValues() {
        ControllerConfig c = ControllerConfig.withBootstrap("localhost:9092");
        assertThat(c.rateWindow()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.drift().threshold()).isEqualTo(0.25);
        assertThat(c.drift().windows()).isEqualTo(2);
        assertThat(c.drift().significance()).isEqualTo(0.001);
        assertThat(c.drift().thresholdSignificance()).isEqualTo(0.01);
        assertThat(c.solveRetry().initial()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.solveRetry().max()).isEqualTo(Duration.ofSeconds(60));
        assertThat(c.topics().requests()).isEqualTo("inference-requests");
        assertThat(c.stateBackend()).isEqualTo("hashmap");
        assertThat(c.targetOngoingRequests()).isEqualTo(2);
        assertThat(c.coldStart().weight()).isEqualTo(1.0);
        assertThat(c.coldStart().rentHalfLife()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.controlLimits().maxTasks()).isEqualTo(10_000);
        assertThat(c.controlLimits().maxEdges()).isEqualTo(20_000);
        assertThat(c.controlLimits().knownServers()).as("cluster.servers unset: every server").isEmpty();
    }

    @Test
    void solverCostModel_namesTheControllerMappingOrThePaper() {
        assertThat(ControllerConfig.fromMap(Map.of("bootstrap.servers", "b")).paperCostModel()).isFalse();
        assertThat(ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "solver.cost-model", "controller-mapping"))
                .paperCostModel()).isFalse();
        assertThat(ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "solver.cost-model", "paper")).paperCostModel()).isTrue();
        assertThat(ControllerConfig.fromMap(Map.of("bootstrap.servers", "b")).solverCostModel()).isEqualTo("controller-mapping");
        assertThat(ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "solver.cost-model", "server-queueing"))
                .solverCostModel()).isEqualTo("server-queueing");
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "solver.cost-model", "exact")))
                .hasMessageContaining("solver.cost-model (exact) must be default, controller-mapping, server-queueing or paper");
    }

    @Test
    void controlLimits_readFromTheirKeys() {
        ControllerConfig c = ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "catalog.max-tasks", "500",
                "catalog.max-edges", "0", "cluster.servers", "server-0, server-1"));
        assertThat(c.controlLimits().maxTasks()).isEqualTo(500);
        assertThat(c.controlLimits().maxEdges()).isZero();
        assertThat(c.controlLimits().knownServers()).containsExactlyInAnyOrder("server-0", "server-1");
    }

    @Test
    void controlLimits_badValues_nameTheKeyAndValue() {
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "catalog.max-tasks", "0")))
                .hasMessage("catalog.max-tasks (0) must be >= 1");
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "catalog.max-tasks", "lots")))
                .hasMessage("catalog.max-tasks (lots) is not an integer");
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "catalog.max-edges", "-1")))
                .hasMessage("catalog.max-edges (-1) must be >= 0");
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "cluster.servers", "a,,b")))
                .hasMessage("cluster.servers (a,,b) has an empty server id");
    }

    @Test
    void file_passesKafkaSecurityAndFlinkKeysThrough(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("controller.properties");
        Files.writeString(file, String.join("\n",
                "rates.window=500ms",
                "security.protocol=SASL_SSL",
                "sasl.mechanism=PLAIN",
                "ssl.truststore.location=/etc/ts.jks",
                "kafka.client.id=nona",
                "flink.restart-strategy.type=none",
                "state.backend=rocksdb",
                "checkpoint.interval=2s"));
        ControllerConfig c = ControllerConfig.load(file, "broker:9093");
        assertThat(c.bootstrapServers()).isEqualTo("broker:9093");
        assertThat(c.rateWindow()).isEqualTo(Duration.ofMillis(500));
        assertThat(c.kafka()).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "PLAIN")
                .containsEntry("ssl.truststore.location", "/etc/ts.jks").containsEntry("client.id", "nona");
        assertThat(KafkaIo.clientProperties(c)).containsEntry("security.protocol", "SASL_SSL")
                .as("a 1 MB receive buffer by default").containsEntry("receive.buffer.bytes", "1048576")
                .as("back within 250 ms of a broker's return").containsEntry("reconnect.backoff.max.ms", "250")
                .containsEntry("retry.backoff.max.ms", "250");
        assertThat(KafkaIo.clientProperties(ControllerConfig.fromMap(Map.of("bootstrap.servers", "b",
                "kafka.reconnect.backoff.max.ms", "1000")))).as("the user's kafka.* settings win")
                .containsEntry("reconnect.backoff.max.ms", "1000");
        assertThat(KafkaIo.clientProperties(ControllerConfig.fromMap(Map.of("bootstrap.servers", "b",
                "kafka.receive.buffer.bytes", "65536")))).as("the user's kafka.* settings win")
                .containsEntry("receive.buffer.bytes", "65536");
        Configuration flink = ControllerEnvironment.configuration(c);
        assertThat(flink.getString("restart-strategy.type", null)).isEqualTo("none");
        assertThat(flink.get(PipelineOptions.GENERIC_TYPES)).isFalse();
        assertThat(flink.get(CheckpointingOptions.CHECKPOINTING_INTERVAL)).isEqualTo(Duration.ofSeconds(2));
        assertThat(flink.get(CheckpointingOptions.INCREMENTAL_CHECKPOINTS)).as("full checkpoints by default").isFalse();
        assertThat(flink.get(CheckpointingOptions.FS_SMALL_FILE_THRESHOLD)).as("small states inline in the metadata")
                .isEqualTo(MemorySize.parse("1mb"));
        Configuration overridden = ControllerEnvironment.configuration(ControllerConfig.fromMap(Map.of(
                "bootstrap.servers", "b", "flink.execution.checkpointing.data-inline-threshold", "20kb")));
        assertThat(overridden.get(CheckpointingOptions.FS_SMALL_FILE_THRESHOLD))
                .isEqualTo(MemorySize.parse("20kb"));
    }

    @Test
    void badInput_namesTheKeyAndValue() {
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "rates.windw", "1s")))
                .hasMessage("unknown configuration key 'rates.windw' (see docs/controller.md)");
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "rates.window", "0s")))
                .hasMessage("rates.window (0ms) must be > 0");
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "drift.threshold", "-1")))
                .hasMessage("drift.threshold (-1.0) must be finite and > 0");
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "state.backend", "disk")))
                .hasMessage("state.backend (disk) must be hashmap or rocksdb");
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "drift.debounce", "soon")))
                .hasMessage("drift.debounce (soon) is not a duration like 250ms, 10s, 5m or 1h");
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of()))
                .hasMessage("bootstrap.servers ('null') must be set");
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "placement.cold-start.weight", "0")))
                .hasMessage("placement.cold-start.weight (0.0) must be finite and > 0");
        assertThat(ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "placement.cold-start.weight", "4"))
                .coldStart().weight()).isEqualTo(4.0);
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b",
                "placement.cold-start.rent-half-life", "0s")))
                .hasMessage("placement.cold-start.rent-half-life (0ms) must be > 0");
        assertThat(ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "placement.cold-start.rent-half-life",
                "2min")).coldStart().rentHalfLife()).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void durations_readByFlink_takeTheDocumentedFormats() {
        ControllerConfig c = ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "rates.window", "250ms",
                "watermark.out-of-orderness", "1500", "drift.debounce", "5m", "solve.timeout", "1h",
                "solve.retry-max-backoff", "2min", "cluster.liveness-timeout", "1d", "checkpoint.incremental", "TRUE"));
        assertThat(c.rateWindow()).isEqualTo(Duration.ofMillis(250));
        assertThat(c.outOfOrderness()).as("a bare number is milliseconds").isEqualTo(Duration.ofMillis(1500));
        assertThat(c.drift().debounce()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.solveTimeout()).isEqualTo(Duration.ofHours(1));
        assertThat(c.solveRetry().max()).isEqualTo(Duration.ofMinutes(2));
        assertThat(c.livenessTimeout()).isEqualTo(Duration.ofDays(1));
        assertThat(c.incrementalCheckpoints()).isTrue();
    }

    @Test
    void negativeDurations_failTheRangeCheck_notTheParser() {
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "solve.poll", "-5s")))
                .hasMessage("solve.poll (-5000ms) must be > 0");
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "solve.poll", "-soon")))
                .hasMessage("solve.poll (-soon) is not a duration like 250ms, 10s, 5m or 1h");
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "checkpoint.incremental", "yes")))
                .hasMessage("checkpoint.incremental (yes) must be true or false");
    }

    @Test
    void driftSignificanceAndSolveRetry_badValues_nameTheKeyAndValue() {
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "drift.significance", "0")))
                .hasMessage("drift.significance (0.0) must be in (0, 1]");
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "drift.significance", "1.5")))
                .hasMessage("drift.significance (1.5) must be in (0, 1]");
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "drift.significance", "often")))
                .hasMessage("drift.significance (often) is not a number");
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "solve.retry-backoff", "0s")))
                .hasMessage("solve.retry-backoff (0ms) must be > 0");
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "solve.retry-max-backoff", "500ms")))
                .hasMessage("solve.retry-max-backoff (500ms) must be >= solve.retry-backoff (1000ms)");
        assertThat(new ControllerConfig.RetryBackoff(Duration.ofSeconds(1), Duration.ofSeconds(5)).delayMillis(1)).isEqualTo(1000);
        assertThat(new ControllerConfig.RetryBackoff(Duration.ofSeconds(1), Duration.ofSeconds(5)).delayMillis(3)).isEqualTo(4000);
        assertThat(new ControllerConfig.RetryBackoff(Duration.ofSeconds(1), Duration.ofSeconds(5)).delayMillis(40)).isEqualTo(5000);
    }

    @Test
    void outcomes_defaultsAndBadValues() {
        ControllerConfig byDefault = ControllerConfig.withBootstrap("b");
        assertThat(byDefault.topics().outcomes()).as("off by default").isEmpty();
        // without the commands topic too, so that no broker is asked at all (an unreachable one is waited for)
        ControllerConfig noTopicToAsk = ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "topics.commands", ""));
        assertThat(noTopicToAsk.topics().outcomes()).isEmpty();
        assertThat(KafkaIo.sources(noTopicToAsk).outcomes()).as("no broker asked, no outcome source").isNull();
        ControllerConfig c = ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "topics.outcomes", "placement-outcomes"));
        assertThat(c.outcomes().maxWait()).isEqualTo(Duration.ofSeconds(60));
        assertThat(c.outcomes().decisionWait()).isEqualTo(Duration.ofSeconds(5));
        assertThat(KafkaIo.sources(c, true).outcomes()).isNotNull();
        assertThat(KafkaIo.sources(c, false).outcomes()).isNull();
        ControllerConfig off = ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "topics.outcomes", "",
                "topics.commands", ""));
        assertThat(KafkaIo.sources(off).outcomes()).as("empty topics.outcomes: no outcome input").isNull();
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "outcomes.max-wait", "0s")))
                .hasMessage("outcomes.max-wait (0ms) must be > 0");
        assertThatThrownBy(() -> ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "outcomes.decision-wait", "-1s")))
                .hasMessage("outcomes.decision-wait (-1000ms) must be > 0");
    }
}
