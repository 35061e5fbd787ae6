package dev.nona.controller;

import dev.nona.placement.LiveServers;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The controller's configuration keys, each a Flink {@link ConfigOption} with its type, default and description.
 * {@link ControllerConfig} reads them; the configuration table of {@code docs/controller.md} is checked against
 * them (key, default and meaning, {@code ControllerOptionsDocsTest}). The pass-through families (Kafka client
 * and {@code flink.} keys) are not options: {@link #passThrough(String)} recognises them.
 */
public final class ControllerOptions {
    private ControllerOptions() {}

    public static final ConfigOption<String> BOOTSTRAP_SERVERS = ConfigOptions.key("bootstrap.servers")
            .stringType()
            .noDefaultValue()
            .withDescription("Kafka bootstrap servers");

    public static final ConfigOption<String> CONTROLLER_ID = ConfigOptions.key("controller.id")
            .stringType()
            .defaultValue("nona-controller")
            .withDescription("prefix of the consumer groups (`<id>-requests`, `-telemetry`, `-catalog`, `-outcomes`, `-commands`) and of the"
                    + " decision sink's transactional ids (`<id>-decisions`); the key of the tables it "
                    + "writes");

    public static final ConfigOption<String> TOPICS_REQUESTS = ConfigOptions.key("topics.requests")
            .stringType()
            .defaultValue("inference-requests")
            .withDescription("topic the inference requests are read from (the topics: docs/design.md, \"Topics\")");

    public static final ConfigOption<String> TOPICS_TELEMETRY = ConfigOptions.key("topics.telemetry")
            .stringType()
            .defaultValue("cluster-telemetry")
            .withDescription("topic the servers' telemetry is read from");

    public static final ConfigOption<String> TOPICS_CATALOG = ConfigOptions.key("topics.catalog")
            .stringType()
            .defaultValue("model-catalog")
            .withDescription("topic the model catalog is read from (always from the beginning)");

    public static final ConfigOption<String> TOPICS_DECISIONS = ConfigOptions.key("topics.decisions")
            .stringType()
            .defaultValue("placement-decisions")
            .withDescription("topic the placement decisions are written to");

    public static final ConfigOption<String> TOPICS_TABLES = ConfigOptions.key("topics.tables")
            .stringType()
            .defaultValue("placement-tables")
            .withDescription("topic the published placement tables are written to");

    public static final ConfigOption<String> TOPICS_EVENTS = ConfigOptions.key("topics.events")
            .stringType()
            .defaultValue("controller-events")
            .withDescription("topic the controller's events are written to");

    public static final ConfigOption<String> TOPICS_DEAD_LETTERS = ConfigOptions.key("topics.dead-letters")
            .stringType()
            .defaultValue("dead-letters")
            .withDescription("topic rejected records are written to, each with its reason");

    public static final ConfigOption<String> TOPICS_OUTCOMES = ConfigOptions.key("topics.outcomes")
            .stringType()
            .defaultValue("")
            .withDescription("topic the executors' outcomes are read from (joined with the decisions; a bad "
                    + "outcome is a dead letter), e.g. `placement-outcomes`. It must exist when the controller starts, "
                    + "else the controller runs without outcomes (a WARN says so). Empty (the default, until the "
                    + "outcome path's latency cost is removed): no outcome input, no join, no `CALIBRATION` events");

    public static final ConfigOption<String> TOPICS_COMMANDS = ConfigOptions.key("topics.commands")
            .stringType()
            .defaultValue("controller-commands")
            .withDescription("topic the operator's commands are read from (pin, drain, roll back, freeze, tenant "
                    + "rules; each acknowledged with a `COMMAND_APPLIED` event, a bad one is a dead letter), read from "
                    + "its beginning on a fresh start. If it does not exist when the controller starts, the controller "
                    + "runs without commands (a WARN says so). Empty: no commands");

    public static final ConfigOption<Duration> RATES_WINDOW = ConfigOptions.key("rates.window")
            .durationType()
            .defaultValue(Duration.ofSeconds(30))
            .withDescription("size of the tumbling event-time windows that estimate each model's rate $\\beta_j$ "
                    + "(and over which drift is decided). 30 s: two windows then hold enough requests at 20 requests/s "
                    + "to tell a 25% change from noise (at 10 s only from about 50 requests/s); the first table comes "
                    + "after the first window");

    public static final ConfigOption<Duration> WATERMARK_OUT_OF_ORDERNESS =
            ConfigOptions.key("watermark.out-of-orderness")
            .durationType()
            .defaultValue(Duration.ofSeconds(2))
            .withDescription("bounded out-of-orderness of event time (requests later than this are placed but not "
                    + "counted in the rate; metric `lateRequests`). Also how far a request's `eventTime` "
                    + "may run ahead of its Kafka record timestamp: beyond it the request's event time in "
                    + "the job is the record timestamp plus this (a skewed client clock cannot move the "
                    + "watermark for everyone)");

    public static final ConfigOption<Duration> WATERMARK_IDLENESS = ConfigOptions.key("watermark.idleness")
            .durationType()
            .defaultValue(Duration.ofSeconds(5))
            .withDescription("a source partition silent this long stops holding back the watermark");

    public static final ConfigOption<Double> DRIFT_THRESHOLD = ConfigOptions.key("drift.threshold")
            .doubleType()
            .defaultValue(0.25)
            .withDescription("relative rate change $\\lvert\\beta-\\beta_0\\rvert/\\max(\\beta_0,\\beta_{min})$ that "
                    + "counts as drift, the smallest change the detector must catch: a change is ruled out only "
                    + "when the requests show it is smaller (at `drift.threshold-significance`), so a change a "
                    + "little below it may also trigger; also the relative change of link capacity or compute rate "
                    + "that counts as a cluster change");

    public static final ConfigOption<Double> DRIFT_SIGNIFICANCE = ConfigOptions.key("drift.significance")
            .doubleType()
            .defaultValue(ControllerConfig.DriftSettings.DEFAULT_SIGNIFICANCE)
            .withDescription("per-window level of the exact test (two Poisson counts, conditional binomial) that a "
                    + "drift must also pass: the requests of its `drift.windows` windows, pooled, against those "
                    + "pooled since the last re-optimisation, at this level to the power `drift.windows`; in (0, 1], "
                    + "`1` turns it off. At 1-2 requests/s a 10 s count varies by 22-32% (a 30 s one by 13-18%), so "
                    + "the threshold alone re-solves on noise");

    public static final ConfigOption<Double> DRIFT_THRESHOLD_SIGNIFICANCE =
            ConfigOptions.key("drift.threshold-significance")
                    .doubleType()
                    .defaultValue(ControllerConfig.DriftSettings.DEFAULT_THRESHOLD_SIGNIFICANCE)
                    .withDescription("level of the one-sided exact test (ratio of two Poisson rates) at which a "
                            + "window's or a drift's requests must show the change to be smaller than "
                            + "`drift.threshold` to rule it out; about the chance per test of missing a change of "
                            + "exactly the threshold, in (0, 1)");

    public static final ConfigOption<Integer> DRIFT_WINDOWS = ConfigOptions.key("drift.windows")
            .intType()
            .defaultValue(2)
            .withDescription("consecutive windows a drift must last before re-optimising");

    public static final ConfigOption<Duration> DRIFT_DEBOUNCE = ConfigOptions.key("drift.debounce")
            .durationType()
            .defaultValue(Duration.ofSeconds(30))
            .withDescription("least event time between two re-optimisations");

    public static final ConfigOption<Double> DRIFT_MIN_RATE = ConfigOptions.key("drift.min-rate")
            .doubleType()
            .defaultValue(1.0)
            .withDescription("$\\beta_{min}$ (requests/s): rates below it count as it in the relative change, so "
                    + "noise on idle models does not trigger solves");

    public static final ConfigOption<Duration> SOLVE_TIMEOUT = ConfigOptions.key("solve.timeout")
            .durationType()
            .defaultValue(Duration.ofSeconds(30))
            .withDescription("a solve running longer is cancelled (the optimiser stops at its next step) and "
                    + "retried (events `REOPTIMIZATION_FINISHED` with `error` and `SOLVE_TIMED_OUT`; the "
                    + "table stays)");

    public static final ConfigOption<Duration> SOLVE_POLL = ConfigOptions.key("solve.poll")
            .durationType()
            .defaultValue(Duration.ofMillis(50))
            .withDescription("how often the control loop checks its solver thread");

    public static final ConfigOption<Duration> SOLVE_RETRY_BACKOFF = ConfigOptions.key("solve.retry-backoff")
            .durationType()
            .defaultValue(Duration.ofSeconds(1))
            .withDescription("wait before retrying a failed or timed-out solve; doubled after each further failure");

    public static final ConfigOption<Duration> SOLVE_RETRY_MAX_BACKOFF = ConfigOptions.key("solve.retry-max-backoff")
            .durationType()
            .defaultValue(Duration.ofSeconds(60))
            .withDescription("longest wait between retries (must be >= `solve.retry-backoff`)");

    public static final ConfigOption<String> SOLVER_COST_MODEL = ConfigOptions.key("solver.cost-model")
            .stringType()
            .defaultValue("default")
            .withDescription("`default` = `controller-mapping` (Nona plus server queueing under the controller's own "
                    + "least-work-left mapping: pooled M/G/N wait and fork-join), `server-queueing` (server queueing under a "
                    + "uniform mapping, as Nona's online rule maps parts) or `paper` (the paper's formulation exactly)");

    public static final ConfigOption<Double> CLUSTER_DEFAULT_LINK_BITS_PER_SECOND =
            ConfigOptions.key("cluster.default-link-bits-per-second")
            .doubleType()
            .defaultValue(1.0e10)
            .withDescription("link capacity $\\mu$ until a server reports `linkBitsPerSecond`");

    public static final ConfigOption<Duration> CLUSTER_LIVENESS_TIMEOUT = ConfigOptions.key("cluster.liveness-timeout")
            .durationType()
            .defaultValue(Duration.ofSeconds(3))
            .withDescription("a server with no report for longer is down: no new stages, and a `CLUSTER_CHANGED` "
                    + "event naming it (`server`, `reason`: `silent since <time>: no report for more than "
                    + "... ms`); up again at its next report. Judged by report time (`eventTime`, never later than "
                    + "arrival) on the telemetry stream's own clock; a report older than this when it arrives never "
                    + "marks a server up; no report at all for longer: one `TELEMETRY_STALLED` event (see \"Server "
                    + "liveness\")");

    public static final ConfigOption<Integer> PLACEMENT_TARGET_ONGOING_REQUESTS =
            ConfigOptions.key("placement.target-ongoing-requests")
            .intType()
            .defaultValue(LiveServers.DEFAULT_TARGET_ONGOING_REQUESTS)
            .withDescription("a warm server with this many requests predicted in flight (its last report plus the "
                    + "requests placed on it since, all counted until it is predicted to drain) is no longer "
                    + "preferred (the thesis's target is 3; 2 measured better with the ledger's count)");

    public static final ConfigOption<Double> PLACEMENT_COLD_START_FIXED_SECONDS =
            ConfigOptions.key("placement.cold-start.fixed-seconds")
            .doubleType()
            .defaultValue(0.0)
            .withDescription("seconds a server is predicted to take to load a model part it does not hold, before its bytes: the "
                    + "placement rule weighs this load against queueing once servers report their class or memory "
                    + "(see \"Memory, speed classes and cold starts\"); 0 with no load rate: loads are not weighed");

    public static final ConfigOption<Double> PLACEMENT_COLD_START_LOAD_BYTES_PER_SECOND =
            ConfigOptions.key("placement.cold-start.load-bytes-per-second")
            .doubleType()
            .defaultValue(0.0)
            .withDescription("bytes per second a server loads a model part at: a part of b bytes is predicted to load in "
                    + "`placement.cold-start.fixed-seconds` + b / this; 0: the part's bytes add nothing");

    public static final ConfigOption<Double> PLACEMENT_COLD_START_WEIGHT =
            ConfigOptions.key("placement.cold-start.weight")
            .doubleType()
            .defaultValue(1.0)
            .withDescription("seconds of requests' time the placement rule charges for each second a load is predicted "
                    + "to take, when it weighs loading a model against waiting for a server that holds it: 1, the load's "
                    + "own time; above 1, models are loaded on fewer servers, at some mean JCT (where a load costs more "
                    + "than its time, in storage reads or memory churn). Predictions keep the load's own time");

    public static final ConfigOption<Duration> PLACEMENT_COLD_START_RENT_HALF_LIFE =
            ConfigOptions.key("placement.cold-start.rent-half-life")
            .durationType()
            .defaultValue(Duration.ofSeconds(5))
            .withDescription("the half-life of the placement rule's rent: what not loading a model on a server where its "
                    + "parts would have finished first has cost them, in seconds of event time; the rule loads the model "
                    + "there once the rent reaches the load's price, so with a shorter half-life only losses that recur "
                    + "buy a load. Predictions keep the load's own time");

    public static final ConfigOption<Integer> PLACEMENT_STARTUP_BUFFER = ConfigOptions.key("placement.startup-buffer")
            .intType()
            .defaultValue(100000)
            .withDescription("requests held (per placement subtask, checkpointed) while no server is up, the "
                    + "catalog is still empty, telemetry is behind a request's time or the model fits no server "
                    + "whole and no table splits it yet, placed once telemetry, the catalog and the table arrive; "
                    + "beyond it they become dead letters");

    public static final ConfigOption<Duration> PLACEMENT_HOLD_TIMEOUT = ConfigOptions.key("placement.hold-timeout")
            .durationType()
            .defaultValue(Duration.ofSeconds(30))
            .withDescription("a request held (no server up, the catalog still empty, telemetry not yet at its "
                    + "time, or its model waiting for a table that splits it) for longer becomes a dead letter naming "
                    + "this timeout; `REQUESTS_HELD` and `REQUESTS_RELEASED` events mark when a placement subtask starts and stops holding (processing time, also with no further input)");

    public static final ConfigOption<Duration> CHECKPOINT_INTERVAL = ConfigOptions.key("checkpoint.interval")
            .durationType()
            .defaultValue(Duration.ofSeconds(10))
            .withDescription("checkpoint interval; `0` disables checkpointing (only with `decisions.delivery=at-"
                    + "least-once`). Exactly-once works down to `100ms` (tested)");

    public static final ConfigOption<String> DECISIONS_DELIVERY = ConfigOptions.key("decisions.delivery")
            .stringType()
            .defaultValue(DecisionDelivery.AT_LEAST_ONCE.key())
            .withDescription("`at-least-once`: each decision is written as soon as it is placed, no transactions "
                    + "(after a failure a request may get a second decision: the first per `requestId` "
                    + "wins); `exactly-once`: Kafka transactions committed on checkpoints, latency about "
                    + "the checkpoint interval. See \"Delivery modes and latency\"");

    public static final ConfigOption<String> DECISIONS_FORMAT = ConfigOptions.key("decisions.format")
            .stringType()
            .defaultValue(DecisionFormat.FULL.key())
            .withDescription("`full`: each decision lists every task with its server (`stages`) and says why per "
                    + "part (`explanation`); `compact`: no `stages`, each part of the explanation names its tasks "
                    + "(`parts[].tasks`), fewer bytes. See docs/topics.md");

    public static final ConfigOption<Duration> DECISIONS_LINGER = ConfigOptions.key("decisions.linger")
            .durationType()
            .defaultValue(Duration.ZERO)
            .withDescription("`linger.ms` of the decisions producer: `0` sends each decision at once (Kafka 4's "
                    + "client default is 5 ms). A `kafka.linger.ms` setting, which applies to every producer, overrides it");

    public static final ConfigOption<Duration> NETWORK_BUFFER_TIMEOUT = ConfigOptions.key("network.buffer-timeout")
            .durationType()
            .defaultValue(Duration.ofMillis(1))
            .withDescription("longest a request waits in a half-full Flink network buffer on its way to placement "
                    + "(`execution.buffer-timeout.interval`; Flink's default, 100 ms, was the median decision latency "
                    + "at 1,000 requests/s); `0` flushes after every record. `flink.execution.buffer-"
                    + "timeout.interval` overrides it. The job's other edges (telemetry, catalog, rates, tables, "
                    + "events, outcomes, commands) flush at 100 ms, or at this value when it is longer");

    public static final ConfigOption<String> CHECKPOINT_DIR = ConfigOptions.key("checkpoint.dir")
            .stringType()
            .defaultValue("")
            .withDescription("checkpoint storage URI, e.g. `file:///var/lib/nona/checkpoints`");

    public static final ConfigOption<String> STATE_BACKEND = ConfigOptions.key("state.backend")
            .stringType()
            .defaultValue("hashmap")
            .withDescription("`hashmap` or `rocksdb`");

    public static final ConfigOption<Boolean> CHECKPOINT_INCREMENTAL = ConfigOptions.key("checkpoint.incremental")
            .booleanType()
            .defaultValue(false)
            .withDescription("incremental checkpoints (RocksDB). Off by default: the state is kilobytes, and "
                    + "incremental RocksDB checkpoints also carry deleted window counters until compaction "
                    + "(measured in docs/benchmarks.md, Figures)");

    public static final ConfigOption<Integer> PARALLELISM = ConfigOptions.key("parallelism")
            .intType()
            .defaultValue(1)
            .withDescription("parallelism of the request path (sources, parsing, rate estimation, placement, "
                    + "decision sink); the control loop always runs with 1");

    public static final ConfigOption<String> CONTROL_SLOT_SHARING_GROUP = ConfigOptions.key("control.slot-sharing-group")
            .stringType()
            .defaultValue("")
            .withDescription("a slot sharing group of this name for the control loop (empty: one group, the whole job "
                    + "in one slot at parallelism 1). On a cluster of several TaskManagers the job then holds a slot on "
                    + "two of them, so when one is lost the restart runs on the other, whose copy of the job's code is "
                    + "loaded already, instead of on a TaskManager that must fetch and load it first "
                    + "(docs/deployment.md, \"Losing a TaskManager\"); the embedded MiniCluster gets the extra slot "
                    + "itself");

    public static final ConfigOption<Boolean> SOURCE_START_FROM_EARLIEST =
            ConfigOptions.key("source.start-from-earliest")
            .booleanType()
            .defaultValue(true)
            .withDescription("where to start when the consumer group has no committed offsets (`false`: latest). "
                    + "The catalog is always read from the beginning");

    public static final ConfigOption<Integer> CATALOG_MAX_TASKS = ConfigOptions.key("catalog.max-tasks")
            .intType()
            .defaultValue(10000)
            .withDescription("a catalog entry whose DAG has more tasks is a dead letter (`model 'big' has 10001 "
                    + "tasks, over catalog.max-tasks (10000)`); the largest real graph in "
                    + "`shared/dags/pipedream`, nasnetamobile, has 921 tasks and 1,078 edges");

    public static final ConfigOption<Integer> CATALOG_MAX_EDGES = ConfigOptions.key("catalog.max-edges")
            .intType()
            .defaultValue(20000)
            .withDescription("the same for edges (`model 'big' has 20001 edges, over catalog.max-edges (20000)`). "
                    + "Both bounds are below what the serde's 1 MiB record limit lets through, so they are "
                    + "the rule that applies: a 10,001-task chain is 667 kB of JSON, a 201-task DAG with "
                    + "20,001 edges 783 kB");

    public static final ConfigOption<String> CLUSTER_SERVERS = ConfigOptions.key("cluster.servers")
            .stringType()
            .defaultValue("")
            .withDescription("the known servers, comma-separated ids (`server-0,server-1`); telemetry from any "
                    + "other `serverId` is a dead letter (`field 'serverId' ('server-42') is not a known "
                    + "server (cluster.servers: server-0, server-1)`). Empty by default because the "
                    + "controller otherwise learns its cluster from telemetry alone (servers join by "
                    + "reporting); set it in production so that a misconfigured agent or a typo cannot add "
                    + "a phantom server that placement would send stages to");

    public static final ConfigOption<Duration> OUTCOMES_MAX_WAIT = ConfigOptions.key("outcomes.max-wait")
            .durationType()
            .defaultValue(Duration.ofSeconds(60))
            .withDescription("a decision with no outcome for this long (processing time) counts as a missing "
                    + "outcome (`missingOutcomes` in `CALIBRATION`); also how long a joined request id is "
                    + "remembered, so that a replayed decision or a repeated outcome is not counted twice");

    public static final ConfigOption<Duration> OUTCOMES_DECISION_WAIT = ConfigOptions.key("outcomes.decision-wait")
            .durationType()
            .defaultValue(Duration.ofSeconds(5))
            .withDescription("an outcome that arrives before its decision waits this long for it, then counts "
                    + "as unmatched (`unmatchedOutcomes`)");

    public static final ConfigOption<Double> ROLLBACK_MARGIN = ConfigOptions.key("rollback.margin")
            .doubleType()
            .defaultValue(0.2)
            .withDescription("a published table whose observed mean JCT is worse by more than this fraction than "
                    + "what the table it replaced would have given at the same rates is rolled back "
                    + "(`TABLE_ROLLED_BACK`); needs the outcome path (`topics.outcomes`)");

    public static final ConfigOption<Integer> ROLLBACK_MIN_SAMPLES = ConfigOptions.key("rollback.min-samples")
            .intType()
            .defaultValue(200)
            .withDescription("ok outcomes each of the two tables needs before the rollback rule judges the newer one");

    /** Every option, in the order of the table in {@code docs/controller.md}. */
    public static final List<ConfigOption<?>> ALL = List.of(
            BOOTSTRAP_SERVERS, CONTROLLER_ID, TOPICS_REQUESTS, TOPICS_TELEMETRY, TOPICS_CATALOG,
            TOPICS_DECISIONS, TOPICS_TABLES, TOPICS_EVENTS, TOPICS_DEAD_LETTERS, TOPICS_OUTCOMES, TOPICS_COMMANDS, RATES_WINDOW,
            WATERMARK_OUT_OF_ORDERNESS, WATERMARK_IDLENESS, DRIFT_THRESHOLD, DRIFT_SIGNIFICANCE,
            DRIFT_THRESHOLD_SIGNIFICANCE, DRIFT_WINDOWS, DRIFT_DEBOUNCE, DRIFT_MIN_RATE, SOLVE_TIMEOUT, SOLVE_POLL, SOLVE_RETRY_BACKOFF,
            SOLVE_RETRY_MAX_BACKOFF, SOLVER_COST_MODEL, CLUSTER_DEFAULT_LINK_BITS_PER_SECOND,
            CLUSTER_LIVENESS_TIMEOUT, PLACEMENT_TARGET_ONGOING_REQUESTS, PLACEMENT_COLD_START_FIXED_SECONDS,
            PLACEMENT_COLD_START_LOAD_BYTES_PER_SECOND, PLACEMENT_COLD_START_WEIGHT, PLACEMENT_COLD_START_RENT_HALF_LIFE,
            PLACEMENT_STARTUP_BUFFER,
            PLACEMENT_HOLD_TIMEOUT, CHECKPOINT_INTERVAL, DECISIONS_DELIVERY, DECISIONS_FORMAT, DECISIONS_LINGER, NETWORK_BUFFER_TIMEOUT,
            CHECKPOINT_DIR, STATE_BACKEND, CHECKPOINT_INCREMENTAL, PARALLELISM, CONTROL_SLOT_SHARING_GROUP, SOURCE_START_FROM_EARLIEST,
            CATALOG_MAX_TASKS, CATALOG_MAX_EDGES, CLUSTER_SERVERS, OUTCOMES_MAX_WAIT, OUTCOMES_DECISION_WAIT,
            ROLLBACK_MARGIN, ROLLBACK_MIN_SAMPLES);

    /** The keys of {@link #ALL}. */
    public static final Set<String> KEYS = ALL.stream().map(ConfigOption::key).collect(Collectors.toUnmodifiableSet());

    /** Where a key that is not an option goes. */
    public enum PassThrough {
        /** Kafka client properties: {@code security.protocol}, {@code sasl.*}, {@code ssl.*}, as they are. */
        KAFKA,
        /** {@code kafka.*}: Kafka client properties without the prefix. */
        KAFKA_PREFIXED,
        /** {@code flink.*}: Flink configuration entries without the prefix. */
        FLINK
    }

    /** The pass-through family of {@code key}, or {@code null} when it belongs to none. */
    public static PassThrough passThrough(String key) {
        if (key.startsWith("kafka.")) {
            return PassThrough.KAFKA_PREFIXED;
        }
        if (key.equals("security.protocol") || key.startsWith("sasl.") || key.startsWith("ssl.")) {
            return PassThrough.KAFKA;
        }
        if (key.startsWith("flink.")) {
            return PassThrough.FLINK;
        }
        return null;
    }
}
