package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.metrics.ControllerMetric;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every PromQL query of the Grafana dashboard ({@code deploy/grafana/dashboards/nona-controller.json}) names only
 * metrics the job exports, by the names of {@link ControllerMetric} (which the operators register by, and which
 * {@code MetricsScrapeITCase} finds in a real scrape). {@code PrometheusServerITCase} runs the same queries on a
 * real Prometheus server.
 */
final class GrafanaDashboardTest {
    /** PromQL words that are not metric names (operators, modifiers). */
    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
            "offset", "bool", "and", "or", "unless", "atan2");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

    @Test
    void everyQuery_namesOnlyMetricsTheJobExports() throws Exception {
        List<String> queries = MetricsTesting.dashboardQueries();
        assertThat(queries).as("queries in %s", MetricsTesting.dashboardFile()).hasSizeGreaterThanOrEqualTo(10);
        Set<String> exported = exportedNames();
        Map<String, Set<String>> unknown = new TreeMap<>();
        for (String q : queries) {
            Set<String> names = metricNames(q);
            assertThat(names).as("metric names in %s", q).isNotEmpty();
            names.stream().filter(n -> !exported.contains(n))
                    .forEach(n -> unknown.computeIfAbsent(q, k -> new LinkedHashSet<>()).add(n));
        }
        assertThat(unknown).as("names the job does not export, by query").isEmpty();
    }

    @Test
    void dashboard_coversTheIssuesMetrics() throws Exception {
        Set<String> used = new LinkedHashSet<>();
        MetricsTesting.dashboardQueries().forEach(q -> used.addAll(metricNames(q)));
        for (ControllerMetric m : List.of(ControllerMetric.DECISIONS, ControllerMetric.PLACEMENT_LATENCY_MILLIS,
                ControllerMetric.DEAD_LETTERS_BY_REASON, ControllerMetric.DRIFT_EVENTS, ControllerMetric.SOLVES,
                ControllerMetric.SOLVE_MILLIS, ControllerMetric.TABLE_VERSION, ControllerMetric.LINK_LOAD,
                ControllerMetric.RATE_ESTIMATE, ControllerMetric.PREDICTED_JCT_SECONDS,
                ControllerMetric.OBSERVED_JCT_SECONDS, ControllerMetric.CALIBRATION_RATIO, ControllerMetric.SERVERS_UP,
                ControllerMetric.SERVERS_SILENT, ControllerMetric.SERVERS_DRAINED)) {
            assertThat(used).as("a panel for %s", m).contains(m.prometheusName());
        }
    }

    @Test
    void metricNames_skipFunctionsLabelsRangesAndStrings() {
        assertThat(metricNames("sum by (model) (rate(flink_a{quantile=~\"0.5|0.99\", b=\"x y\"}[1m])) or on(model) flink_b"))
                .containsExactly("flink_a", "flink_b");
    }

    /** The Prometheus names of {@link ControllerMetric}, and {@code _count} of each histogram. */
    private static Set<String> exportedNames() {
        Set<String> names = new LinkedHashSet<>();
        for (ControllerMetric m : ControllerMetric.values()) {
            names.add(m.prometheusName());
            if (m.kind() == ControllerMetric.Kind.HISTOGRAM) {
                names.add(m.prometheusName() + "_count");
            }
        }
        return names;
    }

    /** The metric names in a PromQL expression: identifiers outside label matchers, ranges and strings, not calls. */
    static Set<String> metricNames(String promql) {
        String s = promql.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"")
                .replaceAll("\\{[^}]*}", " ")
                .replaceAll("\\[[^]]*]", " ")
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
        Set<String> names = new LinkedHashSet<>();
        Matcher m = IDENTIFIER.matcher(s);
        while (m.find()) {
            String word = m.group();
            int next = m.end();
            while (next < s.length() && s.charAt(next) == ' ') {
                next++;
            }
            boolean call = next < s.length() && s.charAt(next) == '(';
            boolean number = m.start() > 0 && Character.isDigit(s.charAt(m.start() - 1));
            if (!call && !number && !KEYWORDS.contains(word)) {
                names.add(word);
            }
        }
        return names;
    }
}
