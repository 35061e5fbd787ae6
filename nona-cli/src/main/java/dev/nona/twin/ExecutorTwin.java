package dev.nona.twin;

import dev.nona.topics.Topics;
import dev.nona.topics.client.ClientProperties;
import dev.nona.topics.client.RecordPublisher;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.serde.JsonSerde;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code bin/nona executor}: the executor twin on Kafka. One consumer reads {@code model-catalog} from its start
 * (it is compacted) and {@code placement-decisions} from its end as of the start (or from its start), with the
 * project's read_committed reader settings; one {@link RecordPublisher} (the project's idempotent {@code acks=all}
 * producer) writes {@code placement-outcomes} and {@code cluster-telemetry}. The loop: poll, advance the
 * {@link TwinExecutor} to the wall clock, hand it the catalog records, then the decisions (each arriving now),
 * publish what the tick returns. It polls no longer than until the cluster's next event, so outcomes go out within
 * a few milliseconds of their (simulated) completion; their times are the simulation's, not the publication's.
 */
public final class ExecutorTwin implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ExecutorTwin.class);
    private static final long MAX_POLL_MILLIS = 50;

    private final TwinOptions options;
    private final LongSupplier clock;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final RecordPublisher publisher;
    private final JsonSerde<PlacementOutcome> outcomeSerde = JsonSerde.forTopic(Topics.PLACEMENT_OUTCOMES);
    private final JsonSerde<ServerTelemetry> telemetrySerde = JsonSerde.forTopic(Topics.CLUSTER_TELEMETRY);
    private final boolean decisionsFromStart;
    private volatile boolean stopped;
    private volatile TwinExecutor executor;

    /**
     * @param decisionsFromStart read {@code placement-decisions} from its start rather than from its end when the
     *                           twin starts
     */
    public ExecutorTwin(String bootstrap, TwinOptions options, boolean decisionsFromStart, LongSupplier clock) {
        this.options = options;
        this.clock = clock;
        this.decisionsFromStart = decisionsFromStart;
        Properties c = ClientProperties.readCommittedConsumer(bootstrap, null);
        c.put(ConsumerConfig.CLIENT_ID_CONFIG, "nona-executor-twin");
        c.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(4 << 20));
        this.consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        Properties p = ClientProperties.producer(bootstrap, 1);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "nona-executor-twin");
        // servers run on while the broker is down: their outcomes and reports wait in the producer, not the twin
        ClientProperties.bufferThroughOutages(p);
        this.publisher = new RecordPublisher(p);
    }

    /**
     * Runs until {@link #stop()} or until {@code limit} has passed (null: no limit), then, reading no more
     * decisions, until every request it received has an outcome (at most the timeout). The twin's clock starts
     * when its consumer is positioned, just before its first telemetry.
     */
    public TwinExecutor.Summary run(Duration limit) {
        List<TopicPartition> catalog = partitions(Topics.MODEL_CATALOG.name());
        List<TopicPartition> decisions = partitions(Topics.PLACEMENT_DECISIONS.name());
        List<TopicPartition> all = new ArrayList<>(catalog);
        all.addAll(decisions);
        consumer.assign(all);
        consumer.seekToBeginning(catalog);
        if (decisionsFromStart) {
            consumer.seekToBeginning(decisions);
        } else {
            consumer.seekToEnd(decisions);
        }
        all.forEach(consumer::position); // resolve the positions now: decisions published from here on are read
        long origin = clock.getAsLong();
        TwinExecutor twin = new TwinExecutor(options, origin);
        executor = twin;
        long end = limit == null ? Long.MAX_VALUE : origin + limit.toMillis();
        LOG.info("executor twin: {} servers ({} .. {}), reading decisions from their {}", options.servers(),
                TwinOptions.serverId(0), TwinOptions.serverId(options.servers() - 1), decisionsFromStart ? "start" : "end");
        publish(twin.tick(origin));
        while (!stopped && clock.getAsLong() < end) {
            ConsumerRecords<byte[], byte[]> records;
            try {
                records = consumer.poll(Duration.ofMillis(waitMillis(twin)));
            } catch (WakeupException e) {
                break; // stop()
            }
            long now = clock.getAsLong();
            publish(twin.tick(now)); // what ended before these records arrived
            for (ConsumerRecord<byte[], byte[]> r : records) {
                if (r.topic().equals(Topics.MODEL_CATALOG.name())) {
                    twin.catalog(r.key(), r.value());
                }
            }
            for (ConsumerRecord<byte[], byte[]> r : records) {
                if (r.topic().equals(Topics.PLACEMENT_DECISIONS.name())) {
                    twin.decision(r.value(), now);
                }
            }
            publish(twin.tick(now));
        }
        drain(twin);
        publisher.flush();
        TwinExecutor.Summary summary = twin.summary();
        LOG.info("executor twin stopped: {}", summary);
        return summary;
    }

    /**
     * Reads no more decisions but runs the cluster on until every request received has ended (each does within
     * the timeout), so that none is left without an outcome.
     */
    private void drain(TwinExecutor twin) {
        long deadline = clock.getAsLong() + Math.round(options.timeoutSeconds() * 1000) + 1_000;
        while (twin.summary().inFlight() > 0 && clock.getAsLong() < deadline) {
            try {
                Thread.sleep(waitMillis(twin));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            publish(twin.tick(clock.getAsLong()));
        }
    }

    /** Until the twin's next event or telemetry is due: at least 1 ms, at most {@link #MAX_POLL_MILLIS}. */
    private long waitMillis(TwinExecutor twin) {
        return Math.max(1, Math.min(MAX_POLL_MILLIS, twin.nextDueMillis() - clock.getAsLong()));
    }

    private void publish(TwinExecutor.Tick tick) {
        tick.outcomes().forEach(this::publishOutcome);
        for (ServerTelemetry t : tick.telemetry()) {
            publisher.send(Topics.CLUSTER_TELEMETRY.name(), telemetrySerde.keyBytes(t), telemetrySerde.serialize(t));
        }
        publisher.rethrowFailure();
    }

    private void publishOutcome(PlacementOutcome o) {
        publisher.send(Topics.PLACEMENT_OUTCOMES.name(), outcomeSerde.keyBytes(o), outcomeSerde.serialize(o));
    }

    private List<TopicPartition> partitions(String topic) {
        List<TopicPartition> out = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(info -> new TopicPartition(topic, info.partition())).toList();
        if (out.isEmpty()) {
            throw new IllegalStateException("topic '" + topic + "' does not exist (run bin/nona topics create first)");
        }
        return out;
    }

    /** Ends {@link #run} after its current poll (any thread). */
    public void stop() {
        stopped = true;
        consumer.wakeup();
    }

    /** The counters so far (any thread); null before {@link #run} has started the twin. */
    public TwinExecutor.Summary summary() {
        TwinExecutor twin = executor;
        return twin == null ? null : twin.summary();
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
        publisher.close(Duration.ofSeconds(10));
    }
}
