package dev.nona.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real broker whose chosen port another process took before the broker bound it. */
final class LocalKafkaBrokerPortsIT {

    @Test
    void aChosenPortTakenBeforeTheFirstStart_isReplaced_andTheBrokerServes(@TempDir Path dir) throws Exception {
        try (ServerSocket squatter = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int taken = squatter.getLocalPort();
            List<int[]> handedOut = new ArrayList<>();
            LocalKafkaBroker.Builder b = LocalKafkaBroker.builder().dataDir(dir).portChooser(n -> {
                // the first pair names the squatter's port, as a port taken between the choice and the bind would be
                int[] ports = handedOut.isEmpty() ? new int[] {taken, FreePorts.distinct(1, taken)[0]}
                        : FreePorts.distinct(n, taken);
                handedOut.add(ports);
                return ports;
            });
            try (LocalKafkaBroker broker = b.build().start()) {
                assertThat(handedOut).hasSize(2);
                assertThat(broker.bootstrapServers()).isEqualTo("127.0.0.1:" + handedOut.get(1)[0])
                        .isNotEqualTo("127.0.0.1:" + taken);
                Properties p = new Properties();
                p.putAll(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
                try (Admin admin = Admin.create(p)) {
                    assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(1);
                }
                assertThat(broker.starts()).isEqualTo(2);
            }
        }
    }

    @Test
    void aGivenPortThatIsTaken_isNotReplaced_theStartFailsNamingIt(@TempDir Path dir) throws Exception {
        try (ServerSocket squatter = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int taken = squatter.getLocalPort();
            try (LocalKafkaBroker broker = LocalKafkaBroker.builder().dataDir(dir).brokerPort(taken).build()) {
                assertThatThrownBy(broker::start).hasMessageContaining("Address already in use");
                assertThat(broker.bootstrapServers()).isEqualTo("127.0.0.1:" + taken);
            }
        }
    }
}
