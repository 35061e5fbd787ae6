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
                .containsEntry("broker.session.timeout.ms", "3000")
                .containsEntry("broker.heartbeat.interval.ms", "750")
                .containsEntry("log.dirs", dir.toAbsolutePath().resolve("kraft-logs").toString());
        assertThat(broker.isRunning()).isFalse();
    }

    @Test
    void listenerPorts_chosenByTheOs_differ_evenWhenOneIsGiven(@TempDir Path dir) throws Exception {
        for (int i = 0; i < 20; i++) {
            LocalKafkaBroker broker = LocalKafkaBroker.builder().dataDir(dir).build();
            var listeners = broker.serverProperties().get("listeners").toString();
            String[] ports = listeners.replaceAll("[^0-9,:]", "").split(",");
            assertThat(ports[0].substring(ports[0].lastIndexOf(':') + 1))
                    .as(listeners).isNotEqualTo(ports[1].substring(ports[1].lastIndexOf(':') + 1));
        }
        int given = FreePorts.next();
        LocalKafkaBroker broker = LocalKafkaBroker.builder().dataDir(dir).brokerPort(given).build();
        assertThat(broker.serverProperties().get("controller.quorum.voters"))
                .isNotEqualTo("1@127.0.0.1:" + given);
    }

    @Test
    void builder_rejectsBadValues_namingThem() {
        assertThatThrownBy(() -> LocalKafkaBroker.builder().brokerPort(70000))
                .hasMessage("broker port (70000) must be in 1..65535");
        assertThatThrownBy(() -> LocalKafkaBroker.builder().brokerPort(19092).controllerPort(19092).build())
                .hasMessage("broker port and controller port are both 19092; the two listeners need different ports");
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
