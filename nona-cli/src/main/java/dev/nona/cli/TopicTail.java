package dev.nona.cli;

import dev.nona.topics.client.ClientProperties;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the last records of a topic, up to the end it had when asked: a one-shot look for {@code nona status}
 * (no consumer group, nothing committed).
 */
final class TopicTail implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Duration timeout;

    TopicTail(Properties client, Duration timeout) {
        Properties p = new Properties();
        p.putAll(ClientProperties.SOCKET_BUFFERS);
        p.putAll(client);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.putIfAbsent(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(timeout.toMillis()));
        this.consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.timeout = timeout;
    }

    /**
     * The last {@code perPartition} records of each partition of {@code topic} (every record when it is
     * {@link Long#MAX_VALUE}), in offset order per partition; empty when the topic does not exist.
     */
    List<ConsumerRecord<byte[], byte[]>> last(String topic, long perPartition) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        if (infos == null || infos.isEmpty()) {
            return out;
        }
        List<TopicPartition> parts = infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
        consumer.assign(parts);
        Map<TopicPartition, Long> end = consumer.endOffsets(parts, timeout);
        Map<TopicPartition, Long> begin = consumer.beginningOffsets(parts, timeout);
        Map<TopicPartition, Long> remaining = new HashMap<>();
        for (TopicPartition tp : parts) {
            long from = Math.max(begin.get(tp), end.get(tp) - Math.min(perPartition, end.get(tp)));
            consumer.seek(tp, from);
            if (end.get(tp) > from) {
                remaining.put(tp, end.get(tp));
            }
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!remaining.isEmpty() && System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                Long stop = remaining.get(tp);
                if (stop != null && r.offset() < stop) {
                    out.add(r);
                }
            }
            remaining.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
        }
        if (!remaining.isEmpty()) {
            throw new IllegalStateException("reading topic '" + topic + "' did not finish within " + timeout.toSeconds()
                    + " s");
        }
        return out;
    }

    @Override
    public void close() {
        consumer.close();
    }
}
