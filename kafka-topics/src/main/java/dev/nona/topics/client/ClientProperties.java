package dev.nona.topics.client;

import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The settings every producer and reader of Nona's topics outside the controller shares: producers that lose and
 * double nothing ({@code acks=all}, idempotent), and readers that see what downstream consumers see
 * ({@code isolation.level=read_committed}) from the start of each topic, committing no offsets. Callers add what is
 * particular to them (client id, request size, timeouts, transactions).
 */
public final class ClientProperties {
    private ClientProperties() {
    }

    /**
     * @param bootstrap {@code HOST:PORT[,HOST:PORT...]}
     * @param lingerMs  how long a send may wait to fill a batch ({@code linger.ms}); 0 sends at once
     * @return {@code acks=all}, idempotent producer properties
     */
    public static Properties producer(String bootstrap, int lingerMs) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.LINGER_MS_CONFIG, String.valueOf(lingerMs));
        return p;
    }

    /**
     * @param bootstrap {@code HOST:PORT[,HOST:PORT...]}
     * @param groupId   the consumer group (for {@code subscribe}), or null for a consumer that assigns partitions
     * @return {@code read_committed} consumer properties, from the earliest offset, without offset commits
     */
    public static Properties readCommittedConsumer(String bootstrap, String groupId) {
        Properties p = new Properties();
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
