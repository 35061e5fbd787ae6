package dev.nona.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.cli.NonaCli;
import dev.nona.local.FreePorts;
import dev.nona.topics.Topics;
import dev.nona.topics.client.ClientProperties;
import dev.nona.topics.record.OutcomePart;
import dev.nona.topics.record.OutcomeStatus;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.serde.JsonSerde;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live page in a real browser while {@code nona demo --dashboard} runs (a real KRaft broker, the controller on a
 * MiniCluster, a rate shift at half time): once the page shows decisions for every model and a drift event, headless Chromium
 * renders it, and the numbers in its DOM (current table version, decisions per model, servers, and per model the
 * requests its predicted and observed JCT are over and both means) must equal what the topics hold up to the offsets
 * the page says it has read. A second test serves known decisions and outcomes without Kafka and checks the JCT
 * cells to the digit. Saves a screenshot to {@code target/dashboard.png} (and to
 * the path in the system property {@code dashboard.screenshot}, e.g. {@code docs/images/dashboard.png}).
 */
final class DashboardPageIT {
    private static final Duration POLL = Duration.ofMillis(500);
    private static final int DEMO_SECONDS = 40;
    private static final int SPAN_SECONDS = 28;
    private static final Pattern TABLE_VERSION = Pattern.compile("<span id=\"table-version\">(\\d+)</span>");
    private static final Pattern MODEL_ROW = Pattern.compile(
            "<tr data-model=\"([^\"]+)\"><td>[^<]*</td><td class=\"decisions\">(\\d+)</td>");
    private static final Pattern SERVER_ROW = Pattern.compile("<tr data-server=\"([^\"]+)\">");
    private static final Pattern POSITION = Pattern.compile("<li data-tp=\"([^\"]+)-(\\d+)\">[^<]* (\\d+)</li>");

    private static final Pattern JCT_ROW = Pattern.compile("<tr data-model=\"([^\"]+)\">.*?"
            + "<td class=\"jct-requests\">([^<]*)</td><td class=\"predicted\">([^<]*)</td>"
            + "<td class=\"observed\">([^<]*)</td><td class=\"ratio\">([^<]*)</td>");
    private static final long T0 = 1_800_000_000_000L;

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void page_duringTheDemo_showsWhatTheTopicsHold(@TempDir Path tmp) throws Exception {
        HeadlessChromium chromium = HeadlessChromium.require(Files.createDirectories(tmp.resolve("profile")));
        int port = FreePorts.next();
        String url = "http://localhost:" + port + "/";
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CompletableFuture<Integer> demo = CompletableFuture.supplyAsync(() -> NonaCli.commandLine()
                .setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute("demo", "--seconds", String.valueOf(DEMO_SECONDS), "--dashboard=" + port));

        JsonNode state = awaitDecisionsAndDrift(url, demo);
        String bootstrap = state.path("bootstrap").asText();

        String dom = chromium.dumpDom(url);
        Map<TopicPartition, Long> positions = positions(dom);
        Map<String, Long> pageDecisions = groups(MODEL_ROW, dom);
        long pageVersion = Long.parseLong(single(TABLE_VERSION, dom));
        Set<String> pageServers = new TreeSet<>(groups(SERVER_ROW, dom).keySet());
        TopicCounts topics = read(bootstrap, positions);

        assertThat(pageDecisions).as("decisions per model on the page").hasSize(5).allSatisfy((m, n) ->
                assertThat(n).isPositive());
        assertThat(pageDecisions).as("decisions per model in placement-decisions up to the page's offsets")
                .isEqualTo(topics.decisions);
        assertThat(pageVersion).as("current table version").isPositive().isEqualTo(topics.maxTableVersion);
        assertThat(pageServers).as("servers").hasSize(4).isEqualTo(topics.servers);
        assertThat(dom).as("a server's requests/s").containsPattern("<td class=\"requests\">[1-9]");
        assertThat(dom).contains("current table: version " + pageVersion, "drained: none",
                "DRIFT_DETECTED");
        Map<String, List<String>> pageJcts = jctRows(dom);
        assertThat(pageJcts).as("JCT cells per model").containsOnlyKeys(pageDecisions.keySet());
        assertThat(topics.jcts.values()).as("requests with a decision and an ok outcome in the window")
                .extracting(JctFigures::requests).isNotEmpty().allSatisfy(n -> assertThat(n).isPositive());
        pageJcts.forEach((model, cells) -> {
            JctFigures expected = topics.jcts.getOrDefault(model, new JctFigures(0, 0, 0));
            assertThat(Long.parseLong(cells.get(0))).as(model + ": requests the JCTs are over")
                    .isEqualTo(expected.requests());
            if (expected.requests() == 0) {
                assertThat(cells.subList(1, 4)).as(model + ": no JCT without requests").containsOnly("–");
            } else {
                assertThat(Double.parseDouble(cells.get(1))).as(model + ": mean predicted JCT (ms) of those requests")
                        .isCloseTo(expected.predictedMeanMillis(), within(0.051));
                assertThat(Double.parseDouble(cells.get(2))).as(model + ": mean observed JCT (ms) of those requests")
                        .isCloseTo(expected.observedMeanMillis(), within(0.051));
            }
        });

        Path png = Path.of("target", "dashboard.png");
        chromium.screenshot(url, png, 1400, 2000);
        assertThat(Files.readAllBytes(png)).startsWith(0x89, 'P', 'N', 'G').hasSizeGreaterThan(20_000);
        String copy = System.getProperty("dashboard.screenshot");
        if (copy != null && !copy.isBlank()) {
            Files.createDirectories(Path.of(copy).toAbsolutePath().getParent());
            Files.copy(png, Path.of(copy), StandardCopyOption.REPLACE_EXISTING);
        }

        assertThat(demo.get(5, TimeUnit.MINUTES)).as("demo exit; stdout: " + out + "; stderr: " + err).isZero();
    }

