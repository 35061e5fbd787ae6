package dev.nona.controller.metrics;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.flink.metrics.MetricGroup;

/**
 * Every metric the controller job registers: its Flink name, kind, the operator that registers it, the
 * key-value groups it sits under (one series per model, or per dead-letter topic and reason class) and what it
 * means. The operators register their metrics by these names, {@code docs/operations.md} ("Metrics") lists them, and the
 * tests check the Grafana dashboard's queries against {@link #prometheusName()}; a name here is a contract with
 * dashboards (never renamed, only added to).
 *
 * <p>Flink's Prometheus reporter names an operator's metric {@code flink_taskmanager_job_task_operator_} plus
 * the keys of its key-value groups plus its name, and labels it with the Flink scope variables ({@code job_name},
 * {@code operator_name}, {@code subtask_index}, ...) and the group values ({@code model="resnet18"}).
 */
public enum ControllerMetric {
    DECISIONS("decisions", Kind.COUNTER, "placement", Group.NONE, "requests placed (one decision each)"),
    DECISIONS_PER_SECOND("decisionsPerSecond", Kind.METER, "placement", Group.NONE,
            "decisions per second, averaged over the last 60 s"),
    PLACEMENT_LATENCY_MILLIS("placementLatencyMillis", Kind.HISTOGRAM, "placement", Group.NONE,
            "time from a request's eventTime to its decision, ms, over the subtask's last 10,000 decisions "
                    + "(the decision latency when clients stamp eventTime as they send; their clock skew adds to it)"),
    UNPLACED_REQUESTS("unplacedRequests", Kind.COUNTER, "placement", Group.NONE,
            "requests the placement operator could not place (dead letters: model not in the catalog, startup buffer full)"),
    HELD_REQUESTS("heldRequests", Kind.GAUGE, "placement", Group.NONE,
            "requests held while the controller starts (no server or no catalog yet)"),
    SILENCED_SERVERS("silentServers", Kind.COUNTER, "placement", Group.NONE,
            "times a server went silent (no report within cluster.liveness-timeout) in this subtask's view"),
    PLACEMENT_TABLE_VERSION("tableVersion", Kind.GAUGE, "placement", Group.NONE,
            "version of the table the placement operator uses (0: none yet)"),
    PREDICTED_JCT_SECONDS("predictedJctSeconds", Kind.GAUGE, "placement", Group.MODEL,
            "the model's predicted job completion time under the current table, s (what its decisions carry)"),
    RATE_ESTIMATE("rateEstimate", Kind.GAUGE, "rate estimator", Group.MODEL,
            "the model's arrival rate over the last closed rates.window, requests/s"),
    LATE_REQUESTS("lateRequests", Kind.COUNTER, "rate estimator", Group.NONE,
            "requests behind the watermark, not counted in the rates (still placed)"),
    DRIFT_EVENTS("driftEvents", Kind.COUNTER, "control loop", Group.NONE, "rate or cluster drifts that triggered a re-optimisation"),
    SOLVES("solves", Kind.COUNTER, "control loop", Group.NONE, "solves of the optimiser started"),
    FAILED_SOLVES("failedSolves", Kind.COUNTER, "control loop", Group.NONE, "solves that failed or timed out"),
    ROLLBACKS("rollbacks", Kind.COUNTER, "control loop", Group.NONE,
            "tables rolled back because they were observed worse than the table they replaced"),
    SOLVE_MILLIS("solveMillis", Kind.GAUGE, "control loop", Group.NONE, "duration of the last finished solve, ms"),
    TABLE_VERSION("tableVersion", Kind.GAUGE, "control loop", Group.NONE, "version of the last published table"),
    LINK_LOAD("linkLoad", Kind.GAUGE, "control loop", Group.NONE,
            "predicted load rho of the bottleneck link under the last published table (< 1)"),
    SERVERS_UP("serversUp", Kind.GAUGE, "control loop", Group.NONE,
            "servers up: reported up with a compute rate > 0 and heard within cluster.liveness-timeout"),
    SERVERS_SILENT("serversSilent", Kind.GAUGE, "control loop", Group.NONE,
            "servers whose last report said up but that have not reported within cluster.liveness-timeout"),
    SERVERS_DRAINED("serversDrained", Kind.GAUGE, "control loop", Group.NONE,
            "servers drained by an operator command (DRAIN_SERVER, until UNDRAIN_SERVER), whether they report or not"),
    DEAD_LETTERS("deadLetters", Kind.COUNTER, "parse requests, parse telemetry, parse catalog, parse outcomes",
            Group.NONE, "records the operator rejected as dead letters"),
    DEAD_LETTERS_BY_REASON("deadLetters", Kind.COUNTER, "dead letters log", Group.DEAD_LETTER,
            "every dead letter of the job, by source topic and reason class (the reason with quoted values and "
                    + "numbers blanked, cut at its first colon, as a label; at most "
                    + DeadLetterCounters.MAX_CLASSES + " classes, then other)"),
    MATCHED_OUTCOMES("matchedOutcomes", Kind.COUNTER, "outcome join", Group.NONE, "outcomes joined with their decision"),
    MISSING_OUTCOMES("missingOutcomes", Kind.COUNTER, "outcome join", Group.NONE,
            "decisions with no outcome within outcomes.max-wait"),
    UNMATCHED_OUTCOMES("unmatchedOutcomes", Kind.COUNTER, "outcome join", Group.NONE,
            "outcomes whose decision never came"),
    DUPLICATE_DECISIONS("duplicateDecisions", Kind.COUNTER, "outcome join", Group.NONE,
            "decisions seen again for a request id (at-least-once delivery)"),
    IGNORED_OUTCOMES("ignoredOutcomes", Kind.COUNTER, "outcome join", Group.NONE,
            "outcomes ignored (a second outcome for a request)"),
    OBSERVED_JCT_SECONDS("observedJctSeconds", Kind.GAUGE, "calibration", Group.MODEL,
            "the model's mean observed JCT over the last calibration window with ok outcomes, s"),
    CALIBRATION_RATIO("calibrationRatio", Kind.GAUGE, "calibration", Group.MODEL,
            "observed over predicted mean JCT in that window (1: the cost model is right)");

