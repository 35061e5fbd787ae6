package dev.nona.controller;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.nona.controller.command.ActiveCommands;
import dev.nona.controller.command.CommandDeserializer;
import dev.nona.controller.command.CommandRecord;
import dev.nona.controller.command.CommandReplay;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.placement.BroadcastUpdate;
import dev.nona.controller.source.ControlDeserializer;
import dev.nona.controller.source.ControlRecord;
import dev.nona.topics.record.CatalogDag;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the controller knows before its job starts, read with a plain consumer to the end offsets seen at start: the
 * model catalog and the operator's commands in force (from the beginning of the compacted {@code model-catalog} and
 * {@code controller-commands}), the newest table of this controller (the compacted {@code placement-tables}) and the
 * servers up now (the last {@code cluster.liveness-timeout} of {@code cluster-telemetry}). The job starts from them
 * (its placement operator's bootstrap snapshot, the command operator's and the control loop's commands at start, the
 * command source's start offsets), so that a fresh start places no request before it knows the catalog (none is
 * dead-lettered for a model the catalog holds) and the commands in force (no stage on a drained server), and places
 * the first one under the newest solved table when that table fits the catalog and the cluster ({@link StartTableFit}).
 *
 * @param models         the catalog's entries by model (removals applied), in the topic's order
 * @param commands       the operator's commands in force ({@link CommandReplay})
 * @param commandOffsets the end offsets of {@code controller-commands} read to, where the job's command source
 *                       starts on a fresh start; empty when the topic was not read (it then reads from the beginning)
 * @param table          the newest table of this controller when it fits, or null
 * @param tableSkipped   why the newest table was not taken ({@code ""} when it was, or when there was none)
 * @param newestTableVersion the version of the newest table of this controller on {@code placement-tables}, taken or
 *                       not (0: none): the fresh control loop's first table is the next, so versions never go back
 */