    /**
     * Known decisions and outcomes, folded into the page's state as the feed folds them and served: in headless
     * Chromium the Models table must show, side by side, the mean predicted and mean observed JCT of exactly the
     * requests that have both a decision and an ok outcome completed in the window, and their ratio. A cold start
     * before the window, a decision without an outcome, an outcome without a decision and a timeout would each move
     * one column and not the other if they were counted.
     */
    @Test
    void page_showsPredictedAndObservedJct_ofTheSameRequests(@TempDir Path tmp) throws Exception {
        HeadlessChromium chromium = HeadlessChromium.require(Files.createDirectories(tmp.resolve("profile")));
        DashboardState state = new DashboardState("localhost:9092", Duration.ofSeconds(3));
        long window = T0 + 2_000 + JctPairs.WINDOW_SECONDS * 1000L;
        decide(state, "cold", "alexnet", T0, 0.010);
        state.outcome(ok("cold", "alexnet", T0 + 2_000, 2.0)); // completed before the window
        double[] predicted = {0.010, 0.011, 0.012, 0.013};
        for (int i = 0; i < predicted.length; i++) {
            decide(state, "a-" + i, "alexnet", window, predicted[i]);
            state.outcome(ok("a-" + i, "alexnet", window + 12, 0.012));
        }
        decide(state, "a-waiting", "alexnet", window, 5.0); // no outcome yet
        state.outcome(ok("a-unknown", "alexnet", window + 20, 9.0)); // its decision was not read
        decide(state, "a-timeout", "alexnet", window, 0.010);
        state.outcome(PlacementOutcome.ended("a-timeout", "alexnet", 1, List.of(), 0, OutcomeStatus.TIMEOUT,
                window + 900, 4.0, "timed out"));
        state.outcome(ok("r-0", "resnet18", window + 60, 0.060)); // read before its decision
        decide(state, "r-0", "resnet18", window, 0.020);

        try (DashboardServer server = new DashboardServer("localhost", 0, state::snapshot)) {
            String dom = chromium.dumpDom("http://localhost:" + server.port() + "/");

            assertThat(jctRows(dom)).as("requests, pred. JCT, obs. JCT (ms) and obs./pred. per model on the page")
                    .containsExactly(
                            Map.entry("alexnet", List.of("4", "11.5", "12.0", "1.04")), // 12.0 / 11.5
                            Map.entry("resnet18", List.of("1", "20.0", "60.0", "3.00")));
            assertThat(dom).as("the window, stated in the header")
                    .contains("JCT of the same requests, last <span class=\"jct-window\">" + JctPairs.WINDOW_SECONDS
                            + "</span> s");
        }
    }

