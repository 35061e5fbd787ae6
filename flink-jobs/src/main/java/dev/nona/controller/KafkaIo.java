package dev.nona.controller;

import dev.nona.controller.ControllerJob.Sinks;
import dev.nona.controller.ControllerJob.Sources;
import dev.nona.controller.command.CommandDeserializer;
import dev.nona.controller.command.CommandRecord;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.outcome.DecisionReadBack;
import dev.nona.controller.outcome.OutcomeDeserializer;
import dev.nona.controller.outcome.OutcomeRecord;
import dev.nona.controller.sink.DecisionSerializer;
import dev.nona.controller.sink.TableRecordSerializer;
import dev.nona.controller.sink.TopicRecordSerializer;
import dev.nona.controller.source.ControlDeserializer;
import dev.nona.controller.source.ControlRecord;
import dev.nona.controller.source.RequestDeserializer;
import dev.nona.controller.source.RequestRecord;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.Topics;
import dev.nona.topics.client.ClientProperties;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;

/**
 * The controller's Kafka sources and sinks, as configured. Decisions are written as {@code decisions.delivery}
 * says ({@link DecisionDelivery}): at least once, as soon as placed (the default), or exactly once in Kafka
 * transactions committed on checkpoints (readers must use {@code isolation.level=read_committed}); tables, events
 * and dead letters at least once. Every Kafka client gets the pass-through client properties (security, SASL,
 * SSL, ...). Sources start from the group's committed offsets, else from the earliest (or latest) offset.
 */
public final class KafkaIo {
    /** Kafka transactions must not outlive the broker's {@code transaction.max.timeout.ms} (15 min by default). */
    static final String TRANSACTION_TIMEOUT_MS = "600000";
    /** How long the job's build waits for the broker to say whether the outcomes topic exists. */
    static final String TOPIC_CHECK_TIMEOUT_MS = "10000";
    /**
     * How long a topic the broker does not list yet is asked for again: a freshly created topic reaches every
     * broker's metadata within milliseconds (the outcome path once started without its topic, created a moment
     * before, in a test).
     */
    static final long TOPIC_VISIBLE_WAIT_MS = 3000;
    /** How long the job's build waits before asking a broker that did not answer again. */
    static final long BROKER_RETRY_MS = 2000;
    private static final Logger LOG = LoggerFactory.getLogger(KafkaIo.class);
    /**
     * {@code batch.size} of the decisions producer. Kafka's default (16 kB) holds five full decisions (~3.2 kB) per
     * partition: at 20,000 decisions/s the producer sent thousands of small requests a second and the broker spent
     * 41 us of CPU per decision handling them; 256 kB let the batches grow while the producer waits for the broker
     * (16 us). It costs nothing at low rates: with {@code linger.ms=0} a batch is sent as soon as the producer can,
     * however full (docs/benchmarks.md, bin/nona bench latency).
     */
    static final int DECISIONS_BATCH_BYTES = 256 * 1024;

    private KafkaIo() {}

    /**
     * The sources; the outcome source only when {@code topics.outcomes} is set and the topic exists now (asked of
     * the broker, with a WARN when it does not: the controller then runs without the outcome path until restarted).
     */
    public static Sources sources(ControllerConfig config) {
        return sources(config, Map.of());
    }

    /**
     * The sources, whose command source starts at {@code commandOffsets} on a fresh start (see
     * {@link #commandSource(ControllerConfig, Map)}).
     */
    public static Sources sources(ControllerConfig config, Map<TopicPartition, Long> commandOffsets) {
        Sources sources = sources(config, !config.topics().outcomes().isBlank()
                && topicExists(config, config.topics().outcomes()));
        String commands = config.topics().commands();
        return !commands.isBlank() && topicExists(config, commands, "topics.commands", "operator commands")
                ? sources.withCommands(commandSource(config, commandOffsets)) : sources;
    }

    /** The operator's commands, from the beginning of the compacted topic on a fresh start. */
    static KafkaSource<CommandRecord> commandSource(ControllerConfig config) {
        return commandSource(config, Map.of());
    }

