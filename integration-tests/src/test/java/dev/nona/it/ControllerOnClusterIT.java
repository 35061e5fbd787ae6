package dev.nona.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nona.local.LocalFlinkCluster;
import dev.nona.local.LocalKafkaBroker;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.ControllerCommand;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.record.CatalogEdge;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.PlacementDecision;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.nona.topics.Topics;
import dev.nona.topics.admin.TopicProvisioner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller job, submitted as its shaded jar over REST to a real multi-process Flink session cluster (a
 * JobManager and two TaskManagers, each its own JVM, on Flink's own jars only), against a real KRaft broker in
 * its own JVM. A class missing from the job jar fails these tests. Every test gets its own topics and its own job.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class ControllerOnClusterIT {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerOnClusterIT.class);
    private static final int REQUESTS = 100_000;
    private static final int RATE = 5_000;

    private LocalKafkaBroker broker;
    private LocalFlinkCluster flink;
    @TempDir
    Path tmp;

    @BeforeAll
    void startBrokerAndCluster() {
        broker = LocalKafkaBroker.builder().build().start();
        flink = LocalFlinkCluster.builder().taskManagers(2).slotsPerTaskManager(2).classpath(ControllerOnCluster.flinkOnlyClasspath())
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
    }

    @Test
    void exactlyOnce_killNineOfTaskManagerMidStream_noLostNoDuplicateDecisions_andTheTableSurvives() throws Exception {
        ControllerTopics topics = new ControllerTopics("eo-tm").create(broker.bootstrapServers(), 1 << 20);
        JobID job = submit(topics, Map.of("decisions.delivery", "exactly-once"));
        try (ControllerInputs in = new ControllerInputs(broker.bootstrapServers(), topics);
                ControllerOutputs out = new ControllerOutputs(broker.bootstrapServers(), topics, false)) {
            prepare(in, out, 1.0e10);
            // An operator drains server-3 before the run: no request may be placed there, before the kill -9 or
            // after it (the drain is in the placement operator's checkpointed broadcast state).
            ControllerCommand drain = ControllerCommand.drain("drain-server-3", System.currentTimeMillis(), "server-3", true);
            in.raw(topics.commands(), drain.scope(), JsonSerde.forTopic(Topics.CONTROLLER_COMMANDS).serialize(drain));
            in.flush();
            out.watchedServer = "server-3";
            assertThat(out.pollUntil(() -> out.events(ControllerEventType.COMMAND_APPLIED) >= 1, Duration.ofSeconds(60)))
                    .as("the drain was acknowledged").isTrue();
            RequestPublisher publisher = new RequestPublisher(in, RATE, REQUESTS).start();
            publisher.awaitSent(REQUESTS / 3);
            // Before the kill: a solved table (version >= 1, not the bootstrap) has decided committed requests.
            boolean solved = out.pollUntil(() -> out.maxTableVersion >= 1, Duration.ofSeconds(60));
            long versionBeforeKill = out.maxTableVersion;
            int sentAtKill = publisher.sent();
            // how that table placed each model before the kill: distributed only, or locally too
            boolean[] localBefore = new boolean[2];
            out.tableVersionOf.forEach((id, v) -> {
                if (v == versionBeforeKill && out.decidedByFallback.contains(id)) {
                    localBefore[modelOf(id)] = true;
                }
            });
            LOG.info("before the kill: {} requests sent, {} decided ({} of them locally), newest table v{}, local "
                    + "under it: fj-a {}, fj-b {}", sentAtKill, out.decided.size(), out.decidedByFallback.size(),
                    versionBeforeKill, localBefore[0], localBefore[1]);
            assertThat(solved).as("a solved table decided requests before the kill").isTrue();
            assertThat(sentAtKill).as("requests left to send after the kill").isLessThan(REQUESTS * 9 / 10);

            long killedAt = System.nanoTime();
            long killedAtMillis = System.currentTimeMillis();
            int killed = flink.killTaskManagerRunning(job);
            LOG.info("killed TaskManager {}, which ran tasks of the controller job", killed);
            awaitRestart(job);
            flink.awaitRunning(job, Duration.ofSeconds(120));
            LOG.info("controller running again {} ms after kill -9 of a TaskManager; {} requests sent; table v{} before",
                    (System.nanoTime() - killedAt) / 1_000_000, publisher.sent(), versionBeforeKill);
            publisher.join();
            assertDecidedExactlyOnce(out, job);
            assertTableSurvived(out, versionBeforeKill, localBefore, sentAtKill, killedAtMillis);
            assertThat(out.onWatchedServer).as("requests placed on the drained server-3, of %s decided", out.decided.size())
                    .isEmpty();
        } finally {
            flink.cancel(job);
            flink.addTaskManager();
        }
    }

    @Test
    void exactlyOnce_brokerCleanRestartMidStream_noLostNoDuplicateDecisions() throws Exception {
        brokerOutageMidStream("eo-broker", false);
    }

    @Test
    void exactlyOnce_brokerKillNineMidStream_noLostNoDuplicateDecisions() throws Exception {
        brokerOutageMidStream("eo-broker-kill", true);
    }

    /** Half the requests sent, the broker stops (SIGTERM, or {@code kill -9}) and comes back 2 s later. */
    private void brokerOutageMidStream(String prefix, boolean killNine) throws Exception {
        ControllerTopics topics = new ControllerTopics(prefix).create(broker.bootstrapServers(), 1 << 20);
        JobID job = submit(topics, Map.of("decisions.delivery", "exactly-once"));
        try (ControllerInputs in = new ControllerInputs(broker.bootstrapServers(), topics);
                ControllerOutputs out = new ControllerOutputs(broker.bootstrapServers(), topics, false)) {
            prepare(in, out, 1.0e10);
            RequestPublisher publisher = new RequestPublisher(in, RATE, REQUESTS).start();
            publisher.awaitSent(REQUESTS / 2);
            long stoppedAt = System.nanoTime();
            long pid = broker.pid();
            if (killNine) {
                broker.kill();
            } else {
                broker.stop();
            }
            assertThat(broker.isRunning()).as("broker pid " + pid + " gone").isFalse();
            Thread.sleep(2_000);
            broker.start();
            LOG.info("broker ({}) back {} ms after its {}; {} requests sent", pid, (System.nanoTime() - stoppedAt) / 1_000_000,
                    killNine ? "kill -9" : "clean stop", publisher.sent());
            publisher.join();
            assertDecidedExactlyOnce(out, job);
        } finally {
            flink.cancel(job);
        }
    }

    @Test
    void badInput_eachKind_isADeadLetterWithItsReason_andTheJobNeverRestarts() throws Exception {
        ControllerTopics topics = new ControllerTopics("bad").create(broker.bootstrapServers(), 4 << 20);
        // The four servers prepare() reports are the known ones; catalog.max-tasks keeps its default (10,000).
        JobID job = submit(topics, Map.of("cluster.servers", "server-0,server-1,server-2,server-3"));
        try (ControllerInputs in = new ControllerInputs(broker.bootstrapServers(), topics);
                ControllerOutputs out = new ControllerOutputs(broker.bootstrapServers(), topics, false)) {
            prepare(in, out, 1.0e10);
            long now = System.currentTimeMillis();
            Map<String, String> expected = new LinkedHashMap<>();
            for (int i = 0; i < 50; i++) {
                in.request("ok-" + i, "fj-a", now);
            }
            expected.put(bad(in, topics.requests(), "{\"schemaVersion\":1,\"id\":\"b1\",\"model\":"), "malformed JSON");
            expected.put(bad(in, topics.requests(), request("b2", "no-such-model", now, "")), "not in the model catalog");
            expected.put(bad(in, topics.requests(),
                    request("b3", "fj-a", now, "").replace("\"schemaVersion\":1", "\"schemaVersion\":7")), "schemaVersion");
            expected.put(bad(in, topics.requests(), request("b4", "fj-a", now, ",\"payloadBytes\":-10")), "payloadBytes");
            expected.put(bad(in, topics.requests(), request("b5", "fj-a", now, ",\"payloadBytes\":\"NaN\"")), "payloadBytes");
            expected.put(bad(in, topics.requests(), request("b6", "fj-a", now, ",\"pad\":\"" + "x".repeat(1_200_000) + "\"")),
                    "exceeds the limit");
            expected.put(bad(in, topics.telemetry(), "{\"schemaVersion\":1,\"serverId\":\"server-9\",\"up\":true,"
                    + "\"opsPerSecond\":\"NaN\",\"ongoingRequests\":0,\"cachedModels\":[],\"eventTime\":" + now + "}"),
                    "opsPerSecond");
            expected.put(bad(in, topics.telemetry(), "{\"schemaVersion\":1,\"serverId\":\"server-8\",\"up\":true,"
                    + "\"opsPerSecond\":-1.0,\"ongoingRequests\":0,\"cachedModels\":[],\"eventTime\":" + now + "}"),
                    "opsPerSecond");
            expected.put(bad(in, topics.catalog(), "cyclic", "{\"schemaVersion\":1,\"model\":\"cyclic\",\"dag\":{\"name\":\"c\","
                    + "\"tasks\":[{\"id\":\"a\",\"ops\":1.0},{\"id\":\"b\",\"ops\":1.0}],"
                    + "\"edges\":[{\"from\":\"a\",\"to\":\"b\",\"bytes\":1.0},{\"from\":\"b\",\"to\":\"a\",\"bytes\":1.0}]}}"),
                    "cycle");
            expected.put(bad(in, topics.catalog(), "negative", "{\"schemaVersion\":1,\"model\":\"negative\",\"dag\":{\"name\":\"n\","
                    + "\"tasks\":[{\"id\":\"a\",\"ops\":-5.0}],\"edges\":[]}}"), "ops");
            expected.put(bad(in, topics.catalog(), "oversized", chainEntry("oversized", 10_001)),
                    "model 'oversized' has 10001 tasks, over catalog.max-tasks (10000)");
            expected.put(bad(in, topics.telemetry(), "server-42", "{\"schemaVersion\":1,\"serverId\":\"server-42\",\"up\":true,"
                    + "\"opsPerSecond\":1.0E12,\"ongoingRequests\":0,\"cachedModels\":[],\"eventTime\":" + now + "}"),
                    "field 'serverId' ('server-42') is not a known server");
            for (int i = 50; i < 100; i++) {
                in.request("ok-" + i, "fj-a", System.currentTimeMillis());
            }
            in.flush();

            out.pollUntil(() -> out.decided.size() >= 100 && out.deadLetters.size() >= expected.size(), Duration.ofSeconds(60));
            out.drain(Duration.ofSeconds(2));
            LOG.info("bad input: {} dead letters: {}", out.deadLetters.size(),
                    out.deadLetters.stream().map(d -> d.sourceTopic() + ": " + d.reason()).toList());

            assertThat(out.decided).hasSize(100);
            assertThat(out.deadLetters).hasSize(expected.size());
            for (Map.Entry<String, String> e : expected.entrySet()) {
                assertThat(out.deadLetters).as("dead letter for " + e.getKey())
                        .anyMatch(d -> matches(d, e.getKey()) && d.reason().contains(e.getValue()));
            }
            assertThat(numRestarts(job)).as("restarts of the controller job").isZero();
        } finally {
            flink.cancel(job);
        }
    }

    @Test
    void infeasibleLoad_isAnEventAndAFallbackTable_andDecisionsContinue() throws Exception {
        ControllerTopics topics = new ControllerTopics("infeasible").create(broker.bootstrapServers(), 1 << 20);
        JobID job = submit(topics, Map.of("rates.window", "1s", "drift.windows", "1", "drift.debounce", "1s"));
        try (ControllerInputs in = new ControllerInputs(broker.bootstrapServers(), topics);
                ControllerOutputs out = new ControllerOutputs(broker.bootstrapServers(), topics, true)) {
            // "heavy": 100 MB edges over a 1 Mbit/s link, so any split saturates the link, and 2 s of compute per
            // request, so 40 requests/s on four servers saturate them too: no table keeps the load stable.
            in.catalog("heavy", heavy());
            prepare(in, out, 1.0e6);
            int n = 0;
            long end = System.currentTimeMillis() + 8_000;
            while (System.currentTimeMillis() < end) {
                for (int k = 0; k < 20; k++) {
                    in.request("r-" + n++, "heavy", System.currentTimeMillis());
                }
                Thread.sleep(100);
            }
            in.flush();
            int total = n;
            boolean done = out.pollUntil(() -> out.decided.size() >= total
                    && out.events(ControllerEventType.FALLBACK) >= 1, Duration.ofSeconds(60));
            LOG.info("infeasible: {} of {} decided, events {}", out.decided.size(), total,
                    out.events.stream().map(e -> e.type() + " " + e.details()).toList());
            assertThat(done).isTrue();
            assertThat(out.events(ControllerEventType.INFEASIBLE_LOAD)).isGreaterThanOrEqualTo(1);
            assertThat(out.decided).hasSize(total);
            assertThat(out.duplicates).isZero();
            assertThat(out.decisions).anyMatch(PlacementDecision::fallback);
            assertThat(numRestarts(job)).isZero();
        } finally {
            flink.cancel(job);
        }
    }

    @Test
    void composeSubmitCommand_runsTheControllerJar_withFlinksOwnCli() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            new TopicProvisioner(admin, Duration.ofSeconds(30)).ensure(Topics.all(), Optional.empty(), Optional.of((short) 1));
        }
        JsonNode submit = new ObjectMapper(new YAMLFactory())
                .readTree(JobJar.repoRoot().resolve("docker-compose.yml").toFile()).path("services").path("submit");
        String containerJar = submit.path("volumes").get(0).asText().split(":")[1];
        List<String> args = new ArrayList<>();
        for (JsonNode a : submit.path("command")) {
            String arg = a.asText();
            args.add(switch (arg) {
                case "jobmanager:8081" -> flink.restAddress();
                case "kafka:19092" -> broker.bootstrapServers();
                default -> arg.equals(containerJar) ? JobJar.path().toString() : arg;
            });
        }
        String output = flink.runFlinkCli(args, Duration.ofSeconds(120));
        Matcher m = Pattern.compile("JobID ([0-9a-f]{32})").matcher(output);
        assertThat(m.find()).as("flink run output: " + output).isTrue();
        JobID job = JobID.fromHexString(m.group(1));
        try {
            flink.awaitRunning(job, Duration.ofSeconds(90));
            LOG.info("docker-compose submit command ran with Flink's CLI: {} {}", args, job);
        } finally {
            flink.cancel(job);
        }
    }

    private JobID submit(ControllerTopics topics, Map<String, String> extra) throws IOException {
        return ControllerOnCluster.submit(flink, broker.bootstrapServers(), topics, tmp, extra);
    }

    private static void prepare(ControllerInputs in, ControllerOutputs out, double linkBitsPerSecond) {
        ControllerOnCluster.prepare(in, out, linkBitsPerSecond);
    }

    private static CatalogDag heavy() {
        return new CatalogDag("heavy",
                List.of(new CatalogTask("t1", 1e11), new CatalogTask("t2", 1e12),
                        new CatalogTask("t3", 1e12), new CatalogTask("t4", 1e11)),
                List.of(new CatalogEdge("t1", "t2", 1e8), new CatalogEdge("t2", "t4", 1e8),
                        new CatalogEdge("t1", "t3", 1e8), new CatalogEdge("t3", "t4", 1e8)));
    }

    private void assertDecidedExactlyOnce(ControllerOutputs out, JobID job) {
        out.pollUntil(() -> out.decided.size() >= REQUESTS, Duration.ofSeconds(180));
        out.drain(Duration.ofSeconds(3));
        long lost = 0;
        for (int i = 0; i < REQUESTS; i++) {
            if (!out.decided.contains("r-" + i)) {
                lost++;
            }
        }
        LOG.info("{} requests: {} decided read_committed, lost {}, duplicates {}, dead letters {}, restarts {}",
                REQUESTS, out.decided.size(), lost, out.duplicates, out.deadLetters.size(), numRestarts(job));
        assertThat(lost).as("lost decisions").isZero();
        assertThat(out.duplicates).as("duplicate decisions").isZero();
        assertThat(out.decided).hasSize(REQUESTS);
        assertThat(out.deadLetters).as("dead letters").isEmpty();
    }

    /**
     * The controller's state came back from the checkpoint: every request sent after the kill was decided with a
     * solved table at least as new as the newest one that decided requests before it (never the bootstrap table,
     * version 0), and that same table still distributes a model it only distributed before the kill (a restored
     * table that decided locally would mean the placement operator lost its table or catalog); and every solve after the kill started from that table (its {@code
     * currentTableVersion}) rather than from none; a table published after the kill has a newer version. Lost
     * state would restart the control loop without a table and its rate windows empty: its first decisions would
     * carry version 0, and its first solve would report {@code currentTableVersion} 0. Events count as after the
     * kill by their own time (the controller's clock, this machine's): the reader may see an older event late,
     * as it reads several topics at once.
     */
    private static void assertTableSurvived(ControllerOutputs out, long versionBeforeKill, boolean[] localBefore,
            int sentAtKill, long killedAtMillis) {
        List<ControllerEvent> after = out.events.stream().filter(e -> e.time() >= killedAtMillis).toList();
        LOG.info("after the kill: {} events: {}", after.size(), after.stream().map(e -> e.type() + " " + e.details()).toList());
        List<String> older = new ArrayList<>();
        long localUnderNewer = 0;
        for (int i = sentAtKill; i < REQUESTS; i++) {
            String id = "r-" + i;
            long v = out.tableVersionOf.getOrDefault(id, -1L);
            boolean local = out.decidedByFallback.contains(id);
            if (v < versionBeforeKill || (v == versionBeforeKill && local && !localBefore[modelOf(id)])) {
                older.add(id + "@v" + v + (local ? " local" : ""));
            } else if (local) {
                localUnderNewer++;
            }
        }
        LOG.info("after the kill: {} requests, {} placed locally (as their table placed them before, or by a newer table than v{})", REQUESTS - sentAtKill,
                localUnderNewer, versionBeforeKill);
        assertThat(older).as("requests sent after the kill decided with a table older than v" + versionBeforeKill
                + ", or locally by the same table v" + versionBeforeKill + " that only distributed their model before; "
                + older.size() + " of " + (REQUESTS - sentAtKill)).isEmpty();
        for (ControllerEvent e : after) {
            if (e.type() == ControllerEventType.REOPTIMIZATION_FINISHED) {
                assertThat(((Number) e.details().get("currentTableVersion")).longValue())
                        .as("a solve after the kill starts from the restored table: " + e.details())
                        .isGreaterThanOrEqualTo(versionBeforeKill);
            }
            if (e.type() == ControllerEventType.TABLE_PUBLISHED || e.type() == ControllerEventType.FALLBACK) {
                assertThat(((Number) e.details().get("tableVersion")).longValue()).as("published after the kill: " + e.details())
                        .isGreaterThan(versionBeforeKill);
            }
        }
    }

    /** The model of request {@code r-i} as the {@link RequestPublisher} sends it: 0 for fj-a (even i), 1 for fj-b. */
    private static int modelOf(String requestId) {
        return Integer.parseInt(requestId.substring(requestId.indexOf('-') + 1)) % 2;
    }

    /** The job's {@code numRestarts} metric; the JobManager fetches metrics lazily, so ask until it answers. */
    private double numRestarts(JobID job) {
        try {
            return await().atMost(Duration.ofSeconds(20)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(500))
                    .until(() -> flink.rest().jobMetric(job.toHexString(), "numRestarts"), Optional::isPresent).get();
        } catch (ConditionTimeoutException e) {
            return -1.0;
        }
    }

    private void awaitRestart(JobID job) {
        await().atMost(Duration.ofSeconds(60)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(numRestarts(job)).as("the kill -9 restarted the job")
                        .isGreaterThanOrEqualTo(1));
    }

    /** A well-formed catalog entry whose DAG is a chain of {@code tasks} tasks (about 67 bytes per task). */
    private static String chainEntry(String model, int tasks) {
        StringBuilder json = new StringBuilder("{\"schemaVersion\":1,\"model\":\"").append(model)
                .append("\",\"dag\":{\"name\":\"").append(model).append("\",\"tasks\":[");
        for (int i = 0; i < tasks; i++) {
            json.append(i == 0 ? "" : ",").append("{\"id\":\"t").append(i).append("\",\"ops\":1.0}");
        }
        json.append("],\"edges\":[");
        for (int i = 1; i < tasks; i++) {
            json.append(i == 1 ? "" : ",").append("{\"from\":\"t").append(i - 1).append("\",\"to\":\"t").append(i)
                    .append("\",\"bytes\":1.0}");
        }
        return json.append("]}}").toString();
    }

    private static String request(String id, String model, long eventTime, String extraFields) {
        return "{\"schemaVersion\":1,\"id\":\"" + id + "\",\"model\":\"" + model + "\",\"tenant\":\"it\",\"eventTime\":"
                + eventTime + extraFields + "}";
    }

    private static String bad(ControllerInputs in, String topic, String value) {
        return bad(in, topic, null, value);
    }

    private static String bad(ControllerInputs in, String topic, String key, String value) {
        in.raw(topic, key, value);
        return topic + "|" + value.substring(0, Math.min(60, value.length()));
    }

    private static boolean matches(DeadLetter d, String expectedKey) {
        String topic = expectedKey.substring(0, expectedKey.indexOf('|'));
        String head = expectedKey.substring(expectedKey.indexOf('|') + 1);
        if (!d.sourceTopic().equals(topic) || d.rawBase64() == null) {
            return d.sourceTopic().equals(topic) && d.truncated();
        }
        String raw = new String(d.raw(), StandardCharsets.UTF_8);
        return raw.startsWith(head);
    }
}
