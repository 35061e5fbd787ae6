package dev.nona.topics.client;

import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The settings every producer and reader of Nona's topics outside the controller shares: producers that lose and
 * double nothing ({@code acks=all}, idempotent), and readers that see what downstream consumers see
 * ({@code isolation.level=read_committed}) from the start of each topic, committing no offsets; and every client's
 * TCP receive buffer large enough for a busy topic ({@link #SOCKET_BUFFERS}). Callers add what is particular to them
 * (client id, request size, timeouts, transactions).
 */
public final class ClientProperties {
    /**
     * {@code receive.buffer.bytes} = 1 MB instead of Kafka's 64 kB. Why: a consumer of a busy topic with a 64 kB
     * receive buffer, on a path with large segments (loopback's MTU is 65,536 bytes), overflows its receive queue:
     * the kernel drops the segment, and the sender resends it only after its retransmission timeout, at least 200 ms
     * on Linux. Measured on this project's broker at 20,000 decisions/s (~50 MB/s, bench latency's reader, broker and
     * an echo without Flink): 409 segments dropped in 20 s ({@code TcpExtTCPRcvQDrop}), 660 retransmitted; the reader
     * stalled about 220 ms (or twice that) in most seconds, p99 335 ms. With 1 MB, the controller's p99 at 20,000/s
     * is 20-26 ms (bench latency). -1 (the kernel's autotuning, for the send buffer too) removed the stalls as well,
     * but made 1,000/s slower (p99 14.7-24.4 ms in four runs, against 13.7-16.5 with Kafka's defaults and 10.9-14.4
     * with 1 MB, alternated; docs/benchmarks.md, "Kafka's socket buffers"). The controller's own clients get the same;
     * the user's {@code kafka.*} settings win.
     */
    public static final Map<String, String> SOCKET_BUFFERS = Map.of(
            CommonClientConfigs.RECEIVE_BUFFER_CONFIG, String.valueOf(1 << 20));

    private ClientProperties() {
    }

    /**
     * @param bootstrap {@code HOST:PORT[,HOST:PORT...]}
     * @param lingerMs  how long a send may wait to fill a batch ({@code linger.ms}); 0 sends at once
     * @return {@code acks=all}, idempotent producer properties, with {@link #SOCKET_BUFFERS}
     */
    public static Properties producer(String bootstrap, int lingerMs) {
        Properties p = new Properties();
        p.putAll(SOCKET_BUFFERS);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.LINGER_MS_CONFIG, String.valueOf(lingerMs));
        return p;
    }

    /**
     * Makes producer properties {@code p} keep records through an outage of every broker, to send them when a broker
     * is back, as a client that goes on making records does (librdkafka's producers do by default): sets
     * {@code metadata.recovery.strategy=none}. Why: with kafka-clients 4's default, {@code rebootstrap}, a producer
     * that can reach none of the brokers it knows goes back to its bootstrap servers and forgets the topics'
     * metadata, and every send then blocks waiting for it (up to {@code max.block.ms}, then fails). Measured against
     * the project's one-broker cluster: a producer at 1,000 records/s sent none in the 10 s after a {@code kill -9}
     * of the broker (its thread waiting in {@code KafkaProducer.waitOnMetadata}); with {@code none}, 1,000 a second
     * throughout, delivered when the broker was back. Records wait in {@code buffer.memory} (32 MB by default); a
     * full buffer blocks the send. Not for a client whose brokers may all be replaced by new ones at new addresses:
     * only rebootstrapping finds those.
     *
     * @return {@code p}
     */
    public static Properties bufferThroughOutages(Properties p) {
        p.put(CommonClientConfigs.METADATA_RECOVERY_STRATEGY_CONFIG, "none");
        return p;
    }

    /**
     * @param bootstrap {@code HOST:PORT[,HOST:PORT...]}
     * @param groupId   the consumer group (for {@code subscribe}), or null for a consumer that assigns partitions
     * @return {@code read_committed} consumer properties, from the earliest offset, without offset commits, with
     *         {@link #SOCKET_BUFFERS}
     */
    public static Properties readCommittedConsumer(String bootstrap, String groupId) {
        Properties p = new Properties();
        p.putAll(SOCKET_BUFFERS);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        if (groupId != null) {
            p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        }
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        return p;
    }
}
