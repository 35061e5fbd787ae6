package dev.nona.controller;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.nona.controller.loop.PublishedTableVersions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The newest version of one controller's tables on {@code placement-tables} (its records keyed by its
 * {@code controller.id}), read committed, from the end of each partition backwards: the newest record of the key is
 * near the end, so a restart reads a few records rather than the whole topic. Each partition is read in
 * {@link #CHUNK}-record steps back from its end until a step holds a record of the key (the newest version is the
 * largest of that step: versions grow along the log) or the partition's beginning is reached. Only the
 * {@code version} field is parsed (a table may be megabytes). Bounded by {@link #TIMEOUT} in all.
 */
final class KafkaTableVersions implements PublishedTableVersions {
    private static final long serialVersionUID = 1L;
    /** The whole read's bound: a restart of the control loop waits at most this long for it. */
    static final Duration TIMEOUT = Duration.ofSeconds(5);
    static final int CHUNK = 64;
    private static final JsonFactory JSON = new JsonFactory();

    private final Properties client;
    private final String topic;
    private final String controllerId;

    /** @param client the consumer's properties (bootstrap servers and the pass-through client properties) */
    KafkaTableVersions(Properties client, String topic, String controllerId) {
        this.client = (Properties) Objects.requireNonNull(client, "client properties").clone();
        this.topic = Objects.requireNonNull(topic, "tables topic");
        this.controllerId = Objects.requireNonNull(controllerId, "controller id");
    }

    static KafkaTableVersions of(ControllerConfig config) {
        Properties p = KafkaIo.clientProperties(config);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        return new KafkaTableVersions(p, config.topics().tables(), config.controllerId());
    }

    @Override
    public long newest() {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        Properties p = (Properties) client.clone();
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, CHUNK);
        byte[] key = controllerId.getBytes(StandardCharsets.UTF_8);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            var infos = consumer.partitionsFor(topic, TIMEOUT);
            if (infos == null || infos.isEmpty()) {
                return 0;
            }
            List<TopicPartition> partitions = new ArrayList<>();
            infos.forEach(i -> partitions.add(new TopicPartition(topic, i.partition())));
            Map<TopicPartition, Long> begin = consumer.beginningOffsets(partitions, remaining(deadline));
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, remaining(deadline));
            long newest = 0;
            for (TopicPartition tp : partitions) {
                newest = Math.max(newest, newestIn(consumer, tp, begin.get(tp), end.get(tp), key, deadline));
            }
            return newest;
        }
    }

    /** The newest version of {@code key} in {@code [begin, end)} of {@code tp}, stepping back from the end. */
    private static long newestIn(KafkaConsumer<byte[], byte[]> consumer, TopicPartition tp, long begin, long end,
            byte[] key, long deadline) {
        consumer.assign(List.of(tp));
        for (long to = end; to > begin; to = Math.max(begin, to - CHUNK)) {
            long from = Math.max(begin, to - CHUNK);
            consumer.seek(tp, from);
            OptionalLong found = OptionalLong.empty();
            while (consumer.position(tp, remaining(deadline)) < to) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(remaining(deadline))) {
                    if (r.offset() < to && r.value() != null && Arrays.equals(r.key(), key)) {
                        long v = version(r.value());
                        found = OptionalLong.of(Math.max(found.orElse(0), v));
                    }
                }
            }
            if (found.isPresent()) {
                return found.getAsLong();
            }
        }
        return 0;
    }

    /** The top-level {@code version} of a {@code placement-tables} value (its third field), or 0 when it has none. */
    static long version(byte[] value) {
        try (JsonParser parser = JSON.createParser(value)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return 0;
            }
            for (JsonToken t = parser.nextToken(); t == JsonToken.FIELD_NAME; t = parser.nextToken()) {
                String name = parser.currentName();
                JsonToken v = parser.nextToken();
                if (name.equals("version") && v == JsonToken.VALUE_NUMBER_INT) {
                    return Math.max(0, parser.getLongValue());
                }
                parser.skipChildren();
            }
            return 0;
        } catch (IOException e) {
            return 0; // not a table record: the controller writes none such; it does not move the floor
        }
    }

    private static Duration remaining(long deadline) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new TimeoutException("reading the newest table version took over " + TIMEOUT.toSeconds() + " s");
        }
        return Duration.ofNanos(left);
    }
}
