package dev.nona.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

final class LocalFlinkClusterTest {

    @Test
    void clusterClasspath_dropsTheApplication_keepsFlink() {
        String repo = "/root/.m2/repository/";
        assertThat(LocalFlinkCluster.isFlinkSide(Path.of(repo + "org/apache/flink/flink-runtime/2.2.1/flink-runtime-2.2.1.jar"))).isTrue();
        assertThat(LocalFlinkCluster.isFlinkSide(Path.of(repo + "org/apache/logging/log4j/log4j-core/2.24.3/log4j-core-2.24.3.jar"))).isTrue();
        assertThat(LocalFlinkCluster.isFlinkSide(Path.of(repo
                + "org/apache/flink/flink-connector-kafka/5.0.0-2.2/flink-connector-kafka-5.0.0-2.2.jar"))).isFalse();
        assertThat(LocalFlinkCluster.isFlinkSide(Path.of(repo + "org/apache/kafka/kafka-clients/4.2.0/kafka-clients-4.2.0.jar"))).isFalse();
        assertThat(LocalFlinkCluster.isFlinkSide(Path.of(repo + "dev/nona/policy-model/0.1.0-SNAPSHOT/policy-model-0.1.0-SNAPSHOT.jar"))).isFalse();
        assertThat(LocalFlinkCluster.isFlinkSide(Path.of("/work/flink-jobs/target/lib/kafka-topics-0.1.0-SNAPSHOT.jar"))).isFalse();
        assertThat(LocalFlinkCluster.isFlinkSide(Path.of(repo + "org/apache/zookeeper/zookeeper/3.9.5/zookeeper-3.9.5.jar")))
                .as("the ZooKeeper server's jar (LocalZooKeeper)").isFalse();
        assertThat(LocalFlinkCluster.isFlinkSide(Path.of(repo
                + "org/apache/flink/flink-shaded-zookeeper-3/3.7.2-20.0/flink-shaded-zookeeper-3-3.7.2-20.0.jar")))
                .as("Flink's own shaded ZooKeeper client").isTrue();
    }

    @Test
    void builder_rejectsNonsense_namingTheValue() {
        assertThatThrownBy(() -> LocalFlinkCluster.builder().taskManagers(0))
                .hasMessage("task managers (0) must be >= 1");
        assertThatThrownBy(() -> LocalFlinkCluster.builder().slotsPerTaskManager(-2))
                .hasMessage("slots per task manager (-2) must be >= 1");
        assertThatThrownBy(() -> LocalFlinkCluster.builder().jobManagers(0))
                .hasMessage("job managers (0) must be >= 1");
    }

    @Test
    void standbyJobManagers_needHighAvailability() {
        assertThatThrownBy(() -> LocalFlinkCluster.builder().jobManagers(2).build())
                .hasMessage("job managers (2) > 1 need high availability: set Builder.highAvailability");
    }
}
