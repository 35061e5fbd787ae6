package dev.nona.controller;

import static dev.nona.controller.ControllerOptions.*;

import dev.nona.calibration.RollbackRule;
import dev.nona.check.Checks;
import dev.nona.controller.source.ControlLimits;
import dev.nona.topics.admin.KafkaClientConfig;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

/**
 * Every setting of the controller job, read from a Java properties file. The keys are the {@link ControllerOptions}
 * (types, defaults and descriptions; {@code docs/controller.md} lists them). Unknown keys are errors that name the
 * key, except the pass-through families: Kafka client properties ({@code security.protocol}, {@code sasl.*},
 * {@code ssl.*} and anything under {@code kafka.}, which loses the prefix) go to every Kafka source and sink; keys
 * under {@code flink.} lose the prefix and go to the Flink configuration.
 *
 * @param bootstrapServers      Kafka bootstrap servers ({@code --bootstrap})
 * @param controllerId          names the consumer group, the transactional id prefix and the table id
 * @param topics                the topic names
 * @param rateWindow            size of the event-time windows over which arrival rates are estimated
 * @param outOfOrderness        bounded out-of-orderness of event time
 * @param idleness              a source partition silent this long no longer holds back the watermark
 * @param drift                 the drift detector's settings
 * @param solveTimeout          a solve running longer is cancelled and retried (an event says so; the current table stays)
 * @param solvePoll             how often the control loop checks for a finished solve (processing time)
 * @param solveRetry            backoff between attempts of a failed or timed-out solve
 * @param targetOngoingRequests a server with this many requests in flight is no longer preferred
 * @param coldStart             what a server is predicted to take to load a model part ({@code placement.cold-start.*})
 * @param startupBuffer         requests held while no server or no model is known yet (startup)
 * @param holdTimeout           how long a request is held at most, then a dead letter ({@code placement.hold-timeout})
 * @param checkpointInterval    checkpoint interval; zero disables checkpointing
 * @param delivery              how decisions are written: at least once, as soon as placed (default), or exactly
 *                              once, in Kafka transactions committed on checkpoints
 * @param decisionsFormat       how each decision is written: {@code full} (stages and explanation, the default) or
 *                              {@code compact} (the explanation's parts name their tasks, no stages)
 * @param decisionsLinger       {@code linger.ms} of the decisions producer (0: send each decision at once)
 * @param bufferTimeout         longest a record waits in a Flink network buffer before it is sent on (0: never)
 * @param checkpointDir         checkpoint storage URI, or empty for the JobManager's memory
 * @param stateBackend          {@code hashmap} or {@code rocksdb}
 * @param incrementalCheckpoints incremental (RocksDB) checkpoints instead of full ones
 * @param defaultLinkBitsPerSecond link capacity $\mu$ assumed until a server reports one
 * @param livenessTimeout       a server with no report for longer is treated as down ({@code cluster.liveness-timeout})
 * @param paperCostModel        solve the paper's formulation exactly (no server queueing)
 * @param solverCostModel       the cost model the solver minimises, by name ({@code CostModel.named}):
 *                              {@code controller-mapping} (the default: the controller's own mapping),
 *                              {@code server-queueing} (a uniform mapping) or {@code paper}
 * @param parallelism           parallelism of the request path
 * @param controlSlotSharingGroup the control loop's slot sharing group, empty for the job's one group
 *                              ({@code control.slot-sharing-group})
 * @param startFromEarliest     read topics from the earliest offset when the group has none (else latest)
 * @param controlLimits         largest catalog DAG accepted, and the known servers (empty: any server)
 * @param outcomes              how decisions are joined with their outcomes
 * @param kafka                 Kafka client properties passed to every source and sink (copied)
 * @param flink                 Flink configuration entries (copied)
 */
