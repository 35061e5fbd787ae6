package dev.nona.controller;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.placement.BroadcastUpdate;
import dev.nona.controller.source.ControlDeserializer;
import dev.nona.controller.source.ControlRecord;
import dev.nona.topics.record.ModelCatalogEntry;
import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What the controller knows before its job starts: the model catalog and the newest table of this controller, read
 * with a plain consumer from the beginning of the compacted {@code model-catalog} and {@code placement-tables} to the
 * end offsets seen at start. The job's placement operator takes them as its bootstrap snapshot, so that a fresh start
 * places no request before it knows the catalog (none is dead-lettered for a model the catalog holds) and places the
 * first one under the newest solved table when that table still fits the catalog.
 *
 * @param models       the catalog's entries by model (removals applied), in the topic's order
 * @param table        the newest table of this controller that fits the catalog, or null
 * @param tableSkipped why the newest table was not taken ({@code ""} when it was, or when there was none)
 */
public record StartupSnapshot(Map<String, ModelCatalogEntry> models, ControllerTable table, String tableSkipped) {
    /** How long the start waits for each topic's end offsets and records. */
    static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

    public StartupSnapshot {
        models = Collections.unmodifiableMap(new LinkedHashMap<>(models));
        tableSkipped = tableSkipped == null ? "" : tableSkipped;
    }

    /** Nothing read: {@code why}. */
    public static StartupSnapshot empty(String why) {
        return new StartupSnapshot(Map.of(), null, why);
    }

    /** The snapshot as the placement operator takes it: the catalog's entries, then the table. */
    public List<BroadcastUpdate> updates() {
        List<BroadcastUpdate> out = new ArrayList<>();
        models.values().forEach(e -> out.add(BroadcastUpdate.of(e)));
        if (table != null) {
            out.add(BroadcastUpdate.of(table));
        }
        return out;
    }

    /** Reads the catalog and the newest table of {@code config}'s controller from Kafka, to the end offsets at start. */
    public static StartupSnapshot read(ControllerConfig config) {
        Map<String, ModelCatalogEntry> models = new LinkedHashMap<>();
        ControlDeserializer catalog = new ControlDeserializer(ControlDeserializer.Kind.CATALOG, config.controlLimits());
        Collector<ControlRecord> applied = new Collector<>() {
            @Override
            public void collect(ControlRecord r) {
                if (r.input() != null && r.input().catalog() != null) {
                    models.remove(r.input().catalog().model()); // a re-added model moves to the end
                    models.put(r.input().catalog().model(), r.input().catalog());
                } else if (r.input() != null && r.input().removedModel() != null) {
                    models.remove(r.input().removedModel());
                }
            }

            @Override
            public void close() {}
        };
        byte[] id = config.controllerId().getBytes(StandardCharsets.UTF_8);
        byte[][] newest = {null};
        String catalogTopic = config.topics().catalog();
        readToEnd(config, List.of(catalogTopic, config.topics().tables()), r -> {
            if (r.topic().equals(catalogTopic)) {
                catalog.deserialize(r, applied);
            } else if (r.key() != null && Arrays.equals(r.key(), id)) {
                newest[0] = r.value(); // a tombstone (null) forgets the table
            }
        });
        if (newest[0] == null) {
            return new StartupSnapshot(models, null, "");
        }
        return withTable(models, newest[0], config.controllerId());
    }

    /** The snapshot with {@code tableRecord} (a {@code placement-tables} value) as its table if it fits {@code models}. */
    static StartupSnapshot withTable(Map<String, ModelCatalogEntry> models, byte[] tableRecord, String controllerId) {
        Parsed<PlacementTableRecord> parsed = new JsonSerde<>(PlacementTableRecord.class, Integer.MAX_VALUE)
                .parse(tableRecord);
        if (!parsed.ok()) {
            return new StartupSnapshot(models, null, "the newest table record does not parse: " + parsed.reason());
        }
        ControllerTable table;
        try {
            table = MAPPER.readValue(parsed.value().tableJson(), ControllerTable.class);
        } catch (Exception e) {
            return new StartupSnapshot(models, null, "the newest table (version " + parsed.value().version()
                    + ") does not parse: " + e.getMessage());
        }
        String misfit = misfit(table, models.keySet(), controllerId, parsed.value().tableId());
        return misfit == null ? new StartupSnapshot(models, table, "") : new StartupSnapshot(models, null, misfit);
    }

    /** Why {@code table} does not fit the catalog's {@code models} (null when it does). */
    static String misfit(ControllerTable table, Set<String> models, String controllerId, String tableId) {
        if (!controllerId.equals(tableId)) {
            return "the newest table was solved for controller '" + tableId + "', not '" + controllerId + "'";
        }
        if (table.fallback()) {
            return "the newest table (version " + table.version() + ") is a fallback table";
        }
        if (!new TreeSet<>(table.rates().keySet()).equals(new TreeSet<>(models))) {
            return "the newest table (version " + table.version() + ") was solved for models "
                    + new TreeSet<>(table.rates().keySet()) + ", the catalog holds " + new TreeSet<>(models);
        }
        return null;
    }

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    /**
     * Feeds every record of {@code topics} up to the end offsets seen now to {@code each} (in offset order per
     * partition); a topic that does not exist has none (it is not created).
     */
    private static void readToEnd(ControllerConfig config, List<String> topics,
            Consumer<ConsumerRecord<byte[], byte[]>> each) {
        Properties props = KafkaIo.clientProperties(config);
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) READ_TIMEOUT.toMillis());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : topics) {
                var infos = consumer.partitionsFor(topic, READ_TIMEOUT);
                if (infos != null) {
                    infos.forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
                }
            }
            if (partitions.isEmpty()) {
                return;
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, READ_TIMEOUT);
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (!reached(consumer, end)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("cannot read " + topics + " to their end offsets " + end
                            + " within " + READ_TIMEOUT.toSeconds() + " s");
                }
                consumer.poll(Duration.ofMillis(200)).forEach(r -> {
                    if (r.offset() < end.get(new TopicPartition(r.topic(), r.partition()))) {
                        each.accept(r);
                    }
                });
            }
        }
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
