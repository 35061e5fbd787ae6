package dev.nona.bench;

import dev.nona.check.Checks;
import dev.nona.local.LocalKafkaBroker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
 * The broker killed with SIGKILL ({@code kill -9}), down for a set time, and started again on the same data
 * directory and ports ({@link LocalKafkaBroker} runs as a child JVM). The fault ends when the broker <em>accepts
 * writes again</em>: when a probe record to {@link #PROBE_TOPIC} (a topic of its own, which no controller reads) is
 * acknowledged with {@code acks=all} by the restarted broker. The probe's producer is connected before the kill and
 * retries every {@link #PROBE_BACKOFF_MS} ms, so the end is not its own reconnect backoff. Not thread safe.
 */
public final class BrokerOutage implements Fault, AutoCloseable {
    /** The topic of the probe records (one partition, created if missing). */
    public static final String PROBE_TOPIC = "nona-bench-probe";
    /** The probe producer's reconnect and retry backoff. */
    static final int PROBE_BACKOFF_MS = 20;

    private final LocalKafkaBroker broker;
    private final Duration down;
    private final KafkaProducer<byte[], byte[]> probe;
    private int probes;

    /** @param down how long the broker stays down, {@code > 0} */
    public BrokerOutage(LocalKafkaBroker broker, Duration down) throws Exception {
        this.broker = Objects.requireNonNull(broker, "broker");
        Checks.positive(down.toMillis(), "down time (ms)");
        this.down = down;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            if (!admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(PROBE_TOPIC)) {
                admin.createTopics(List.of(new NewTopic(PROBE_TOPIC, Optional.of(1), Optional.of((short) 1))))
                        .all().get(30, TimeUnit.SECONDS);
            }
        }
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "nona-bench-probe");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        p.put(ProducerConfig.RECONNECT_BACKOFF_MS_CONFIG, String.valueOf(PROBE_BACKOFF_MS));
        p.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, String.valueOf(PROBE_BACKOFF_MS));
        p.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, String.valueOf(PROBE_BACKOFF_MS));
        p.put(ProducerConfig.RETRY_BACKOFF_MAX_MS_CONFIG, String.valueOf(PROBE_BACKOFF_MS));
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "300000");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "300000");
        this.probe = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        write(); // connected, with the topic's metadata, before any kill
    }

    @Override
    public String name() {
        return "broker-kill";
    }

    /** Kills the broker, waits the down time, starts it again and waits until it acknowledges a probe record. */
    @Override
    public Window inject() throws Exception {
        long start = System.nanoTime();
        long startMillis = System.currentTimeMillis();
        broker.kill();
        long sleep = down.toNanos() - (System.nanoTime() - start);
        if (sleep > 0) {
            TimeUnit.NANOSECONDS.sleep(sleep);
        }
        broker.start();
        write();
        return Window.endingNow(start, startMillis);
    }

    /** Writes one probe record and waits for its acknowledgement. */
    private void write() throws Exception {
        probe.send(new ProducerRecord<>(PROBE_TOPIC, ("probe-" + probes++).getBytes(StandardCharsets.UTF_8)))
                .get(5, TimeUnit.MINUTES);
    }

    @Override
    public void close() {
        probe.close(Duration.ofSeconds(5));
    }
}