public record ControllerConfig(
        String bootstrapServers,
        String controllerId,
        Topics topics,
        Duration rateWindow,
        Duration outOfOrderness,
        Duration idleness,
        DriftSettings drift,
        Duration solveTimeout,
        Duration solvePoll,
        RetryBackoff solveRetry,
        int targetOngoingRequests,
        ColdStart coldStart,
        int startupBuffer,
        Duration holdTimeout,
        Duration checkpointInterval,
        DecisionDelivery delivery,
        DecisionFormat decisionsFormat,
        Duration decisionsLinger,
        Duration bufferTimeout,
        String checkpointDir,
        String stateBackend,
        boolean incrementalCheckpoints,
        double defaultLinkBitsPerSecond,
        Duration livenessTimeout,
        boolean paperCostModel,
        String solverCostModel,
        int parallelism,
        String controlSlotSharingGroup,
        boolean startFromEarliest,
        ControlLimits controlLimits,
        OutcomeSettings outcomes,
        Map<String, String> kafka,
        Map<String, String> flink) implements Serializable {

    /** The topic names (docs/design.md, "Topics"); {@code commands} empty: no operator commands. */
    public record Topics(String requests, String telemetry, String catalog, String decisions, String tables,
            String events, String deadLetters, String outcomes, String commands) implements Serializable {}

    /**
     * How decisions are joined with their outcomes.
     *
     * @param maxWait      a decision with no outcome for this long is a missing outcome ({@code outcomes.max-wait})
     * @param decisionWait an outcome with no decision for this long is unmatched ({@code outcomes.decision-wait})
     * @param rollbackMargin     how much worse a new table may be observed before it is rolled back ({@code rollback.margin})
     * @param rollbackMinSamples ok outcomes each table needs before it is judged ({@code rollback.min-samples})
     */
    public record OutcomeSettings(Duration maxWait, Duration decisionWait, double rollbackMargin, int rollbackMinSamples)
            implements Serializable {
        public OutcomeSettings {
            requirePositive("outcomes.max-wait", maxWait);
            requirePositive("outcomes.decision-wait", decisionWait);
            Checks.nonNegative(rollbackMargin, "rollback.margin");
            if (rollbackMinSamples < 1) {
                throw new IllegalArgumentException("rollback.min-samples (" + rollbackMinSamples + ") must be >= 1");
            }
        }

        /** The rule these settings give. */
        public RollbackRule rollbackRule() {
            return new RollbackRule(rollbackMargin, rollbackMinSamples);
        }
    }

    /**
     * The drift detector's settings ({@link dev.nona.controller.drift.DriftDetector} gives the rule).
     *
     * @param threshold relative rate change that counts as drift, {@code > 0} (0.25 = 25%): the smallest change the
     *                  detector must catch
     * @param windows   consecutive windows the change must last, {@code >= 1}
     * @param debounce  least event time between two re-optimisations
     * @param minRate   rates below this (requests/s) count as this when computing a relative change, so that
     *                  noise on an almost idle model does not trigger solves, {@code > 0}
     * @param significance per-window level of the exact Poisson test the change must pass, in {@code (0, 1]}; the
     *                  {@code windows} windows of a drift are tested pooled at {@code significance^windows}
     *                  ({@code 1} turns the test off)
     * @param thresholdSignificance level at which the data must show a change to be smaller than {@code threshold}
     *                  to rule it out, in {@code (0, 1)}; about the chance, per test, of missing a change of exactly
     *                  the threshold
     */
    public record DriftSettings(double threshold, int windows, Duration debounce, double minRate, double significance,
            double thresholdSignificance) implements Serializable {
        /**
         * The default level, 0.001 per window ($10^{-6}$ for a drift of 2 windows). Measured on simulated Poisson
         * counts (DriftStatisticsTest): over 1,000 stationary 10-minute streams of 20 models at 1-100 requests/s in
         * 10 s windows (1.18 million model-windows) 2 re-solves, none over seeds 1-200; 0.002 ($4 \cdot 10^{-6}$)
         * re-solves 10 times. In 30 s windows (the default) 1 re-solve over 1,000 streams, none over 1-200. A
         * simulation of the rule this replaced (each window significant at 0.002, its estimate past the threshold)
         * gave about 0.4 per 200 streams too, and caught an exact 25% change within 2 windows in only 25-30% of cases
         * at any rate.
         */
        public static final double DEFAULT_SIGNIFICANCE = 0.001;

        /**
         * The default threshold level, 0.01. A sustained change of exactly the threshold passes the per-window and
         * the pooled tests within 2 windows in 97-99% of cases where significance is not the limit (100 requests/s,
         * DriftStatisticsTest). In a NumPy simulation of the same rule (2026-11-26, 500 seeds), 0.05 caught 88-89%
         * there, and 0.005 about 1% more than 0.01 while triggering on a 20% change at 100 requests/s about 10%
         * more often.
         */
        public static final double DEFAULT_THRESHOLD_SIGNIFICANCE = 0.01;

        /** The settings with the default significance levels. */
        public DriftSettings(double threshold, int windows, Duration debounce, double minRate) {
            this(threshold, windows, debounce, minRate, DEFAULT_SIGNIFICANCE);
        }

        /** The settings with the default threshold level. */
        public DriftSettings(double threshold, int windows, Duration debounce, double minRate, double significance) {
            this(threshold, windows, debounce, minRate, significance, DEFAULT_THRESHOLD_SIGNIFICANCE);
        }

        public DriftSettings {
            if (!(significance > 0 && significance <= 1)) {
                throw new IllegalArgumentException("drift.significance (" + significance + ") must be in (0, 1]");
            }
            if (!(thresholdSignificance > 0 && thresholdSignificance < 1)) {
                throw new IllegalArgumentException(
                        "drift.threshold-significance (" + thresholdSignificance + ") must be in (0, 1)");
            }
            Checks.positive(threshold, "drift.threshold");
            if (windows < 1) {
                throw new IllegalArgumentException("drift.windows (" + windows + ") must be >= 1");
            }
            if (debounce.isNegative()) {
                throw new IllegalArgumentException("drift.debounce (" + debounce + ") must be >= 0");
            }
            Checks.positive(minRate, "drift.min-rate");
        }

        /** The level of the pooled test of a drift's windows: {@code significance^windows}. */
        public double pooledSignificance() {
            return Math.pow(significance, windows);
        }
    }

    /**
     * What loading a model part is predicted to take: $F + b/B$ seconds for $b$ bytes (the placement rule's
     * $T_{CS}$); none when both are 0.
     *
     * @param fixedSeconds       $F$, finite and {@code >= 0} ({@code placement.cold-start.fixed-seconds})
     * @param loadBytesPerSecond $B$, finite and {@code >= 0}; 0: bytes add nothing
     *                           ({@code placement.cold-start.load-bytes-per-second})
     * @param weight             $w$, finite and {@code > 0}: what the placement rule charges per second of a load
     *                           ({@code placement.cold-start.weight}, {@link dev.nona.workload.ColdStartCost#weight})
     * @param rentHalfLife       $H$, {@code > 0}: the half-life of the placement rule's rent
     *                           ({@code placement.cold-start.rent-half-life},
     *                           {@link dev.nona.workload.ColdStartCost#rentHalfLifeSeconds})
     */
    public record ColdStart(double fixedSeconds, double loadBytesPerSecond, double weight, Duration rentHalfLife)
            implements Serializable {
        public ColdStart {
            Checks.nonNegative(fixedSeconds, "placement.cold-start.fixed-seconds");
            Checks.nonNegative(loadBytesPerSecond, "placement.cold-start.load-bytes-per-second");
            Checks.positive(weight, "placement.cold-start.weight");
            Objects.requireNonNull(rentHalfLife, "placement.cold-start.rent-half-life");
            requirePositive("placement.cold-start.rent-half-life", rentHalfLife);
        }

        /** Whether a load is predicted to take any time. */
        public boolean modelled() {
            return fixedSeconds > 0 || loadBytesPerSecond > 0;
        }
    }

    /**
     * Exponential backoff: attempt $n \ge 1$ failed, retry after $\min(\text{initial} \cdot 2^{n-1}, \text{max})$.
     *
     * @param initial wait after the first failure, {@code > 0} ({@code solve.retry-backoff})
     * @param max     longest wait, {@code >= initial} ({@code solve.retry-max-backoff})
     */
    public record RetryBackoff(Duration initial, Duration max) implements Serializable {
        public RetryBackoff {
            if (initial.isZero() || initial.isNegative()) {
                throw new IllegalArgumentException("solve.retry-backoff (" + initial.toMillis() + "ms) must be > 0");
            }
            if (max.compareTo(initial) < 0) {
                throw new IllegalArgumentException("solve.retry-max-backoff (" + max.toMillis()
                        + "ms) must be >= solve.retry-backoff (" + initial.toMillis() + "ms)");
            }
        }

        /** The wait after {@code attempts} failed attempts, in ms. */
        public long delayMillis(int attempts) {
            long delay = initial.toMillis();
            for (int i = 1; i < attempts && delay < max.toMillis(); i++) {
                delay *= 2;
            }
            return Math.min(delay, max.toMillis());
        }
    }

    public ControllerConfig {
        requireText("bootstrap.servers", bootstrapServers);
        requireText("controller.id", controllerId);
        requirePositive("rates.window", rateWindow);
        requireNonNegative("watermark.out-of-orderness", outOfOrderness);
        requirePositive("watermark.idleness", idleness);
        requirePositive("solve.timeout", solveTimeout);
        requirePositive("solve.poll", solvePoll);
        Objects.requireNonNull(solveRetry, "solve retry backoff");
        if (targetOngoingRequests < 1) {
            throw new IllegalArgumentException("placement.target-ongoing-requests (" + targetOngoingRequests + ") must be >= 1");
        }
        Objects.requireNonNull(coldStart, "placement.cold-start");
        if (startupBuffer < 0) {
            throw new IllegalArgumentException("placement.startup-buffer (" + startupBuffer + ") must be >= 0");
        }
        requireNonNegative("checkpoint.interval", checkpointInterval);
        Objects.requireNonNull(delivery, "decisions.delivery");
        Objects.requireNonNull(decisionsFormat, "decisions.format");
        requireNonNegative("decisions.linger", decisionsLinger);
        requireNonNegative("network.buffer-timeout", bufferTimeout);
        if (delivery == DecisionDelivery.EXACTLY_ONCE && checkpointInterval.isZero()) {
            throw new IllegalArgumentException("decisions.delivery (exactly-once) needs checkpoints, but "
                    + "checkpoint.interval is 0: set an interval, or decisions.delivery=at-least-once");
        }
        if (!Set.of("hashmap", "rocksdb").contains(stateBackend)) {
            throw new IllegalArgumentException("state.backend (" + stateBackend + ") must be hashmap or rocksdb");
        }
        Checks.positive(defaultLinkBitsPerSecond, "cluster.default-link-bits-per-second");
        requirePositive("cluster.liveness-timeout", livenessTimeout);
        requirePositive("placement.hold-timeout", holdTimeout);
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism (" + parallelism + ") must be >= 1");
        }
        Objects.requireNonNull(controlLimits, "control limits");
        Objects.requireNonNull(outcomes, "outcome settings");
        kafka = Map.copyOf(kafka);
        flink = Map.copyOf(flink);
    }

    /** The defaults, with the given bootstrap servers. */
    public static ControllerConfig withBootstrap(String bootstrapServers) {
        return fromMap(Map.of("bootstrap.servers", bootstrapServers));
    }

    /**
     * Reads a properties file; keys it does not set keep their defaults.
     *
     * @throws IllegalArgumentException naming the file when it does not exist or cannot be read
     */
    public static ControllerConfig load(Path file, String bootstrapOverride) {
        return load(file, bootstrapOverride, Map.of());
    }

    /**
     * Reads a properties file; keys it does not set take their value from {@code defaults} (e.g. {@code bin/nona
     * run}'s {@code --metrics-port} entries), then their defaults.
     */
    public static ControllerConfig load(Path file, String bootstrapOverride, Map<String, String> defaults) {
        Properties props = KafkaClientConfig.readFile(file);
        Map<String, String> map = new TreeMap<>(defaults);
        props.stringPropertyNames().forEach(k -> map.put(k, props.getProperty(k).trim()));
        if (bootstrapOverride != null) {
            map.put("bootstrap.servers", bootstrapOverride);
        }
        return fromMap(map);
    }

    /**
     * Builds a config from keys and values; the defaults of {@link ControllerOptions} fill in what is missing.
     * Values are parsed by Flink ({@code Configuration.get}); a value that does not parse is an error naming key
     * and value.
     */
    public static ControllerConfig fromMap(Map<String, String> given) {
        Map<String, String> kafka = new TreeMap<>();
        Map<String, String> flink = new TreeMap<>();
        Map<String, String> own = new TreeMap<>();
        for (Map.Entry<String, String> e : given.entrySet()) {
            String key = e.getKey();
            ControllerOptions.PassThrough family = ControllerOptions.passThrough(key);
            if (family == ControllerOptions.PassThrough.KAFKA_PREFIXED) {
                kafka.put(key.substring("kafka.".length()), e.getValue());
            } else if (family == ControllerOptions.PassThrough.KAFKA) {
                kafka.put(key, e.getValue());
            } else if (family == ControllerOptions.PassThrough.FLINK) {
                flink.put(key.substring("flink.".length()), e.getValue());
            } else if (ControllerOptions.KEYS.contains(key)) {
                own.put(key, e.getValue());
            } else {
                throw new IllegalArgumentException("unknown configuration key '" + key + "' (see docs/controller.md)");
            }
        }
        Values v = new Values(Configuration.fromMap(own), own);
        return new ControllerConfig(
                v.string(BOOTSTRAP_SERVERS),
                v.string(CONTROLLER_ID),
                new Topics(v.string(TOPICS_REQUESTS), v.string(TOPICS_TELEMETRY), v.string(TOPICS_CATALOG),
                        v.string(TOPICS_DECISIONS), v.string(TOPICS_TABLES), v.string(TOPICS_EVENTS),
                        v.string(TOPICS_DEAD_LETTERS), v.string(TOPICS_OUTCOMES), v.string(TOPICS_COMMANDS)),
                v.duration(RATES_WINDOW),
                v.duration(WATERMARK_OUT_OF_ORDERNESS),
                v.duration(WATERMARK_IDLENESS),
                new DriftSettings(v.number(DRIFT_THRESHOLD), v.integer(DRIFT_WINDOWS), v.duration(DRIFT_DEBOUNCE),
                        v.number(DRIFT_MIN_RATE), v.number(DRIFT_SIGNIFICANCE),
                        v.number(DRIFT_THRESHOLD_SIGNIFICANCE)),
                v.duration(SOLVE_TIMEOUT),
                v.duration(SOLVE_POLL),
                new RetryBackoff(v.duration(SOLVE_RETRY_BACKOFF), v.duration(SOLVE_RETRY_MAX_BACKOFF)),
                v.integer(PLACEMENT_TARGET_ONGOING_REQUESTS),
                new ColdStart(v.number(PLACEMENT_COLD_START_FIXED_SECONDS),
                        v.number(PLACEMENT_COLD_START_LOAD_BYTES_PER_SECOND), v.number(PLACEMENT_COLD_START_WEIGHT),
                        v.duration(PLACEMENT_COLD_START_RENT_HALF_LIFE)),
                v.integer(PLACEMENT_STARTUP_BUFFER),
                v.duration(PLACEMENT_HOLD_TIMEOUT),
                v.duration(CHECKPOINT_INTERVAL),
                DecisionDelivery.parse(DECISIONS_DELIVERY.key(), v.string(DECISIONS_DELIVERY)),
                DecisionFormat.parse(DECISIONS_FORMAT.key(), v.string(DECISIONS_FORMAT)),
                v.duration(DECISIONS_LINGER),
                v.duration(NETWORK_BUFFER_TIMEOUT),
                v.string(CHECKPOINT_DIR),
                v.string(STATE_BACKEND).toLowerCase(Locale.ROOT),
                v.bool(CHECKPOINT_INCREMENTAL),
                v.number(CLUSTER_DEFAULT_LINK_BITS_PER_SECOND),
                v.duration(CLUSTER_LIVENESS_TIMEOUT),
                costModelName(v.string(SOLVER_COST_MODEL)).equals("paper"),
                costModelName(v.string(SOLVER_COST_MODEL)),
                v.integer(PARALLELISM),
                v.string(CONTROL_SLOT_SHARING_GROUP).strip(),
                v.bool(SOURCE_START_FROM_EARLIEST),
                new ControlLimits(v.integer(CATALOG_MAX_TASKS), v.integer(CATALOG_MAX_EDGES),
                        ControlLimits.parseServers(v.string(CLUSTER_SERVERS))),
                new OutcomeSettings(v.duration(OUTCOMES_MAX_WAIT), v.duration(OUTCOMES_DECISION_WAIT),
                        v.number(ROLLBACK_MARGIN), v.integer(ROLLBACK_MIN_SAMPLES)),
                kafka,
                flink);
    }

    /**
     * Typed values read through Flink's parsers ({@code TimeUtils.parseDuration} for durations: {@code 250ms},
     * {@code 10s}, {@code 5m} or {@code 5min}, {@code 1h}, {@code 1d}, a bare number of milliseconds); Flink's
     * "Could not parse value" becomes an error that names key and value.
     */
    private record Values(Configuration conf, Map<String, String> raw) {
        private static final String NOT_A_DURATION = "is not a duration like 250ms, 10s, 5m or 1h";

        String string(ConfigOption<String> option) {
            return conf.get(option);
        }

        /** Flink reads no sign: a negative duration is read here, so that the range check names it. */
        Duration duration(ConfigOption<Duration> option) {
            String text = raw.get(option.key());
            if (text != null && text.strip().startsWith("-")) {
                String magnitude = text.strip().substring(1);
                Values unsigned = new Values(Configuration.fromMap(Map.of(option.key(), magnitude)), raw);
                return unsigned.get(option, NOT_A_DURATION).negated();
            }
            return get(option, NOT_A_DURATION);
        }

        int integer(ConfigOption<Integer> option) {
            return get(option, "is not an integer");
        }

        double number(ConfigOption<Double> option) {
            return get(option, "is not a number");
        }

        boolean bool(ConfigOption<Boolean> option) {
            return get(option, "must be true or false");
        }

        private <T> T get(ConfigOption<T> option, String problem) {
            try {
                return conf.get(option);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(option.key() + " (" + raw.get(option.key()) + ") " + problem, e);
            }
        }
    }

    /** The cost model's name for {@code CostModel.named}: {@code default} is {@code controller-mapping}. */
    private static String costModelName(String value) {
        return switch (value) {
            case "default", "controller-mapping" -> "controller-mapping";
            case "server-queueing", "paper" -> value;
            default -> throw new IllegalArgumentException(
                    "solver.cost-model (" + value + ") must be default, controller-mapping, server-queueing or paper");
        };
    }

    private static void requireText(String key, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(key + " ('" + value + "') must be set");
        }
    }

    private static void requirePositive(String key, Duration d) {
        Checks.positive(d, key);
    }

    private static void requireNonNegative(String key, Duration d) {
        if (d.isNegative()) {
            throw new IllegalArgumentException(key + " (" + d.toMillis() + "ms) must be >= 0");
        }
    }
}
