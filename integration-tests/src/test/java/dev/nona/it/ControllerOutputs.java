package dev.nona.it;

import dev.nona.topics.Topics;
import dev.nona.topics.client.ClientProperties;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.HashMap;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Reads the controller's outputs from a {@link ControllerTopics} with {@code read_committed}, as downstream
 * consumers do. Single-threaded: call {@link #pollUntil} from the test thread.
 */
final class ControllerOutputs implements AutoCloseable {

    private final ControllerTopics topics;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final JsonSerde<PlacementDecision> decisionSerde = JsonSerde.forTopic(Topics.PLACEMENT_DECISIONS);
    private final JsonSerde<ControllerEvent> eventSerde = JsonSerde.forTopic(Topics.CONTROLLER_EVENTS);
    private final JsonSerde<DeadLetter> deadLetterSerde = JsonSerde.forTopic(Topics.DEAD_LETTERS);

    /** Warm-up request ids start with this; they are not counted as decisions or dead letters. */
    static final String WARMUP = "warmup-";
    final Set<String> warmedUpModels = new HashSet<>();
    final Set<String> decided = new HashSet<>();
    final List<PlacementDecision> decisions = new ArrayList<>();
    /** The table version of every counted decision, by request id (the last one read, if duplicated). */
    final Map<String, Long> tableVersionOf = new HashMap<>();
    /** Request ids decided with the fallback table. */
    final Set<String> decidedByFallback = new HashSet<>();
    /**
     * The record timestamp of every counted decision, in the order read: when it was written if the decisions
     * topic keeps {@code message.timestamp.type=LogAppendTime}.
     */
    final List<Long> decisionTimestamps = new ArrayList<>();
    long duplicates;
    /** A server to watch (e.g. one drained by an operator command), or null. */
    String watchedServer;
    /** Counted requests with a stage on {@link #watchedServer}. */
    final Set<String> onWatchedServer = new HashSet<>();
    final List<ControllerEvent> events = new ArrayList<>();
    final List<DeadLetter> deadLetters = new ArrayList<>();
    long tableRecords;

    ControllerOutputs(String bootstrap, ControllerTopics topics, boolean keepDecisions) {
        this.topics = topics;
        this.keepDecisions = keepDecisions;
        Properties p = ClientProperties.readCommittedConsumer(bootstrap, "it-reader-" + UUID.randomUUID());
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(16 << 20));
        consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(topics.decisions(), topics.events(), topics.deadLetters(), topics.tables()));
    }

    private final boolean keepDecisions;

    /** Polls until {@code done} or the timeout; returns whether {@code done} became true. */
    boolean pollUntil(BooleanSupplier done, Duration timeout) {
        try {
            KafkaTestClients.awaitReading(timeout).until(() -> {
                if (done.getAsBoolean()) {
                    return true;
                }
                poll(Duration.ofMillis(200));
                return false;
            });
            return true;
        } catch (ConditionTimeoutException e) {
            return done.getAsBoolean();
        }
    }

    /** Polls for {@code duration} more (to see late duplicates). */
    void drain(Duration duration) {
        KafkaTestClients.keepReading(duration, () -> poll(Duration.ofMillis(200)));
    }

    /** The highest table version among the decisions read so far (0: only the bootstrap table). */
    long maxTableVersion;

    long events(ControllerEventType type) {
        return events.stream().filter(e -> e.type() == type).count();
    }

    private void poll(Duration timeout) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(timeout)) {
            if (r.topic().equals(topics.decisions())) {
                Parsed<PlacementDecision> d = decisionSerde.parse(r.value());
                if (d.value().requestId().startsWith(WARMUP)) {
                    warmedUpModels.add(d.value().model());
                    continue;
                }
                if (!decided.add(d.value().requestId())) {
                    duplicates++;
                }
                tableVersionOf.put(d.value().requestId(), d.value().tableVersion());
                decisionTimestamps.add(r.timestamp());
                if (watchedServer != null
                        && d.value().placedStages().stream().anyMatch(st -> st.server().equals(watchedServer))) {
                    onWatchedServer.add(d.value().requestId());
                }
                if (d.value().fallback()) {
                    decidedByFallback.add(d.value().requestId());
                }
                maxTableVersion = Math.max(maxTableVersion, d.value().tableVersion());
                if (keepDecisions) {
                    decisions.add(d.value());
                }
            } else if (r.topic().equals(topics.events())) {
                events.add(eventSerde.parse(r.value()).value());
            } else if (r.topic().equals(topics.deadLetters())) {
                DeadLetter dl = deadLetterSerde.parse(r.value()).value();
                if (dl.raw() != null && new String(dl.raw(), StandardCharsets.UTF_8).contains("\"id\":\"" + WARMUP)) {
                    continue; // a warm-up request sent before the placement operator knew the catalog
                }
                deadLetters.add(dl);
            } else {
                tableRecords++;
            }
        }
    }

    @Override
    public void close() {
        consumer.close();
    }
}
