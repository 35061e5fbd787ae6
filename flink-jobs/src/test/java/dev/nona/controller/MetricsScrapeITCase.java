package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import dev.nona.controller.metrics.ControllerMetric;
import dev.nona.controller.metrics.PrometheusText;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.OutcomePart;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.testing.InProcessKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The controller job on a MiniCluster with Flink's Prometheus reporter, on a real in-process KRaft broker:
 * requests, two bad ones and outcomes go in, and a scrape of {@code /metrics} must show every metric of
 * {@link ControllerMetric} under its Prometheus name, with values that match what happened: the decisions
 * counted once each, the histogram's count, the dead letters by reason class, the servers, the predicted JCT and
 * the calibration ratio of outcomes that took twice the prediction.
 */
final class MetricsScrapeITCase {
    private static final int PORT = MetricsTesting.freePort();

    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    @RegisterExtension
    static final MiniClusterExtension FLINK = MetricsTesting.miniClusterWithReporter(PORT);

    private static final int REQUESTS = 300;
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @Test
    void scrape_showsEveryControllerMetric_withValuesOfTheRun() throws Exception {
        ControllerConfig config = TestingBroker.config(KAFKA, "metrics");
        TestingBroker.createTopics(KAFKA, config.topics());
        TestingBroker.createOutcomesTopic(KAFKA, config.topics(), 1);
        // The broker lists a new topic a moment after creating it; the job's build asks once (KafkaIo.topicExists)
        // and runs without the outcome path when it is not listed yet.
        await().atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertThat(KafkaIo.topicExists(config, config.topics().outcomes()))
                        .as("the outcomes topic exists when the job is built (else it runs without the outcome path)")
                        .isTrue());
        var env = ControllerEnvironment.create(config);
        ControllerJob.build(env, config);
        JobClient job = env.executeAsync("metrics-scrape-it");
        try (KafkaProducer<byte[], byte[]> producer = KAFKA.producer();
                KafkaConsumer<byte[], byte[]> consumer = KAFKA.consumerFromStart(config.topics().decisions(), false)) {
            long now = System.currentTimeMillis();
            TestingBroker.sendClusterAndRequests(producer, config.topics(), REQUESTS, now);
            TestingBroker.send(producer, config.topics().requests(), "bad-json", "{not json".getBytes(StandardCharsets.UTF_8));
            JsonSerde<InferenceRequest> requests =
                    new JsonSerde<>(InferenceRequest.class, 1 << 20);
            TestingBroker.send(producer, config.topics().requests(), "unknown-model",
                    requests.serialize(InferenceRequest.of("unknown-model", "no-such-model", "acme",
                            now + REQUESTS, 1L)));
            producer.flush();
            Map<String, PlacementDecision> decided = MetricsTesting.readDecisions(consumer, new LinkedHashMap<>(),
                    REQUESTS, TIMEOUT, job);
            // Event time past the first windows, so that the rate estimator closes them and the control loop solves
            // a table: 5 s after the first requests (their record timestamps say so too: TestingBroker), less the
            // 2 s of watermark.out-of-orderness, closes every window up to now + 3 s, whatever the wall clock says.
            TestingBroker.sendRequests(producer, config.topics().requests(), "next-", 20, now + 5_000);
            MetricsTesting.readDecisions(consumer, decided, REQUESTS + 20, TIMEOUT, job);
            JsonSerde<PlacementOutcome> outcomes = new JsonSerde<>(PlacementOutcome.class, 1 << 20);
            for (PlacementDecision d : decided.values()) {
                TestingBroker.send(producer, config.topics().outcomes(), d.requestId(), outcomes.serialize(twiceAsLong(d)));
            }
            producer.flush();

            String fig1 = "fig1";
            PrometheusText scrape = awaitScrape(s -> s.sum(ControllerMetric.CALIBRATION_RATIO.prometheusName()) > 0
                    && s.sum(ControllerMetric.TABLE_VERSION.prometheusName()) >= 1
                    && s.sum(ControllerMetric.DECISIONS_PER_SECOND.prometheusName()) > 0
                    && s.sum(ControllerMetric.DEAD_LETTERS_BY_REASON.prometheusName()) >= 2);
            Set<String> missing = new LinkedHashSet<>();
            for (ControllerMetric m : ControllerMetric.values()) {
                if (scrape.select(m.prometheusName()).isEmpty()) {
                    missing.add(m.prometheusName());
                }
            }
            assertThat(missing).as("ControllerMetric names not in the scrape (outcomes matched %s, unmatched %s, ignored"
                    + " %s, missing %s); the scrape has %s",
                    scrape.sum(ControllerMetric.MATCHED_OUTCOMES.prometheusName()),
                    scrape.sum(ControllerMetric.UNMATCHED_OUTCOMES.prometheusName()),
                    scrape.sum(ControllerMetric.IGNORED_OUTCOMES.prometheusName()),
                    scrape.sum(ControllerMetric.MISSING_OUTCOMES.prometheusName()),
                    scrape.names().stream().filter(n -> n.startsWith(ControllerMetric.OPERATOR_PREFIX)).toList()).isEmpty();

            assertThat(scrape.sum(ControllerMetric.DECISIONS.prometheusName())).isEqualTo(decided.size());
            assertThat(scrape.sum(ControllerMetric.PLACEMENT_LATENCY_MILLIS.prometheusName() + "_count"))
                    .isEqualTo(decided.size());
            assertThat(scrape.select(ControllerMetric.PLACEMENT_LATENCY_MILLIS.prometheusName()))
                    .extracting(s -> s.labels().get("quantile")).contains("0.5", "0.99");
            assertThat(scrape.sum(ControllerMetric.DEAD_LETTERS_BY_REASON.prometheusName(), "topic",
                    config.topics().requests().replace('-', '_'), "reason", "model_is_not_in_the_model_catalog"))
                    .isEqualTo(1);
            assertThat(scrape.sum(ControllerMetric.DEAD_LETTERS_BY_REASON.prometheusName())).isEqualTo(2);
            assertThat(scrape.sum(ControllerMetric.DEAD_LETTERS.prometheusName(), "operator_name", "parse_requests"))
                    .isEqualTo(1);
            assertThat(scrape.sum(ControllerMetric.UNPLACED_REQUESTS.prometheusName())).isEqualTo(1);
            assertThat(scrape.sum(ControllerMetric.SERVERS_UP.prometheusName())).isEqualTo(4);
            assertThat(scrape.sum(ControllerMetric.SERVERS_SILENT.prometheusName())).isZero();
            assertThat(scrape.sum(ControllerMetric.SERVERS_DRAINED.prometheusName())).isZero();
            assertThat(scrape.sum(ControllerMetric.SOLVES.prometheusName())).isGreaterThanOrEqualTo(1);
            assertThat(scrape.select(ControllerMetric.PREDICTED_JCT_SECONDS.prometheusName(), "model", fig1))
                    .isNotEmpty().allSatisfy(s -> assertThat(s.value()).isPositive());
            assertThat(scrape.select(ControllerMetric.RATE_ESTIMATE.prometheusName(), "model", fig1)).hasSize(1);
            assertThat(scrape.select(ControllerMetric.CALIBRATION_RATIO.prometheusName(), "model", fig1))
                    .singleElement().satisfies(s -> assertThat(s.value()).isCloseTo(2.0, within(1e-9)));
            assertThat(scrape.select(ControllerMetric.OBSERVED_JCT_SECONDS.prometheusName(), "model", fig1))
                    .singleElement().satisfies(s -> assertThat(s.value()).isPositive());
            System.out.printf("MetricsScrapeITCase: decisions %.0f, decisionsPerSecond %.2f, placementLatencyMillis "
                            + "p50 %.1f p99 %.1f, tableVersion %.0f, solves %.0f, rateEstimate(fig1) %.1f, "
                            + "predictedJctSeconds(fig1) %s, calibrationRatio(fig1) %.3f, dead letters by reason %s%n",
                    scrape.sum(ControllerMetric.DECISIONS.prometheusName()),
                    scrape.sum(ControllerMetric.DECISIONS_PER_SECOND.prometheusName()),
                    scrape.sum(ControllerMetric.PLACEMENT_LATENCY_MILLIS.prometheusName(), "quantile", "0.5"),
                    scrape.sum(ControllerMetric.PLACEMENT_LATENCY_MILLIS.prometheusName(), "quantile", "0.99"),
                    scrape.sum(ControllerMetric.TABLE_VERSION.prometheusName()),
                    scrape.sum(ControllerMetric.SOLVES.prometheusName()),
                    scrape.sum(ControllerMetric.RATE_ESTIMATE.prometheusName(), "model", fig1),
                    scrape.select(ControllerMetric.PREDICTED_JCT_SECONDS.prometheusName(), "model", fig1).stream()
                            .map(PrometheusText.Sample::value).toList(),
                    scrape.sum(ControllerMetric.CALIBRATION_RATIO.prometheusName(), "model", fig1),
                    scrape.select(ControllerMetric.DEAD_LETTERS_BY_REASON.prometheusName()).stream()
                            .map(s -> s.labels().get("reason") + "=" + s.value()).toList());
        } finally {
            job.cancel().get();
        }
    }

    /** Scrapes until {@code ready} holds (gauges of windows, solves and meters take a few seconds). */
    private static PrometheusText awaitScrape(Predicate<PrometheusText> ready) {
        return await().alias("a scrape with the metrics of the run").atMost(TIMEOUT).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(500)).until(() -> PrometheusText.scrape(PORT), ready);
    }

    /** An ok outcome that took twice the decision's predicted JCT, one part per server of the decision. */
    private static PlacementOutcome twiceAsLong(PlacementDecision d) {
        List<OutcomePart> parts = new ArrayList<>();
        long start = d.eventTime();
        for (String server : new LinkedHashSet<>(d.stages().stream().map(StageAssignment::server).toList())) {
            parts.add(new OutcomePart(server, start, start + 1, false, null, null));
            start += 1;
        }
        // twice the table's tau_j: calibration compares with the cost model's figure, not the request's own prediction
        return PlacementOutcome.ok(d.requestId(), d.model(), d.tableVersion(), parts, 0, start,
                2 * d.explanation().tableJctSeconds());
    }
}
