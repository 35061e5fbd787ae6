package dev.nona.local;

import java.net.URI;
import java.util.Optional;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.highavailability.zookeeper.CuratorFrameworkWithUnhandledErrorListener;
import org.apache.flink.runtime.leaderelection.LeaderInformation;
import org.apache.flink.runtime.util.ZooKeeperUtils;
import org.apache.flink.shaded.zookeeper3.org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which JobManager leads a ZooKeeper-HA Flink cluster, as its clients find out: the REST endpoint's leader
 * information ({@code /flink/<cluster-id>/leader/rest_server/connection_info}), written by the leading
 * JobManager when it is elected, read with Flink's own (shaded) Curator client and deserializer. All
 * components of a JobManager process (dispatcher, resource manager, REST endpoint) win the election together,
 * so the REST leader is the leading JobManager. Thread safe.
 */
final class ZooKeeperLeaderLookup implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperLeaderLookup.class);
    private static final String REST_LEADER_PATH = ZooKeeperUtils.generateConnectionInformationPath(
            ZooKeeperUtils.getLeaderPath(ZooKeeperUtils.getRestServerNode()));

    private final CuratorFrameworkWithUnhandledErrorListener client;

    /** Connects with the cluster's own HA configuration (quorum, root, cluster id). */
    ZooKeeperLeaderLookup(Configuration clusterConfig) {
        this.client = ZooKeeperUtils.startCuratorFramework(clusterConfig,
                error -> LOG.warn("ZooKeeper client of the leader lookup failed", error));
    }

    /**
     * The leader's REST address ({@code http://host:port}) as ZooKeeper holds it now, or empty when no leader
     * is published (none elected yet, or ZooKeeper unreachable). It may name a leader that has just died: the
     * node stays until its session expires or a new leader overwrites it.
     */
    Optional<URI> restLeader() {
        try {
            byte[] data = client.asCuratorFramework().getData().forPath(REST_LEADER_PATH);
            if (data == null || data.length == 0) {
                return Optional.empty();
            }
            LeaderInformation info = ZooKeeperUtils.readLeaderInformation(data);
            return info.isEmpty() ? Optional.empty() : Optional.of(URI.create(info.getLeaderAddress()));
        } catch (KeeperException.NoNodeException e) {
            return Optional.empty();
        } catch (Exception e) {
            LOG.debug("no REST leader readable at {}: {}", REST_LEADER_PATH, e.toString());
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