public record StartupSnapshot(Map<String, ModelCatalogEntry> models, ActiveCommands commands,
        Map<TopicPartition, Long> commandOffsets, ControllerTable table, String tableSkipped, long newestTableVersion) {
    private static final Logger LOG = LoggerFactory.getLogger(StartupSnapshot.class);
    /** How long the start waits for each topic's end offsets and records. */
    static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

    public StartupSnapshot {
        models = Collections.unmodifiableMap(new LinkedHashMap<>(models));
        Objects.requireNonNull(commands, "commands in force");
        commandOffsets = Map.copyOf(commandOffsets);
        tableSkipped = tableSkipped == null ? "" : tableSkipped;
        if (newestTableVersion < 0) {
            throw new IllegalArgumentException("newestTableVersion (" + newestTableVersion + ") must be >= 0");
        }
    }

    /** A snapshot without a newest table version (its table's, when it has one). */
    public StartupSnapshot(Map<String, ModelCatalogEntry> models, ActiveCommands commands,
            Map<TopicPartition, Long> commandOffsets, ControllerTable table, String tableSkipped) {
        this(models, commands, commandOffsets, table, tableSkipped, table == null ? 0 : table.version());
    }

    /** Nothing read: {@code why}. */
    public static StartupSnapshot empty(String why) {
        return new StartupSnapshot(Map.of(), ActiveCommands.NONE, Map.of(), null, why);
    }

    /** The snapshot as the placement operator takes it: the catalog's entries, the commands in force, the table. */
    public List<BroadcastUpdate> updates() {
        List<BroadcastUpdate> out = new ArrayList<>();
        models.values().forEach(e -> out.add(BroadcastUpdate.of(e)));
        if (!commands.byScope().isEmpty()) {
            out.add(BroadcastUpdate.of(commands));
        }
        if (table != null) {
            out.add(BroadcastUpdate.of(table));
        }
        return out;
    }

    /**
     * Reads the catalog, the commands in force, the newest table of {@code config}'s controller and the servers up
     * from Kafka, to the end offsets at start.
     */
    public static StartupSnapshot read(ControllerConfig config) {
        long start = System.currentTimeMillis();
        Map<String, ModelCatalogEntry> models = new LinkedHashMap<>();
        ControlDeserializer catalog = new ControlDeserializer(ControlDeserializer.Kind.CATALOG, config.controlLimits());
        ControlDeserializer telemetry = new ControlDeserializer(ControlDeserializer.Kind.TELEMETRY, config.controlLimits());
        StartTableFit.Servers servers = new StartTableFit.Servers();
        long[] arrival = {0};
        Collector<ControlRecord> applied = new Collector<>() {
            @Override
            public void collect(ControlRecord r) {
                if (r.input() == null) {
                    return;
                } else if (r.input().catalog() != null) {
                    models.remove(r.input().catalog().model()); // a re-added model moves to the end
                    models.put(r.input().catalog().model(), r.input().catalog());
                } else if (r.input().removedModel() != null) {
                    models.remove(r.input().removedModel());
                } else if (r.input().server() != null) {
                    servers.report(r.input().server(), arrival[0]);
                }
            }

            @Override
            public void close() {}
        };
        CommandDeserializer commandParser = new CommandDeserializer();
        CommandReplay replay = new CommandReplay();
        Collector<CommandRecord> commands = new Collector<>() {
            @Override
            public void collect(CommandRecord r) {
                if (r.command() != null) {
                    replay.read(r.command());
                } else {
                    replay.unreadable();
                }
            }

            @Override
            public void close() {}
        };
        byte[] id = config.controllerId().getBytes(StandardCharsets.UTF_8);
        byte[][] newest = {null};
        ControllerConfig.Topics t = config.topics();
        String commandTopic = t.commands().isBlank() ? null : t.commands();
        List<String> fromStart = new ArrayList<>(List.of(t.catalog(), t.tables()));
        if (commandTopic != null) {
            fromStart.add(commandTopic);
        }
        long since = start - config.livenessTimeout().toMillis();
        Map<TopicPartition, Long> end = readToEnd(config, fromStart, t.telemetry(), since, r -> {
            if (r.topic().equals(t.catalog())) {
                catalog.deserialize(r, applied);
            } else if (r.topic().equals(t.telemetry())) {
                arrival[0] = r.timestamp();
                telemetry.deserialize(r, applied);
            } else if (r.topic().equals(commandTopic)) {
                commandParser.deserialize(r, commands);
            } else if (r.key() != null && Arrays.equals(r.key(), id)) {
                newest[0] = r.value(); // a tombstone (null) forgets the table
            }
        });
        Map<TopicPartition, Long> commandOffsets = new HashMap<>();
        end.forEach((tp, offset) -> {
            if (tp.topic().equals(commandTopic)) {
                commandOffsets.put(tp, offset);
            }
        });
        Set<String> up = servers.up(start, config.livenessTimeout().toMillis(), replay.inForce().drained());
        LOG.info("Read before starting: {} catalog model(s), {} from {}, {} server(s) up", models.size(),
                replay.summary(), commandTopic == null ? "(no commands topic)" : commandTopic, up.size());
        StartupSnapshot read = new StartupSnapshot(models, replay.inForce(), commandOffsets, null, "");
        return newest[0] == null ? read : read.withTable(newest[0], config.controllerId(), up);
    }

    /**
     * This snapshot with {@code tableRecord} (a {@code placement-tables} value) as its table if it fits the catalog
     * and {@code serversUp} ({@link StartTableFit}), else with the reason it does not.
     */
    StartupSnapshot withTable(byte[] tableRecord, String controllerId, Set<String> serversUp) {
        Parsed<PlacementTableRecord> parsed = new JsonSerde<>(PlacementTableRecord.class, Integer.MAX_VALUE)
                .parse(tableRecord);
        if (!parsed.ok()) {
            return withTable(null, "the newest table record does not parse: " + parsed.reason(), newestTableVersion);
        }
        ControllerTable candidate;
        try {
            candidate = MAPPER.readValue(parsed.value().tableJson(), ControllerTable.class);
        } catch (Exception e) {
            return withTable(null, "the newest table (version " + parsed.value().version() + ") does not parse: "
                    + e.getMessage(), parsed.value().version());
        }
        Map<String, CatalogDag> dags = new LinkedHashMap<>();
        models.forEach((m, e) -> dags.put(m, e.dag()));
        String misfit = StartTableFit.misfit(candidate, parsed.value().tableId(), controllerId, dags, serversUp);
        long newest = Math.max(newestTableVersion, parsed.value().version());
        return misfit == null ? withTable(candidate, "", newest) : withTable(null, misfit, newest);
    }

    private StartupSnapshot withTable(ControllerTable t, String skipped, long newest) {
        return new StartupSnapshot(models, commands, commandOffsets, t, skipped, newest);
    }

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    /**
     * Feeds every record of {@code fromStart} (from their beginning) and of {@code recent} (from the first record at
     * or after {@code sinceMillis}) up to the end offsets seen now to {@code each} (in offset order per partition);
     * returns those end offsets. A topic that does not exist has none (it is not created).
     */
    private static Map<TopicPartition, Long> readToEnd(ControllerConfig config, List<String> fromStart, String recent,
            long sinceMillis, Consumer<ConsumerRecord<byte[], byte[]>> each) {
        Properties props = KafkaIo.clientProperties(config);
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) READ_TIMEOUT.toMillis());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> beginning = partitions(consumer, fromStart);
            List<TopicPartition> since = partitions(consumer, List.of(recent));
            List<TopicPartition> all = new ArrayList<>(beginning);
            all.addAll(since);
            if (all.isEmpty()) {
                return Map.of();
            }
            consumer.assign(all);
            Map<TopicPartition, Long> end = consumer.endOffsets(all, READ_TIMEOUT);
            consumer.seekToBeginning(beginning);
            if (!since.isEmpty()) {
                Map<TopicPartition, Long> at = new HashMap<>();
                since.forEach(tp -> at.put(tp, sinceMillis));
                consumer.offsetsForTimes(at, READ_TIMEOUT).forEach((tp, o) ->
                        consumer.seek(tp, o == null ? end.get(tp) : Math.min(o.offset(), end.get(tp))));
            }
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (!reached(consumer, end)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("cannot read " + all + " to their end offsets " + end
                            + " within " + READ_TIMEOUT.toSeconds() + " s");
                }
                consumer.poll(Duration.ofMillis(200)).forEach(r -> {
                    if (r.offset() < end.get(new TopicPartition(r.topic(), r.partition()))) {
                        each.accept(r);
                    }
                });
            }
            return end;
        }
    }

    private static List<TopicPartition> partitions(KafkaConsumer<?, ?> consumer, List<String> topics) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : topics) {
            var infos = consumer.partitionsFor(topic, READ_TIMEOUT);
            if (infos != null) {
                infos.forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            }
        }
        return partitions;
    }

    private static boolean reached(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
