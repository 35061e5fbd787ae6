package dev.nona.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.local.FlinkHighAvailability;
import dev.nona.local.LocalFlinkCluster;
import dev.nona.local.LocalFlinkCluster.KilledJobManager;
import dev.nona.local.LocalKafkaBroker;
import dev.nona.local.LocalZooKeeper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.apache.flink.api.common.JobID;
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
        MidStreamFault run = MidStreamFault.start(broker.bootstrapServers(), flink, "ha-jm", tmp, RATE);
        JobID job = run.job();
        String jobId = job.toHexString();
        KilledJobManager killed = null;
        try (run) {
            ControllerOutputs out = run.out();
            long checkpointBeforeKill = run.awaitCheckpoints(2);

            killed = flink.killLeaderJobManager();
            int sentAtKill = run.sent();
            int leader = flink.awaitLeaderJobManager(RESUME_BOUND);
            long electedAfter = System.currentTimeMillis() - killed.killedAtMillis();
            flink.awaitRunning(job, RESUME_BOUND);
            long runningAfter = System.currentTimeMillis() - killed.killedAtMillis();
            LOG.info("killed JobManager {} (pid {}, {}) with {} requests sent; JobManager {} leads {} ms after, the "
                    + "job runs again {} ms after", killed.index(), killed.pid(), killed.restAddress(), sentAtKill,
                    leader, electedAfter, runningAfter);
            assertThat(leader).as("the new leader").isNotEqualTo(killed.index());

            int sent = run.resumeAndStop(RESUME_BOUND, "failover");

            OptionalLong restored = flink.rest().restoredCheckpointId(jobId);
            DecisionGap gap = DecisionGap.after(out.decisionTimestamps, killed.killedAtMillis());
            List<String> lost = run.undecided(sent);
            LOG.info("JobManager failover at {} requests/s: {} sent, {} decided, lost {}, duplicates {}, dead letters {}; "
                    + "restored checkpoint {} (latest before the kill {}); decisions went on for {} ms after the kill, "
                    + "stopped for {} ms and resumed {} ms after it; uptime load {}", RATE, sent, out.decided.size(),
                    lost.size(), out.duplicates, out.deadLetters.size(), restored, checkpointBeforeKill,
                    gap.lastBeforeMillis(), gap.stallMillis(), gap.resumedAfterMillis(), MidStreamFault.loadAverage());
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
}