    private static void decide(DashboardState state, String id, String model, long eventTime, double jct) {
        state.decision(PlacementDecision.of(id, model, "t", 1, false, List.of(new StageAssignment("a", "s0")), jct,
                eventTime));
    }

    private static PlacementOutcome ok(String id, String model, long completedAt, double jct) {
        return PlacementOutcome.ok(id, model, 1, List.of(OutcomePart.of("s0", completedAt - 10, completedAt, false)),
                0, completedAt, jct);
    }

    /** Per model row: its JCT requests, predicted, observed and ratio cells, in page order. */
    private static Map<String, List<String>> jctRows(String dom) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        Matcher m = JCT_ROW.matcher(dom);
        while (m.find()) {
            out.put(m.group(1), List.of(m.group(2), m.group(3), m.group(4), m.group(5)));
        }
        return out;
    }

    /**
     * The page's state once it has a table, decisions for the five models, a drift event and {@link #SPAN_SECONDS}
     * seconds of rates: past the demo's rate shift at half time (whether the re-solved table is published or
     * rejected is the controller's call).
     */
    private JsonNode awaitDecisionsAndDrift(String url, CompletableFuture<Integer> demo) throws Exception {
        while (!demo.isDone()) {
            JsonNode s = stateOrNull(url);
            if (s != null && s.path("tables").size() >= 1 && s.path("models").size() == 5
                    && s.path("rates").path("seconds").size() >= SPAN_SECONDS
                    && s.path("marks").findValuesAsText("kind").contains("DRIFT_DETECTED")) {
                return s;
            }
            Thread.sleep(POLL.toMillis());
        }
        JsonNode last = stateOrNull(url);
        return fail("the demo ended (exit " + demo.get() + ") before the page showed a table, five models and drift; "
                + "last state: " + last);
    }

    private JsonNode stateOrNull(String url) throws InterruptedException {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url + "api/state"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? json.readTree(r.body()) : null;
        } catch (IOException notYet) {
            return null; // the demo has not started the dashboard yet
        }
    }

    private record TopicCounts(Map<String, Long> decisions, long maxTableVersion, Set<String> servers,
            Map<String, JctFigures> jcts) {}

    /** One model's requests with a decision and an ok outcome in the JCT window, and their mean JCTs (ms). */
    private record JctFigures(long requests, double predictedMeanMillis, double observedMeanMillis) {}

    private record Ok(String requestId, String model, long completedAt, double jctSeconds) {}

    /**
     * Brute force, as the page defines it: the first decision per request joined with the ok outcomes, those whose
     * completion second is within {@link JctPairs#WINDOW_SECONDS} of the newest joined one, per model.
     */
    private static Map<String, JctFigures> jcts(Map<String, Double> firstPrediction, List<Ok> oks) {
        List<Ok> joined = oks.stream().filter(o -> firstPrediction.containsKey(o.requestId())).toList();
        long newest = joined.stream().mapToLong(o -> Math.floorDiv(o.completedAt(), 1000L)).max().orElse(0);
        Map<String, double[]> sums = new TreeMap<>(); // model -> {n, predicted, observed}
        for (Ok o : joined) {
            if (Math.floorDiv(o.completedAt(), 1000L) > newest - JctPairs.WINDOW_SECONDS) {
                double[] x = sums.computeIfAbsent(o.model(), m -> new double[3]);
                x[0]++;
                x[1] += firstPrediction.get(o.requestId());
                x[2] += o.jctSeconds();
            }
        }
        Map<String, JctFigures> out = new TreeMap<>();
        sums.forEach((m, x) -> out.put(m, new JctFigures((long) x[0], 1000 * x[1] / x[0], 1000 * x[2] / x[0])));
        return out;
    }

    /** What the topics hold before the page's offsets, read as the dashboard reads them (read_committed). */
    private static TopicCounts read(String bootstrap, Map<TopicPartition, Long> until) {
        JsonSerde<PlacementDecision> decisions = JsonSerde.forTopic(Topics.PLACEMENT_DECISIONS);
        JsonSerde<PlacementTableRecord> tables = JsonSerde.forTopic(Topics.PLACEMENT_TABLES);
        JsonSerde<PlacementOutcome> outcomes = JsonSerde.forTopic(Topics.PLACEMENT_OUTCOMES);
        Map<String, Double> firstPrediction = new HashMap<>();
        List<Ok> oks = new ArrayList<>();
        Map<String, Long> perModel = new TreeMap<>();
        Set<String> servers = new TreeSet<>();
        long maxVersion = -1;
        var props = ClientProperties.readCommittedConsumer(bootstrap, null);
        props.put("max.partition.fetch.bytes", String.valueOf(Topics.TABLE_MAX_BYTES));
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            c.assign(until.keySet());
            c.seekToBeginning(until.keySet());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (until.entrySet().stream().anyMatch(e -> c.position(e.getKey()) < e.getValue())) {
                if (System.nanoTime() > deadline) {
                    fail("could not read the topics up to the page's offsets " + until + " within 60 s");
                }
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                    if (r.offset() >= until.get(tp)) {
                        continue;
                    }
                    if (r.topic().equals(Topics.PLACEMENT_DECISIONS.name())) {
                        PlacementDecision d = decisions.parse(r.value()).value();
                        perModel.merge(d.model(), 1L, Long::sum);
                        firstPrediction.putIfAbsent(d.requestId(), d.predictedJctSeconds());
                    } else if (r.topic().equals(Topics.PLACEMENT_OUTCOMES.name())) {
                        PlacementOutcome o = outcomes.parse(r.value()).value();
                        if (o.status() == OutcomeStatus.OK) {
                            oks.add(new Ok(o.requestId(), o.model(), o.completedAt(), o.observedJctSeconds()));
                        }
                    } else if (r.topic().equals(Topics.PLACEMENT_TABLES.name())) {
                        maxVersion = Math.max(maxVersion, tables.parse(r.value()).value().version());
                    } else {
                        servers.add(new String(r.key(), StandardCharsets.UTF_8));
                    }
                }
            }
        }
        return new TopicCounts(perModel, maxVersion, servers, jcts(firstPrediction, oks));
    }

    private static Map<TopicPartition, Long> positions(String dom) {
        Map<TopicPartition, Long> out = new HashMap<>();
        Matcher m = POSITION.matcher(dom);
        while (m.find()) {
            String topic = m.group(1);
            if (topic.equals(Topics.PLACEMENT_DECISIONS.name()) || topic.equals(Topics.PLACEMENT_TABLES.name())
                    || topic.equals(Topics.CLUSTER_TELEMETRY.name())
                    || topic.equals(Topics.PLACEMENT_OUTCOMES.name())) {
                out.put(new TopicPartition(topic, Integer.parseInt(m.group(2))), Long.parseLong(m.group(3)));
            }
        }
        assertThat(out.keySet()).as("partitions the page has read, in its DOM")
                .extracting(TopicPartition::topic).contains(Topics.PLACEMENT_DECISIONS.name(),
                        Topics.PLACEMENT_TABLES.name(), Topics.CLUSTER_TELEMETRY.name(),
                        Topics.PLACEMENT_OUTCOMES.name());
        return out;
    }

    /** Group 1 to group 2 (as a number, or 0 when the pattern has one group) of every match. */
    private static Map<String, Long> groups(Pattern p, String dom) {
        Map<String, Long> out = new TreeMap<>();
        Matcher m = p.matcher(dom);
        while (m.find()) {
            out.put(m.group(1), m.groupCount() > 1 ? Long.parseLong(m.group(2)) : 0L);
        }
        return out;
    }

    private static String single(Pattern p, String dom) {
        Matcher m = p.matcher(dom);
        if (!m.find()) {
            fail("the page shows no " + p + " in its DOM:\n" + dom);
        }
        return m.group(1);
    }
}
