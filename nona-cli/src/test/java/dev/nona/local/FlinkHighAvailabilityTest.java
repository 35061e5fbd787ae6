package dev.nona.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.HighAvailabilityOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class FlinkHighAvailabilityTest {

    @Test
    void settings_zooKeeperQuorumClusterIdAndTheHaStoreUnderTheWorkDir_asFlinkReadsThem(@TempDir Path work) {
        FlinkHighAvailability ha = FlinkHighAvailability.zooKeeper("127.0.0.1:2181").withClusterId("/nona-it")
                .withSessionTimeout(Duration.ofSeconds(12));
        Map<String, String> s = ha.settings(work);
        Configuration conf = Configuration.fromMap(s);
        assertThat(conf.get(HighAvailabilityOptions.HA_MODE)).isEqualTo("zookeeper");
        assertThat(conf.get(HighAvailabilityOptions.HA_ZOOKEEPER_QUORUM)).isEqualTo("127.0.0.1:2181");
        assertThat(conf.get(HighAvailabilityOptions.HA_CLUSTER_ID)).isEqualTo("/nona-it");
        assertThat(conf.get(HighAvailabilityOptions.HA_STORAGE_PATH)).isEqualTo(work.resolve("ha").toUri().toString());
        assertThat(conf.get(HighAvailabilityOptions.ZOOKEEPER_SESSION_TIMEOUT)).isEqualTo(Duration.ofSeconds(12));
    }

    @Test
    void zooKeeper_givesEachClusterItsOwnId() {
        assertThat(FlinkHighAvailability.zooKeeper("zk:2181").clusterId())
                .isNotEqualTo(FlinkHighAvailability.zooKeeper("zk:2181").clusterId())
                .startsWith("/nona-");
    }

    @Test
    void rejectsBadValues_namingThem() {
        assertThatThrownBy(() -> FlinkHighAvailability.zooKeeper(" "))
                .hasMessage("ZooKeeper quorum ( ) must not be blank");
        assertThatThrownBy(() -> FlinkHighAvailability.zooKeeper("zk:2181").withClusterId("/a/b"))
                .hasMessage("cluster id (/a/b) must be one znode name, e.g. /nona");
        assertThatThrownBy(() -> FlinkHighAvailability.zooKeeper("zk:2181").withSessionTimeout(Duration.ofMillis(500)))
                .hasMessage("ZooKeeper session timeout (PT0.5S) must be >= 1 s");
    }
}