    /**
     * The operator's commands: on a fresh start from {@code offsets}, the end offsets to which the start read the
     * commands in force ({@code StartupSnapshot}; a partition it did not see from its beginning), or from the
     * beginning of the compacted topic when it read none (the latest command of every scope is re-read); from the
     * checkpointed offsets on a restore.
     */
    static KafkaSource<CommandRecord> commandSource(ControllerConfig config, Map<TopicPartition, Long> offsets) {
        return KafkaSource.<CommandRecord>builder()
                .setBootstrapServers(config.bootstrapServers())
                .setTopics(config.topics().commands())
                .setGroupId(config.controllerId() + "-commands")
                .setStartingOffsets(offsets.isEmpty() ? OffsetsInitializer.earliest()
                        : OffsetsInitializer.offsets(new HashMap<>(offsets), OffsetResetStrategy.EARLIEST))
                .setDeserializer(new CommandDeserializer())
                .setProperties(clientProperties(config))
                .build();
    }

    /** The sources, with the outcome source or without it. */
    public static Sources sources(ControllerConfig config, boolean withOutcomes) {
        ControllerConfig.Topics t = config.topics();
        return new Sources(
                KafkaSource.<RequestRecord>builder()
                        .setBootstrapServers(config.bootstrapServers())
                        .setTopics(t.requests())
                        .setGroupId(config.controllerId() + "-requests")
                        .setStartingOffsets(startingOffsets(config))
                        .setDeserializer(new RequestDeserializer(t.requests()))
                        .setProperties(clientProperties(config))
                        .build(),
                controlSource(config, t.telemetry(), "-telemetry", ControlDeserializer.Kind.TELEMETRY),
                controlSource(config, t.catalog(), "-catalog", ControlDeserializer.Kind.CATALOG),
                withOutcomes ? outcomeSource(config) : null,
                withOutcomes ? decisionReadBack(config) : null);
    }

    /**
     * How far before the job's build the decision read-back starts on a fresh start: room for a TaskManager's clock
     * behind the client's (decisions carry the producer's wall-clock time). Decisions of an earlier run of the same
     * controller written in this minute are read back too; their outcomes, if any, are joined.
     */
    static final long READ_BACK_CLOCK_MARGIN_MILLIS = 60_000;

    /**
     * The controller's own decisions, read back for the outcome join: committed ones only (so that with
     * {@code exactly-once} an aborted decision, which no executor saw, is not waited for); on a fresh start from
     * the group's committed offsets, else from the decisions written since the job was built (less
     * {@link #READ_BACK_CLOCK_MARGIN_MILLIS}): earlier decisions' outcomes are not waited for
     * ({@link CommittedOffsetsOrSince}).
     */
    private static KafkaSource<PlacementDecision> decisionReadBack(ControllerConfig config) {
        Properties props = clientProperties(config);
        props.put("isolation.level", "read_committed");
        return KafkaSource.<PlacementDecision>builder()
                .setBootstrapServers(config.bootstrapServers())
                .setTopics(config.topics().decisions())
                .setGroupId(config.controllerId() + "-decisions-read-back")
                .setStartingOffsets(
                        new CommittedOffsetsOrSince(System.currentTimeMillis() - READ_BACK_CLOCK_MARGIN_MILLIS))
                .setDeserializer(new DecisionReadBack())
                .setProperties(props)
                .build();
    }

    /**
     * The outcomes source. Not subscribed by pattern (which would let the job start before the executors create
     * the topic): with a pattern subscription the outcome path stalled in tests (docs/controller.md, "What it does, operator by operator").
     */
    private static KafkaSource<OutcomeRecord> outcomeSource(ControllerConfig config) {
        return KafkaSource.<OutcomeRecord>builder()
                .setBootstrapServers(config.bootstrapServers())
                .setTopics(config.topics().outcomes())
                .setGroupId(config.controllerId() + "-outcomes")
                .setStartingOffsets(startingOffsets(config))
                .setDeserializer(new OutcomeDeserializer())
                .setProperties(clientProperties(config))
                .build();
    }

    /** Whether the outcomes topic {@code topic} exists (see {@link #topicExists(ControllerConfig, String, String, String)}). */
    static boolean topicExists(ControllerConfig config, String topic) {
        return topicExists(config, topic, "topics.outcomes", "outcomes (no CALIBRATION events)");
    }

