package dev.nona.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nona.local.FlinkHighAvailability;
import dev.nona.local.LocalFlinkCluster;
import dev.nona.local.LocalFlinkCluster.KilledJobManager;
import dev.nona.local.LocalKafkaBroker;
import dev.nona.local.LocalZooKeeper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import org.apache.flink.api.common.JobID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JobManager high availability, end to end: a real ZooKeeper server ({@link LocalZooKeeper}), a real KRaft
 * broker, and a multi-process Flink session cluster with ZooKeeper HA, two JobManagers (a leader and a standby)
 * and one TaskManager, each its own JVM. The controller job runs with checkpoints every second while requests
 * stream at a steady {@value #RATE}/s; the leading JobManager is killed with {@code kill -9}. The standby must
 * take over, recover the job from the HA store and its latest completed checkpoint, and every request sent
 * must get a decision (decisions are at-least-once: the first per id wins, a second one is allowed).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class JobManagerFailoverIT {

    private static final Logger LOG = LoggerFactory.getLogger(JobManagerFailoverIT.class);
    private static final int RATE = 200;
    /** Far above a working failover (the ZooKeeper session timeout, 10 s, plus the job's restore): a real failure. */
    private static final Duration RESUME_BOUND = Duration.ofSeconds(120);

    private LocalZooKeeper zooKeeper;
    private LocalKafkaBroker broker;
    private LocalFlinkCluster flink;
    @TempDir
    Path tmp;

    /** Start-up waits long enough for a CI machine under heavy load (the processes' start is not measured here). */
    private static final Duration START_TIMEOUT = Duration.ofMinutes(4);

    @BeforeAll
    void startZooKeeperBrokerAndCluster() {
        zooKeeper = LocalZooKeeper.builder().startTimeout(START_TIMEOUT).build().start();
        broker = LocalKafkaBroker.builder().startTimeout(START_TIMEOUT).build().start();
        flink = LocalFlinkCluster.builder().startTimeout(START_TIMEOUT)
                .jobManagers(2)
                .highAvailability(FlinkHighAvailability.zooKeeper(zooKeeper.connectString()))
                .taskManagers(1).slotsPerTaskManager(2)
                .classpath(ControllerOnCluster.flinkOnlyClasspath())
                .build().start();
    }

    @AfterAll
    void stopAll() {
        if (flink != null) {
            flink.close();
        }
        if (broker != null) {
            broker.close();
        }
        if (zooKeeper != null) {
            zooKeeper.close();
        }
    }

    @Test
    void killNineOfTheLeadingJobManager_midStream_standbyRecoversTheJobFromItsCheckpoint_noRequestLost()
            throws Exception {
        ControllerTopics topics = new ControllerTopics("ha-jm").create(broker.bootstrapServers(), 1 << 20);
        stampDecisionsWhenWritten(topics);
        JobID job = ControllerOnCluster.submit(flink, broker.bootstrapServers(), topics, tmp, Map.of());
        String jobId = job.toHexString();
        KilledJobManager killed = null;
        try (ControllerInputs in = new ControllerInputs(broker.bootstrapServers(), topics);
                ControllerOutputs out = new ControllerOutputs(broker.bootstrapServers(), topics, false)) {
            ControllerOnCluster.prepare(in, out, 1.0e10);
            RequestPublisher publisher = RequestPublisher.unbounded(in, RATE).start();
            assertThat(out.pollUntil(() -> out.decided.size() >= 3 * RATE, Duration.ofSeconds(90)))
                    .as("requests decided before the kill").isTrue();
            long checkpointBeforeKill = awaitCheckpointsWhilePublishing(jobId, 2);

            killed = flink.killLeaderJobManager();
            int sentAtKill = publisher.sent();
            int leader = flink.awaitLeaderJobManager(RESUME_BOUND);
            long electedAfter = System.currentTimeMillis() - killed.killedAtMillis();
            flink.awaitRunning(job, RESUME_BOUND);
            long runningAfter = System.currentTimeMillis() - killed.killedAtMillis();
            LOG.info("killed JobManager {} (pid {}, {}) with {} requests sent; JobManager {} leads {} ms after, the "
                    + "job runs again {} ms after", killed.index(), killed.pid(), killed.restAddress(), sentAtKill,
                    leader, electedAfter, runningAfter);
            assertThat(leader).as("the new leader").isNotEqualTo(killed.index());

            // decisions resume: a request sent a second after the job runs again is decided
            String probe = "r-" + (publisher.sent() + RATE);
            assertThat(out.pollUntil(() -> out.decided.contains(probe), RESUME_BOUND))
                    .as("decision for %s, sent after the failover", probe).isTrue();
            out.drain(Duration.ofSeconds(3)); // a few more seconds of traffic after the failover
            int sent = publisher.stop();
            out.pollUntil(() -> undecided(out, sent).isEmpty(), Duration.ofSeconds(120));
            out.drain(Duration.ofSeconds(2));

            OptionalLong restored = flink.rest().restoredCheckpointId(jobId);
            DecisionGap gap = DecisionGap.after(out.decisionTimestamps, killed.killedAtMillis());
            List<String> lost = undecided(out, sent);
            LOG.info("JobManager failover at {} requests/s: {} sent, {} decided, lost {}, duplicates {}, dead letters {}; "
                    + "restored checkpoint {} (latest before the kill {}); decisions went on for {} ms after the kill, "
                    + "stopped for {} ms and resumed {} ms after it; uptime load {}", RATE, sent, out.decided.size(),
                    lost.size(), out.duplicates, out.deadLetters.size(), restored, checkpointBeforeKill,
                    gap.lastBeforeMillis(), gap.stallMillis(), gap.resumedAfterMillis(), loadAverage());
            assertThat(lost).as("requests without a decision, of " + sent).isEmpty();
            assertThat(out.deadLetters).as("dead letters").isEmpty();
            assertThat(restored).as("the new leader restored the job from a checkpoint of the HA store").isPresent();
            assertThat(restored.getAsLong()).as("restored checkpoint id: the latest completed, at least the one "
                    + "completed before the kill").isGreaterThanOrEqualTo(checkpointBeforeKill);
            assertThat(gap.resumedAfterMillis()).as("ms from the kill to the first decision after the stall")
                    .isLessThanOrEqualTo(RESUME_BOUND.toMillis());
        } finally {
            flink.cancel(job);
            if (killed != null) {
                flink.restartJobManager(killed.index());
            }
        }
    }

    /** The decisions topic stamps each record with its append time, so a decision's timestamp is when it was written. */
    private void stampDecisionsWhenWritten(ControllerTopics topics) throws ExecutionException, InterruptedException {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            ConfigResource decisions = new ConfigResource(ConfigResource.Type.TOPIC, topics.decisions());
            admin.incrementalAlterConfigs(Map.of(decisions, List.of(new AlterConfigOp(
                    new ConfigEntry("message.timestamp.type", "LogAppendTime"), AlterConfigOp.OpType.SET)))).all().get();
        }
    }

    /** Waits until {@code more} checkpoints complete after the current one (with requests in them); returns the latest id. */
    private long awaitCheckpointsWhilePublishing(String jobId, int more) {
        long now = flink.rest().latestCompletedCheckpointId(jobId).orElse(0);
        return await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> flink.rest().latestCompletedCheckpointId(jobId).orElse(0), id -> id >= now + more);
    }

    private static List<String> undecided(ControllerOutputs out, int sent) {
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < sent; i++) {
            if (!out.decided.contains("r-" + i)) {
                missing.add("r-" + i);
            }
        }
        return missing;
    }

    private static String loadAverage() {
        return String.format("%.1f", java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                .getSystemLoadAverage());
    }
}
