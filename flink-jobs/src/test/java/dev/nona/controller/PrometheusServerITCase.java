package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.controller.metrics.ControllerMetric;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.testing.InProcessKafka;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus server (Debian's {@code prometheus} package, which {@code .ci/run} installs) scrapes the
 * controller job's reporter every second while requests arrive at a steady pace; the test reads the decision
 * rate and the decision count back through Prometheus's HTTP API ({@code /api/v1/query}) and runs every query of
 * the Grafana dashboard on it. Without the {@code prometheus} binary the test is skipped, unless {@code CI=true},
 * where it fails.
 */
final class PrometheusServerITCase {
    private static final int REPORTER_PORT = MetricsTesting.freePort();

    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    @RegisterExtension
    static final MiniClusterExtension FLINK = MetricsTesting.miniClusterWithReporter(REPORTER_PORT);

    private static final int PER_SECOND = 100;
    private static final int SECONDS = 12;
    private static final String DECISIONS = ControllerMetric.DECISIONS.prometheusName();

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void prometheusScrapesTheController_decisionRateAndCountReadBackThroughItsApi(@TempDir Path dir) throws Exception {
        Path binary = prometheusBinary(System.getenv());
        int webPort = MetricsTesting.freePort();
        Process prometheus = startPrometheus(binary, dir, webPort);
        ControllerConfig config = TestingBroker.config(KAFKA, "prometheus");
        TestingBroker.createTopics(KAFKA, config.topics());
        var env = ControllerEnvironment.create(config);
        ControllerJob.build(env, config);
        JobClient job = env.executeAsync("prometheus-server-it");
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer();
                KafkaConsumer<byte[], byte[]> consumer = KAFKA.consumerFromStart(config.topics().decisions(), false)) {
            URI api = URI.create("http://127.0.0.1:" + webPort);
            awaitReady(api, prometheus);
            // The paced sending starts once the job places requests (a warm-up one, counted like the others): the
            // rate below is read at the end of the sending over its last 5 s, and with the job's start-up inside the
            // sending (seconds on a busy machine) those 5 s could hold no decision at all.
            TestingBroker.sendClusterAndRequests(producer, config.topics(), 1, System.currentTimeMillis());
            Map<String, PlacementDecision> decided = new LinkedHashMap<>();
            MetricsTesting.readDecisions(consumer, decided, 1, Duration.ofSeconds(120), job);
            int sent = 1;
            long start = System.currentTimeMillis();
            for (int s = 0; s < SECONDS; s++) {
                long second = start + s * 1_000L;
                TestingBroker.sendRequests(producer, config.topics().requests(), "s" + s + "-", PER_SECOND,
                        System.currentTimeMillis());
                sent += PER_SECOND;
                MetricsTesting.poll(consumer, decided);
                long sleep = second + 1_000 - System.currentTimeMillis();
                if (sleep > 0) {
                    Thread.sleep(sleep);
                }
            }
            long sendEnd = System.currentTimeMillis();
            MetricsTesting.readDecisions(consumer, decided, sent, Duration.ofSeconds(120), job);

            // The total, once Prometheus has scraped after the last decision: exactly what the executor side read.
            double total = awaitValue(api, "sum(" + DECISIONS + ")", v -> v == decided.size(), Duration.ofSeconds(30));
            assertThat(total).as("sum(decisions) through Prometheus").isEqualTo(decided.size());
            // The rate while requests were arriving (evaluated at the end of the sending).
            double rate = query(api, "sum(rate(" + DECISIONS + "[5s]))", sendEnd / 1000.0).orElse(Double.NaN);
            assertThat(rate).as("decision rate through Prometheus at the end of sending").isPositive();
            double meter = query(api, "sum(" + ControllerMetric.DECISIONS_PER_SECOND.prometheusName() + ")",
                    System.currentTimeMillis() / 1000.0).orElse(Double.NaN);
            List<String> queries = MetricsTesting.dashboardQueries();
            int withData = 0;
            for (String q : queries) {
                JsonNode result = queryJson(api, q, System.currentTimeMillis() / 1000.0);
                assertThat(result.path("status").asText()).as("dashboard query %s: %s", q, result).isEqualTo("success");
                withData += result.path("data").path("result").isEmpty() ? 0 : 1;
            }
            System.out.printf("PrometheusServerITCase: sent %d requests at %d/s for %d s; through Prometheus: "
                            + "sum(decisions) = %.0f, sum(rate(decisions[5s])) = %.1f decisions/s at the end of sending, "
                            + "sum(decisionsPerSecond) = %.1f; %d of %d dashboard queries returned data%n",
                    sent, PER_SECOND, SECONDS, total, rate, meter, withData, queries.size());
        } finally {
            job.cancel().get();
            prometheus.destroy();
            if (!prometheus.waitFor(10, TimeUnit.SECONDS)) {
                prometheus.destroyForcibly();
            }
        }
    }

    /** The {@code prometheus} binary on {@code env}'s PATH; skips the test without it, fails without it on CI. */
    static Path prometheusBinary(Map<String, String> env) {
        Optional<Path> found = List.of(env.getOrDefault("PATH", "").split(File.pathSeparator)).stream()
                .filter(p -> !p.isEmpty()).map(p -> Path.of(p, "prometheus")).filter(Files::isExecutable).findFirst();
        if (found.isEmpty()) {
            String message = "no prometheus binary on the PATH (Debian: apt-get install prometheus; .ci/run installs it)";
            if ("true".equalsIgnoreCase(env.get("CI"))) {
                fail(message + ", and CI=true: this test must run on CI");
            }
            Assumptions.abort(message + ": skipped");
        }
        return found.get();
    }

    private static Process startPrometheus(Path binary, Path dir, int webPort) throws Exception {
        Path configFile = dir.resolve("prometheus.yml");
        Files.writeString(configFile, """
                global:
                  scrape_interval: 1s
                  evaluation_interval: 1s
                scrape_configs:
                  - job_name: nona-controller
                    static_configs:
                      - targets: ["127.0.0.1:%d"]
                """.formatted(REPORTER_PORT));
        return new ProcessBuilder(binary.toString(), "--config.file=" + configFile,
                "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + webPort,
                "--log.level=warn")
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
    }

    private void awaitReady(URI api, Process prometheus) {
        await().alias("prometheus ready on " + api).atMost(Duration.ofSeconds(60)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(200))
                .failFast("prometheus exited", () -> !prometheus.isAlive())
                .ignoreException(IOException.class) // not listening yet
                .until(() -> http.send(HttpRequest.newBuilder(api.resolve("/-/ready")).GET().build(),
                        HttpResponse.BodyHandlers.ofString()).statusCode() == 200);
    }

    private double awaitValue(URI api, String promql, Predicate<Double> done, Duration timeout) {
        return await().alias(promql).atMost(timeout).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(500))
                .until(() -> query(api, promql, System.currentTimeMillis() / 1000.0).orElse(Double.NaN), done);
    }

    /** The value of an instant query's single sample, or empty when it has none. */
    private Optional<Double> query(URI api, String promql, double time) throws Exception {
        JsonNode result = queryJson(api, promql, time);
        assertThat(result.path("status").asText()).as("%s: %s", promql, result).isEqualTo("success");
        JsonNode samples = result.path("data").path("result");
        return samples.isEmpty() ? Optional.empty() : Optional.of(samples.get(0).path("value").get(1).asDouble());
    }

    private JsonNode queryJson(URI api, String promql, double time) throws Exception {
        URI uri = api.resolve("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)
                + "&time=" + time);
        return json.readTree(http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString())
                .body());
    }
}