    /**
     * Whether {@code topic} (of config key {@code key}) exists, asked of the broker within
     * {@link #TOPIC_CHECK_TIMEOUT_MS}; a WARN says the controller runs without {@code without} when it does not.
     *
     * <p>A broker that does not answer is waited for, every {@link #BROKER_RETRY_MS}, with a WARN per attempt: the
     * job graph depends on the answer, and a graph built without an operator its checkpoint holds cannot resume from
     * it (a controller restarted during a broker outage once left its command source out and then could not restore
     * its checkpoint, and would not until the broker answered). Nothing can be placed before the broker answers anyway.
     */
    static boolean topicExists(ControllerConfig config, String topic, String key, String without) {
        for (int attempt = 1; ; attempt++) {
            try {
                return topicExistsOnce(config, topic, key, without);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while asking the broker whether topic " + topic + " exists", e);
            } catch (Exception e) {
                LOG.warn("cannot tell whether topic {} ({}) exists: the broker at {} does not answer ({}); asking again in "
                        + "{} ms (attempt {}); the job is built once it answers", topic, key, config.bootstrapServers(),
                        e.toString(), BROKER_RETRY_MS, attempt);
                try {
                    Thread.sleep(BROKER_RETRY_MS);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the broker at " + config.bootstrapServers(), ie);
                }
            }
        }
    }

