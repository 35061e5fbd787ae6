package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.serde.JsonSerde;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/** What the metrics ITCases share: a MiniCluster with Flink's Prometheus reporter, and reading decisions. */
final class MetricsTesting {
    private static final JsonSerde<PlacementDecision> DECISIONS = new JsonSerde<>(PlacementDecision.class, 1 << 20);

    private MetricsTesting() {}

    /** A port nothing listens on now (the reporter binds it a moment later). */
    static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }

    /** A MiniCluster (1 TaskManager, 2 slots) whose metrics Flink's Prometheus reporter serves on {@code port}. */
    static MiniClusterExtension miniClusterWithReporter(int port) {
        Configuration conf = new Configuration();
        // Flink 2.x reporter keys (docs/operations.md, "Metrics"): the factory, and the port the exporter listens on
        conf.setString("metrics.reporter.prom.factory.class", "org.apache.flink.metrics.prometheus.PrometheusReporterFactory");
        conf.setString("metrics.reporter.prom.port", String.valueOf(port));
        return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setConfiguration(conf).setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());
    }

    /** Reads decisions until {@code n} distinct requests are decided; returns them, first decision per request. */
    static Map<String, PlacementDecision> readDecisions(KafkaConsumer<byte[], byte[]> consumer,
            Map<String, PlacementDecision> decided, int n, Duration timeout, JobClient job) {
        TestingBroker.awaitWhileRunning(job, timeout).untilAsserted(() -> {
            poll(consumer, decided);
            assertThat(decided).as("decided requests").hasSizeGreaterThanOrEqualTo(n);
        });
        assertThat(decided).as("decided requests").hasSize(n);
        return decided;
    }

    /** One poll of the decisions topic (200 ms at most); the first decision per request is kept. */
    static void poll(KafkaConsumer<byte[], byte[]> consumer, Map<String, PlacementDecision> decided) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
            PlacementDecision d = DECISIONS.parse(r.value()).value();
            decided.putIfAbsent(d.requestId(), d);
        }
    }

    /** The PromQL expressions of the Grafana dashboard under deploy/ ({@code targets[].expr} of every panel). */
    static List<String> dashboardQueries() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(Files.readString(dashboardFile()));
        List<String> exprs = new ArrayList<>();
        dashboard.findValues("targets").forEach(targets -> targets.forEach(t -> {
            if (t.hasNonNull("expr")) {
                exprs.add(t.get("expr").asText());
            }
        }));
        return exprs;
    }

    /** deploy/grafana/dashboards/nona-controller.json, from the module directory or the repository root. */
    static Path dashboardFile() {
        Path relative = Path.of("deploy", "grafana", "dashboards", "nona-controller.json");
        Path fromModule = Path.of("..").resolve(relative);
        return Files.isRegularFile(fromModule) ? fromModule : relative;
    }
}
