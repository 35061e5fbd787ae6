package dev.nona.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nona.local.LocalFlinkCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;

/**
 * What the fault-on-the-cluster tests share ({@link TaskManagerKillIT}, {@link JobManagerFailoverIT}): the controller
 * job submitted on its own topics, whose decisions are stamped with their append time (so a decision's timestamp is
 * when it was written), requests streaming at a steady rate until decisions flow; after the fault, a probe request
 * sent once the job runs again must be decided, then the traffic stops and every request sent is waited for. Closing
 * it closes the clients; the caller cancels {@link #job()} (it may still need the cluster as it was).
 */
final class MidStreamFault implements AutoCloseable {
    /** Before the fault: three seconds of requests decided. */
    private static final Duration FIRST_DECISIONS = Duration.ofSeconds(90);
    /** After the probe: how long every request sent may take to be decided. */
    private static final Duration ALL_DECIDED = Duration.ofSeconds(120);

    private final LocalFlinkCluster flink;
    private final JobID job;
    private final int rate;
    private final ControllerInputs in;
    private final ControllerOutputs out;
    private final RequestPublisher publisher;

    private MidStreamFault(LocalFlinkCluster flink, JobID job, int rate, ControllerInputs in, ControllerOutputs out,
            RequestPublisher publisher) {
        this.flink = flink;
        this.job = job;
        this.rate = rate;
        this.in = in;
        this.out = out;
        this.publisher = publisher;
    }

    /**
     * Submits the controller on new topics named {@code name}, prepares its inputs, and streams requests at
     * {@code rate}/s until three seconds of them are decided. On a failure the job is cancelled here.
     */
    static MidStreamFault start(String bootstrap, LocalFlinkCluster flink, String name, Path dir, int rate)
            throws Exception {
        ControllerTopics topics = new ControllerTopics(name).create(bootstrap, 1 << 20);
        stampDecisionsWhenWritten(bootstrap, topics);
        JobID job = ControllerOnCluster.submit(flink, bootstrap, topics, dir, Map.of());
        ControllerInputs in = null;
        ControllerOutputs out = null;
        try {
            in = new ControllerInputs(bootstrap, topics);
            out = new ControllerOutputs(bootstrap, topics, false);
            ControllerOnCluster.prepare(in, out, 1.0e10);
            RequestPublisher publisher = RequestPublisher.unbounded(in, rate).start();
            ControllerOutputs o = out;
            assertThat(out.pollUntil(() -> o.decided.size() >= 3 * rate, FIRST_DECISIONS))
                    .as("requests decided before the fault").isTrue();
            return new MidStreamFault(flink, job, rate, in, out, publisher);
        } catch (Throwable t) {
            if (out != null) {
                out.close();
            }
            if (in != null) {
                in.close();
            }
            flink.cancel(job);
            throw t;
        }
    }

    JobID job() {
        return job;
    }

    ControllerOutputs out() {
        return out;
    }

    /** Requests sent so far. */
    int sent() {
        return publisher.sent();
    }

    /** Waits until {@code more} checkpoints complete after the current one (with requests in them); the latest id. */
    long awaitCheckpoints(int more) {
        String jobId = job.toHexString();
        long now = flink.rest().latestCompletedCheckpointId(jobId).orElse(0);
        return await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> flink.rest().latestCompletedCheckpointId(jobId).orElse(0), id -> id >= now + more);
    }

    /**
     * Decisions resume: a request sent a second after now (the job runs again) is decided within {@code bound}; then
     * three more seconds of traffic, the traffic stops, and every request sent is waited for.
     *
     * @param after what the job recovered from, for the assertion's message
     * @return the requests sent
     */
    int resumeAndStop(Duration bound, String after) throws InterruptedException {
        String probe = "r-" + (publisher.sent() + rate);
        assertThat(out.pollUntil(() -> out.decided.contains(probe), bound))
                .as("decision for %s, sent after the %s", probe, after).isTrue();
        out.drain(Duration.ofSeconds(3));
        int sent = publisher.stop();
        out.pollUntil(() -> undecided(sent).isEmpty(), ALL_DECIDED);
        out.drain(Duration.ofSeconds(2));
        return sent;
    }

    /** The ids of the first {@code sent} requests without a decision. */
    List<String> undecided(int sent) {
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < sent; i++) {
            if (!out.decided.contains("r-" + i)) {
                missing.add("r-" + i);
            }
        }
        return missing;
    }

    /** The machine's load average, for the log beside recovery times. */
    static String loadAverage() {
        return String.format("%.1f", java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                .getSystemLoadAverage());
    }

    @Override
    public void close() throws InterruptedException {
        try {
            publisher.stop();
        } finally {
            out.close();
            in.close();
        }
    }

    /** The decisions topic stamps each record with its append time. */
    private static void stampDecisionsWhenWritten(String bootstrap, ControllerTopics topics) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            ConfigResource decisions = new ConfigResource(ConfigResource.Type.TOPIC, topics.decisions());
            admin.incrementalAlterConfigs(Map.of(decisions, List.of(new AlterConfigOp(
                    new ConfigEntry("message.timestamp.type", "LogAppendTime"), AlterConfigOp.OpType.SET)))).all().get();
        }
    }
}