    /** One question to the broker; throws when it does not answer within {@link #TOPIC_CHECK_TIMEOUT_MS}. */
    private static boolean topicExistsOnce(ControllerConfig config, String topic, String key, String without) throws Exception {
        Properties props = clientProperties(config);
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, TOPIC_CHECK_TIMEOUT_MS);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, TOPIC_CHECK_TIMEOUT_MS);
        try (Admin admin = Admin.create(props)) {
            // A topic created a moment ago may not be in the answering broker's metadata yet (KRaft: the create
            // returns once the controller committed it; brokers apply it shortly after): a first miss is asked
            // again for TOPIC_VISIBLE_WAIT_MS before it counts as absent.
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TOPIC_VISIBLE_WAIT_MS);
            boolean exists = admin.listTopics().names().get(Integer.parseInt(TOPIC_CHECK_TIMEOUT_MS),
                    TimeUnit.MILLISECONDS).contains(topic);
            while (!exists && System.nanoTime() < deadline) {
                Thread.sleep(100);
                exists = admin.listTopics().names().get(Integer.parseInt(TOPIC_CHECK_TIMEOUT_MS),
                        TimeUnit.MILLISECONDS).contains(topic);
            }
            if (!exists) {
                LOG.warn("topic {} ({}) does not exist: the controller runs without {}; create it (bin/nona topics "
                        + "create) and restart the controller", topic, key, without);
            }
            return exists;
        }
    }

    private static KafkaSource<ControlRecord> controlSource(ControllerConfig config, String topic, String group,
            ControlDeserializer.Kind kind) {
        return KafkaSource.<ControlRecord>builder()
                .setBootstrapServers(config.bootstrapServers())
                .setTopics(topic)
                .setGroupId(config.controllerId() + group)
                // The catalog is compacted: always read all of it, whatever the group has committed.
                .setStartingOffsets(kind == ControlDeserializer.Kind.CATALOG ? OffsetsInitializer.earliest() : startingOffsets(config))
                .setDeserializer(new ControlDeserializer(kind, config.controlLimits()))
                .setProperties(clientProperties(config))
                .build();
    }

    private static OffsetsInitializer startingOffsets(ControllerConfig config) {
        return OffsetsInitializer.committedOffsets(
                config.startFromEarliest() ? OffsetResetStrategy.EARLIEST : OffsetResetStrategy.LATEST);
    }

    public static Sinks sinks(ControllerConfig config) {
        ControllerConfig.Topics t = config.topics();
        return new Sinks(
                sink(config, new DecisionSerializer(t.decisions()), decisionGuarantee(config), "-decisions",
                        decisionProducerSettings(config)),
                sink(config, new TableRecordSerializer(t.tables(), config.controllerId()), DeliveryGuarantee.AT_LEAST_ONCE, "-tables",
                        Map.of("max.request.size", String.valueOf(Topics.TABLE_MAX_BYTES))),
                sink(config, new TopicRecordSerializer<>(t.events(), ControllerEvent.class), DeliveryGuarantee.AT_LEAST_ONCE, "-events", Map.of()),
                sink(config, new TopicRecordSerializer<>(t.deadLetters(), DeadLetter.class), DeliveryGuarantee.AT_LEAST_ONCE, "-dead-letters",
                        Map.of("max.request.size", String.valueOf(Topics.DEAD_LETTER_MAX_BYTES))));
    }

    /**
     * The decisions producer's own settings (the user's {@code kafka.*} win): {@code decisions.linger}, a large
     * {@link #DECISIONS_BATCH_BYTES batch} and one produce request in flight. With one in flight, decisions placed
     * while a request is out go in the next one: at low rates each is sent at once, at high rates the batches grow
     * with the rate (Nagle's rule, without a timer). Against five in flight, in two alternated pairs of runs at
     * 20,000 decisions/s, the CPU per request was the same in one and 9% lower in the other (bin/nona bench latency,
     * docs/benchmarks.md).
     */
    static Map<String, String> decisionProducerSettings(ControllerConfig config) {
        return Map.of("linger.ms", String.valueOf(config.decisionsLinger().toMillis()),
                "batch.size", String.valueOf(DECISIONS_BATCH_BYTES),
                "max.in.flight.requests.per.connection", "1");
    }

    /** The Kafka sink's guarantee for decisions: {@code decisions.delivery}. */
    static DeliveryGuarantee decisionGuarantee(ControllerConfig config) {
        return switch (config.delivery()) {
            case AT_LEAST_ONCE -> DeliveryGuarantee.AT_LEAST_ONCE;
            case EXACTLY_ONCE -> DeliveryGuarantee.EXACTLY_ONCE;
        };
    }

    /**
     * @param own producer settings of this sink alone (e.g. {@code linger.ms}, or a {@code max.request.size} matching
     *            the topic's limit); the user's {@code kafka.*} settings win over them
     */
    private static <T> KafkaSink<T> sink(ControllerConfig config, KafkaRecordSerializationSchema<T> schema,
            DeliveryGuarantee guarantee, String suffix, Map<String, String> own) {
        Properties props = new Properties();
        props.putAll(own);
        props.putAll(clientProperties(config));
        props.putIfAbsent("transaction.timeout.ms", TRANSACTION_TIMEOUT_MS);
        var builder = KafkaSink.<T>builder()
                .setBootstrapServers(config.bootstrapServers())
                .setRecordSerializer(schema)
                .setDeliveryGuarantee(guarantee)
                .setKafkaProducerConfig(props);
        if (guarantee == DeliveryGuarantee.EXACTLY_ONCE) {
            builder.setTransactionalIdPrefix(config.controllerId() + suffix);
        }
        return builder.build();
    }

    /**
     * The longest reconnect and retry backoff of every client, milliseconds ({@code reconnect.backoff.max.ms},
     * {@code retry.backoff.max.ms}; Kafka's defaults are 1,000). Each backoff doubles from 50 / 100 ms while the broker
     * is away, so after an outage of more than a few seconds a client with Kafka's defaults waits up to 1 s to try
     * again, and the request path has two clients in a row (the requests source, then the decisions producer): up to
     * 2 s of the recovery after the broker accepts writes again (docs/benchmarks.md, bench recovery --fault
     * broker-kill). 250 ms costs at most four connection attempts per second per client while the broker is down.
     */
    static final String RECOVERY_BACKOFF_MAX_MS = "250";

    /**
     * The client properties of every source and sink: the 1 MB receive buffer of
     * {@link ClientProperties#SOCKET_BUFFERS} (Kafka's 64 kB drops segments of a busy connection on loopback, each
     * resent after at least 200 ms), the {@link #RECOVERY_BACKOFF_MAX_MS} backoffs, then the pass-through ones
     * (security.protocol, sasl.*, ssl.*, kafka.*), which win.
     */
    static Properties clientProperties(ControllerConfig config) {
        Properties props = new Properties();
        props.putAll(ClientProperties.SOCKET_BUFFERS);
        props.put("reconnect.backoff.max.ms", RECOVERY_BACKOFF_MAX_MS);
        props.put("retry.backoff.max.ms", RECOVERY_BACKOFF_MAX_MS);
        props.putAll(config.kafka());
        return props;
    }
}
