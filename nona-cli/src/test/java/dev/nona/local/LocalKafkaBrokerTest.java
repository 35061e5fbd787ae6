package dev.nona.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class LocalKafkaBrokerTest {

    @Test
    void serverProperties_combinedKraftOnLoopback_withReplicationOne_andOverridesWin(@TempDir Path dir) {
        LocalKafkaBroker broker = LocalKafkaBroker.builder().dataDir(dir).brokerPort(19092).controllerPort(19093)
                .property("message.max.bytes", "2097152").property("num.partitions", "3").build();
        var p = broker.serverProperties();
        assertThat(broker.bootstrapServers()).isEqualTo("127.0.0.1:19092");
        assertThat(p).containsEntry("process.roles", "broker,controller")
                .containsEntry("controller.quorum.voters", "1@127.0.0.1:19093")
                .containsEntry("listeners", "PLAINTEXT://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093")
                .containsEntry("transaction.state.log.replication.factor", "1")
                .containsEntry("transaction.state.log.min.isr", "1")
                .containsEntry("offsets.topic.replication.factor", "1")
                .containsEntry("group.initial.rebalance.delay.ms", "0")
                .containsEntry("message.max.bytes", "2097152")
                .containsEntry("num.partitions", "3")
                .containsEntry("socket.receive.buffer.bytes", "1048576")
                .containsEntry("log.dirs", dir.toAbsolutePath().resolve("kraft-logs").toString());
        assertThat(broker.isRunning()).isFalse();
    }

    @Test
    void builder_rejectsBadValues_namingThem() {
        assertThatThrownBy(() -> LocalKafkaBroker.builder().brokerPort(70000))
                .hasMessage("broker port (70000) must be in 1..65535");
        assertThatThrownBy(() -> LocalKafkaBroker.builder().startTimeout(Duration.ZERO))
                .hasMessage("start timeout (PT0S) must be > 0");
    }

    @Test
    void classpathWithoutKafka_isAClearError(@TempDir Path dir) {
        JvmClasspath noKafka = new JvmClasspath(List.of(dir.resolve("flink-core-2.2.1.jar")));
        assertThatThrownBy(() -> LocalKafkaBroker.builder().dataDir(dir).classpath(noKafka).build())
                .hasMessageContaining("kafka_2.13 is not on the classpath");
    }
}
