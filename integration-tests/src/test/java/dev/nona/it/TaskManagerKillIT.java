package dev.nona.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nona.local.LocalFlinkCluster;
import dev.nona.local.LocalKafkaBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
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
 * A TaskManager lost mid-stream, end to end: a real KRaft broker and a multi-process Flink session cluster (a
 * JobManager and two TaskManagers of two slots, each its own JVM); the controller job (parallelism 2, checkpoints
 * every second, decisions at least once) places requests streaming at a steady {@value #RATE}/s when the
 * TaskManager that runs its tasks is killed with {@code kill -9}. The JobManager restarts the job from its latest
 * checkpoint on the slots left; every request sent must get a decision (the first per id wins, a second one is
 * allowed), none a dead letter, and decisions must resume. Logs the time from the kill to the restarted job's first
 * decision (the goal: 10 s) and to the first decision after the stall in decisions; asserts only a bound far above
 * the goal, so that a loaded machine does not fail the build.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class TaskManagerKillIT {

    private static final Logger LOG = LoggerFactory.getLogger(TaskManagerKillIT.class);
    private static final int RATE = 500;
    /** Far above a working recovery (heartbeat loss, the 1 s restart delay, the job's restore): a real failure. */
    private static final Duration RESUME_BOUND = Duration.ofSeconds(120);
    private static final Duration START_TIMEOUT = Duration.ofMinutes(4);

    private LocalKafkaBroker broker;
    private LocalFlinkCluster flink;
    @TempDir
    Path tmp;

    @BeforeAll
    void startBrokerAndCluster() {
        broker = LocalKafkaBroker.builder().startTimeout(START_TIMEOUT).build().start();
        flink = LocalFlinkCluster.builder().startTimeout(START_TIMEOUT).taskManagers(2).slotsPerTaskManager(2)
                .classpath(ControllerOnCluster.flinkOnlyClasspath()).build().start();
    }

    @AfterAll
    void stopAll() {
        if (flink != null) {
            flink.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void killNineOfATaskManagerRunningTheJob_midStream_jobRestartsOnTheSlotsLeft_noRequestLost_decisionsResume()
            throws Exception {
        ControllerTopics topics = new ControllerTopics("tm-kill").create(broker.bootstrapServers(), 1 << 20);
        stampDecisionsWhenWritten(topics);
        JobID job = ControllerOnCluster.submit(flink, broker.bootstrapServers(), topics, tmp, Map.of());
        String jobId = job.toHexString();
        try (ControllerInputs in = new ControllerInputs(broker.bootstrapServers(), topics);
                ControllerOutputs out = new ControllerOutputs(broker.bootstrapServers(), topics, false)) {
            ControllerOnCluster.prepare(in, out, 1.0e10);
            RequestPublisher publisher = RequestPublisher.unbounded(in, RATE).start();
            assertThat(out.pollUntil(() -> out.decided.size() >= 3 * RATE, Duration.ofSeconds(90)))
                    .as("requests decided before the kill").isTrue();
            long checkpointBeforeKill = awaitCheckpoints(jobId, 2);

            long killedAt = System.currentTimeMillis();
            int killed = flink.killTaskManagerRunning(job);
            int sentAtKill = publisher.sent();
            long restartedAt = awaitTasksStartedAfter(jobId, killedAt);
            flink.awaitRunning(job, RESUME_BOUND);
            long runningAfter = System.currentTimeMillis() - killedAt;

            // decisions resume: a request sent a second after the job runs again is decided
            String probe = "r-" + (publisher.sent() + RATE);
            assertThat(out.pollUntil(() -> out.decided.contains(probe), RESUME_BOUND))
                    .as("decision for %s, sent after the restart", probe).isTrue();
            out.drain(Duration.ofSeconds(3));
            int sent = publisher.stop();
            out.pollUntil(() -> undecided(out, sent).isEmpty(), Duration.ofSeconds(120));
            out.drain(Duration.ofSeconds(2));

            OptionalLong restored = flink.rest().restoredCheckpointId(jobId);
            DecisionGap gap = DecisionGap.after(out.decisionTimestamps, killedAt);
            long firstAfterRestart = out.decisionTimestamps.stream().filter(t -> t >= restartedAt)
                    .mapToLong(Long::longValue).min().orElse(Long.MAX_VALUE);
            List<String> lost = undecided(out, sent);
            LOG.info("TaskManager kill at {} requests/s: killed TaskManager {} with {} requests sent; the restarted "
                    + "job's tasks started {} ms after the kill, all running {} ms after it; its first decision {} ms "
                    + "after the kill (goal 10000 ms); decisions went on for {} ms after the kill, stopped for {} ms "
                    + "and resumed {} ms after it; {} sent, {} decided, lost {}, duplicates {}, dead letters {}; "
                    + "restored checkpoint {} (latest before the kill {}); uptime load {}", RATE, killed, sentAtKill,
                    restartedAt - killedAt, runningAfter, firstAfterRestart - killedAt, gap.lastBeforeMillis(),
                    gap.stallMillis(), gap.resumedAfterMillis(), sent, out.decided.size(), lost.size(),
                    out.duplicates, out.deadLetters.size(), restored, checkpointBeforeKill, loadAverage());
            assertThat(lost).as("requests without a decision, of " + sent).isEmpty();
            assertThat(out.deadLetters).as("dead letters").isEmpty();
            assertThat(restored).as("the job restarted from a checkpoint").isPresent();
            assertThat(restored.getAsLong()).as("restored checkpoint id: at least the one completed before the kill")
                    .isGreaterThanOrEqualTo(checkpointBeforeKill);
            assertThat(firstAfterRestart - killedAt).as("ms from the kill to the restarted job's first decision")
                    .isLessThanOrEqualTo(RESUME_BOUND.toMillis());
        } finally {
            flink.cancel(job);
            flink.addTaskManager();
        }
    }

    /** The decisions topic stamps each record with its append time, so a decision's timestamp is when it was written. */
    private void stampDecisionsWhenWritten(ControllerTopics topics) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            ConfigResource decisions = new ConfigResource(ConfigResource.Type.TOPIC, topics.decisions());
            admin.incrementalAlterConfigs(Map.of(decisions, List.of(new AlterConfigOp(
                    new ConfigEntry("message.timestamp.type", "LogAppendTime"), AlterConfigOp.OpType.SET)))).all().get();
        }
    }

    /** Waits until {@code more} checkpoints complete after the current one; returns the latest id. */
    private long awaitCheckpoints(String jobId, int more) {
        long now = flink.rest().latestCompletedCheckpointId(jobId).orElse(0);
        return await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> flink.rest().latestCompletedCheckpointId(jobId).orElse(0), id -> id >= now + more);
    }

    /**
     * Waits until the JobManager has restarted the job's tasks after {@code killedAt} and returns the earliest start
     * of them (the job's vertices' {@code start-time}, epoch ms, from the REST API): decisions written from then on
     * are the restarted job's (the old tasks on the surviving TaskManager may write a moment after the kill).
     */
    private long awaitTasksStartedAfter(String jobId, long killedAt) {
        return await().atMost(RESUME_BOUND).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                .until(() -> restartedAt(jobId, killedAt), OptionalLong::isPresent).getAsLong();
    }

    /** The earliest vertex start after {@code killedAt}, once every vertex has started again. */
    private OptionalLong restartedAt(String jobId, long killedAt) {
        JsonNode details = flink.rest().get("/jobs/" + jobId).orElse(null);
        if (details == null || details.path("vertices").isEmpty()) {
            return OptionalLong.empty();
        }
        long earliest = Long.MAX_VALUE;
        for (JsonNode v : details.path("vertices")) {
            long t = v.path("start-time").asLong(-1);
            if (t < killedAt) {
                return OptionalLong.empty();
            }
            earliest = Math.min(earliest, t);
        }
        return OptionalLong.of(earliest);
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
