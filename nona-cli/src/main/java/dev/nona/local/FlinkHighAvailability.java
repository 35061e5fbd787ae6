package dev.nona.local;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * ZooKeeper high availability of a {@link LocalFlinkCluster}: the {@code config.yaml} entries a standalone
 * cluster with standby JobManagers sets (docs/deployment.md, "JobManager high availability"). The HA store
 * ({@code high-availability.storageDir}: job graphs, jars, checkpoint metadata) is a directory of the cluster's
 * work directory, which every process of a local cluster shares, as a real cluster shares HDFS or S3.
 *
 * <p>The session timeout is how soon ZooKeeper notices a dead leader, so it bounds the failover from below;
 * the default, 10 s, is short for a local cluster and well above the pauses of a loaded CI machine.
 *
 * @param zooKeeperQuorum {@code host:port[,host:port...]}
 * @param clusterId the cluster's node under {@code /flink} (several clusters may share one ZooKeeper)
 * @param sessionTimeout {@code high-availability.zookeeper.client.session-timeout}
 */
public record FlinkHighAvailability(String zooKeeperQuorum, String clusterId, Duration sessionTimeout) {

    public FlinkHighAvailability {
        if (zooKeeperQuorum == null || zooKeeperQuorum.isBlank()) {
            throw new IllegalArgumentException("ZooKeeper quorum (" + zooKeeperQuorum + ") must not be blank");
        }
        if (clusterId == null || !clusterId.matches("/?[A-Za-z0-9_.-]+")) {
            throw new IllegalArgumentException("cluster id (" + clusterId + ") must be one znode name, e.g. /nona");
        }
        Objects.requireNonNull(sessionTimeout, "session timeout");
        if (sessionTimeout.toMillis() < 1000) {
            throw new IllegalArgumentException("ZooKeeper session timeout (" + sessionTimeout + ") must be >= 1 s");
        }
    }

    /** HA on {@code quorum} under a fresh cluster id, with a 10 s session timeout. */
    public static FlinkHighAvailability zooKeeper(String quorum) {
        return new FlinkHighAvailability(quorum, "/nona-" + UUID.randomUUID().toString().substring(0, 8),
                Duration.ofSeconds(10));
    }

    public FlinkHighAvailability withClusterId(String id) {
        return new FlinkHighAvailability(zooKeeperQuorum, id, sessionTimeout);
    }

    public FlinkHighAvailability withSessionTimeout(Duration timeout) {
        return new FlinkHighAvailability(zooKeeperQuorum, clusterId, timeout);
    }

    /** The {@code config.yaml} entries, with the HA store under {@code workDir/ha}. */
    Map<String, String> settings(Path workDir) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("high-availability.type", "zookeeper");
        s.put("high-availability.zookeeper.quorum", zooKeeperQuorum);
        s.put("high-availability.zookeeper.path.root", "/flink");
        s.put("high-availability.cluster-id", clusterId);
        s.put("high-availability.storageDir", workDir.resolve("ha").toUri().toString());
        s.put("high-availability.zookeeper.client.session-timeout", sessionTimeout.toMillis() + " ms");
        s.put("zookeeper.sasl.disable", "true"); // a plain quorum: no SASL attempt, no authentication error
        return s;
    }
}