    /** What Flink's Prometheus reporter puts before every operator metric's name. */
    public static final String OPERATOR_PREFIX = "flink_taskmanager_job_task_operator_";

    /** The Flink metric type. */
    public enum Kind { COUNTER, GAUGE, METER, HISTOGRAM }

    /** The key-value groups a metric sits under, below the operator's group. */
    public enum Group {
        NONE(),
        MODEL("model"),
        DEAD_LETTER("topic", "reason");

        private final List<String> keys;

        Group(String... keys) {
            this.keys = List.of(keys);
        }

        public List<String> keys() {
            return keys;
        }
    }

    private final String metricName;
    private final Kind kind;
    private final String operator;
    private final Group group;
    private final String description;

    ControllerMetric(String metricName, Kind kind, String operator, Group group, String description) {
        this.metricName = metricName;
        this.kind = kind;
        this.operator = operator;
        this.group = group;
        this.description = description;
    }

    /** The name the operator registers the metric by. */
    public String metricName() {
        return metricName;
    }

    public Kind kind() {
        return kind;
    }

    /** The operator(s), by name in the job graph, that register it. */
    public String operator() {
        return operator;
    }

    public Group group() {
        return group;
    }

    public String description() {
        return description;
    }

    /** The Prometheus metric name under Flink's Prometheus reporter (a histogram also has {@code _count}). */
    public String prometheusName() {
        StringBuilder name = new StringBuilder(OPERATOR_PREFIX);
        group.keys().forEach(k -> name.append(k).append('_'));
        return name.append(metricName).toString();
    }

    /**
     * The group this metric is registered in: {@code operator}'s metric group, under one key-value group per key
     * of {@link #group()}, with {@code values} in that order.
     */
    public MetricGroup groupIn(MetricGroup operatorGroup, String... values) {
        Objects.requireNonNull(operatorGroup, "operator metric group");
        if (values.length != group.keys().size()) {
            throw new IllegalArgumentException("metric " + metricName + " takes values for " + group.keys() + ", got "
                    + Arrays.toString(values));
        }
        MetricGroup g = operatorGroup;
        for (int i = 0; i < values.length; i++) {
            g = g.addGroup(group.keys().get(i), values[i]);
        }
        return g;
    }
}
