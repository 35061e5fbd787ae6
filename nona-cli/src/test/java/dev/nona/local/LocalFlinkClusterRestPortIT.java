package dev.nona.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JobManager whose REST port another process holds when it starts comes up on another
 * ({@code LocalFlinkCluster#relaunchFailedStarts}); before, it was launched three times on the same port and the
 * cluster's start failed (a recovery bench, 2026-12-06: "Could not start rest endpoint on any port in port range").
 */
final class LocalFlinkClusterRestPortIT {

    @Test
    void aTakenRestPort_movesToAFreeOne_andTheClusterStarts(@TempDir Path dir) throws Exception {
        try (ServerSocket holder = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int taken = holder.getLocalPort();
            try (LocalFlinkCluster flink = LocalFlinkCluster.builder().workDir(dir).taskManagers(1).slotsPerTaskManager(1)
                    .firstRestPort(taken).build().start()) {

                assertThat(flink.restAddress()).startsWith("127.0.0.1:").isNotEqualTo("127.0.0.1:" + taken);
                assertThat(flink.rest().taskManagers()).isEqualTo(1);
                assertThat(Files.readString(dir.resolve("log/jobmanager.log")))
                        .as("the first launch found the port taken").contains("Could not start rest endpoint");
            }
        }
    }
}
