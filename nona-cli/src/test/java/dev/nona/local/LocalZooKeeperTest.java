package dev.nona.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class LocalZooKeeperTest {

    @Test
    void zooConfig_loopbackClientPort_noAdminServer_sessionsUpToAMinute(@TempDir Path dir) {
        LocalZooKeeper zk = LocalZooKeeper.builder().dataDir(dir).port(21810).tickTime(Duration.ofMillis(400)).build();
        assertThat(zk.connectString()).isEqualTo("127.0.0.1:21810");
        assertThat(zk.zooConfig().lines().toList())
                .contains("tickTime=400", "clientPort=21810", "clientPortAddress=127.0.0.1",
                        "dataDir=" + dir.toAbsolutePath().resolve("data"), "admin.enableServer=false",
                        "minSessionTimeout=1000", "maxSessionTimeout=60000")
                .anyMatch(l -> l.startsWith("4lw.commands.whitelist=") && l.contains("ruok"));
        assertThat(zk.isRunning()).isFalse();
    }

    @Test
    void builder_rejectsBadValues_namingThem() {
        assertThatThrownBy(() -> LocalZooKeeper.builder().port(0)).hasMessage("ZooKeeper port (0) must be in 1..65535");
        assertThatThrownBy(() -> LocalZooKeeper.builder().tickTime(Duration.ZERO))
                .hasMessage("ZooKeeper tick time (PT0S) must be >= 1 ms");
    }

    @Test
    void classpathWithoutZooKeeper_isAClearError(@TempDir Path dir) {
        JvmClasspath none = new JvmClasspath(List.of(dir.resolve("flink-core-2.2.1.jar")));
        assertThatThrownBy(() -> LocalZooKeeper.builder().dataDir(dir).classpath(none).build())
                .hasMessageContaining("org.apache.zookeeper:zookeeper is not on the classpath");
    }
}
