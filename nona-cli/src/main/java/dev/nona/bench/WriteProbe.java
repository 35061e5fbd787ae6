package dev.nona.bench;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Tells when a broker <em>accepts writes</em>: {@link #write()} returns once a probe record to {@link #TOPIC} (a
 * topic of its own, one partition, which no controller reads) is acknowledged with {@code acks=all}. The producer is
 * connected (with the topic's metadata) at construction, while the broker runs, and retries every
 * {@link #BACKOFF_MS} ms, so that after a broker's restart the acknowledgement is not late by its own reconnect
 * backoff. The end of a broker outage for {@link BrokerOutage} and for the chaos run's {@code broker-kill}. Not
 * thread safe.
 */
public final class WriteProbe implements AutoCloseable {
    /** The topic of the probe records (one partition, created if missing). */
    public static final String TOPIC = "nona-bench-probe";
    /** The probe producer's reconnect and retry backoff. */
    static final int BACKOFF_MS = 20;

    private final KafkaProducer<byte[], byte[]> producer;
    private int probes;

    /** Creates the topic if missing and writes a first probe; the broker at {@code bootstrap} must be up. */
    public WriteProbe(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            if (!admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(TOPIC)) {
                admin.createTopics(List.of(new NewTopic(TOPIC, Optional.of(1), Optional.of((short) 1))))
                        .all().get(30, TimeUnit.SECONDS);
            }
        }
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "nona-bench-probe");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        p.put(ProducerConfig.RECONNECT_BACKOFF_MS_CONFIG, String.valueOf(BACKOFF_MS));
        p.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, String.valueOf(BACKOFF_MS));
        p.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, String.valueOf(BACKOFF_MS));
        p.put(ProducerConfig.RETRY_BACKOFF_MAX_MS_CONFIG, String.valueOf(BACKOFF_MS));
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "300000");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "300000");
        this.producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        write(); // connected, with the topic's metadata, before any kill
    }

    /** Writes one probe record and waits (at most 5 minutes) for its acknowledgement. */
    public void write() throws Exception {
        producer.send(new ProducerRecord<>(TOPIC, ("probe-" + probes++).getBytes(StandardCharsets.UTF_8)))
                .get(5, TimeUnit.MINUTES);
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
