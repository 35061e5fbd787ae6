package dev.nona.demo;

import dev.nona.topics.Topics;
import dev.nona.topics.client.ClientProperties;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.OutcomeStatus;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads what the controller writes, as a downstream consumer would ({@code isolation.level=read_committed}):
 * decisions (counting distinct request ids and duplicates), controller events (tables published, drift,
 * infeasible load, link load), dead letters (distinct by source topic, partition and offset), tables, and the
 * executor twin's outcomes (observed JCTs).
 * Runs on its own thread until {@link #close()}; the getters are safe from any thread.
 */
final class DemoWatcher implements Runnable, AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final JsonSerde<PlacementDecision> decisionSerde = JsonSerde.forTopic(Topics.PLACEMENT_DECISIONS);
    private final JsonSerde<ControllerEvent> eventSerde = JsonSerde.forTopic(Topics.CONTROLLER_EVENTS);
    private final JsonSerde<DeadLetter> deadLetterSerde = JsonSerde.forTopic(Topics.DEAD_LETTERS);
    private final JsonSerde<PlacementOutcome> outcomeSerde = JsonSerde.forTopic(Topics.PLACEMENT_OUTCOMES);
    private final JsonSerde<PlacementTableRecord> tableSerde = JsonSerde.forTopic(Topics.PLACEMENT_TABLES);
    private final Thread thread = new Thread(this, "nona-demo-watcher");

    final Set<String> decidedIds = ConcurrentHashMap.newKeySet();
    final AtomicLong decisions = new AtomicLong();
    final AtomicLong duplicates = new AtomicLong();
    final AtomicLong fallbackDecisions = new AtomicLong();
    final Set<String> deadLetterPositions = ConcurrentHashMap.newKeySet();
    final Map<String, AtomicLong> deadLetterReasons = new ConcurrentHashMap<>();
    final Map<ControllerEventType, AtomicLong> events = new ConcurrentHashMap<>();
    final AtomicLong tableRecords = new AtomicLong();
    final AtomicLong maxTableVersion = new AtomicLong();
    final AtomicReference<Double> linkLoad = new AtomicReference<>(Double.NaN);
    final AtomicLong unreadable = new AtomicLong();
    /** Models whose warm-up request was decided: the placement operator knows them and the servers. */
    final Set<String> warmupDecidedModels = ConcurrentHashMap.newKeySet();
    final AtomicLong warmupDeadLetters = new AtomicLong();
    /** Outcomes read (warm-ups excluded), the request ids they name, and the ok ones' completion times and JCTs. */
    final AtomicLong outcomes = new AtomicLong();
    final AtomicLong timeoutOutcomes = new AtomicLong();
    /** Request ids of the timeout outcomes, and the servers each decided request's (first) decision named. */
    final Set<String> timeoutIds = ConcurrentHashMap.newKeySet();
    final Map<String, Set<String>> decidedServers = new ConcurrentHashMap<>();
    final Set<String> outcomeIds = ConcurrentHashMap.newKeySet();
    final ObservedJcts observed = new ObservedJcts();
    /** The control loop's decisions about tables and the CALIBRATION events' figures, in the order read. */
    final ControlTimeline timeline = new ControlTimeline();
    /** The tables read from {@code placement-tables}, and the decided requests (first decision) per table version. */
    final PublishedTables tables = new PublishedTables();
    private final Map<Long, AtomicLong> decisionsPerVersion = new ConcurrentHashMap<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    DemoWatcher(String bootstrap) {
        Properties p = ClientProperties.readCommittedConsumer(bootstrap, "nona-demo-watcher-" + UUID.randomUUID());
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(16 << 20));
        this.consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        thread.setDaemon(true);
    }

    DemoWatcher start() {
        thread.start();
        return this;
    }

    @Override
    public void run() {
        try {
            consumer.subscribe(List.of(Topics.PLACEMENT_DECISIONS.name(), Topics.CONTROLLER_EVENTS.name(),
                    Topics.DEAD_LETTERS.name(), Topics.PLACEMENT_TABLES.name(), Topics.PLACEMENT_OUTCOMES.name()));
            while (!Thread.currentThread().isInterrupted()) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    accept(r);
                }
            }
        } catch (WakeupException closing) {
            // close() was called
        } catch (Throwable t) {
            failure.set(t);
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private void accept(ConsumerRecord<byte[], byte[]> r) {
        String topic = r.topic();
        if (topic.equals(Topics.PLACEMENT_DECISIONS.name())) {
            Parsed<PlacementDecision> d = decisionSerde.parse(r.value());
            if (!d.ok()) {
                unreadable.incrementAndGet();
                return;
            }
            if (d.value().requestId().startsWith(DemoPublisher.WARMUP_PREFIX)) {
                warmupDecidedModels.add(d.value().model());
                return;
            }
            decisions.incrementAndGet();
            if (!decidedIds.add(d.value().requestId())) {
                duplicates.incrementAndGet();
            } else {
                decisionsPerVersion.computeIfAbsent(d.value().tableVersion(), v -> new AtomicLong()).incrementAndGet();
                d.value().placedStages().forEach(st -> observed.stage(st.server(), d.value().eventTime()));
                decidedServers.put(d.value().requestId(), d.value().placedStages().stream().map(st -> st.server())
                        .collect(Collectors.toUnmodifiableSet()));
            }
            if (d.value().fallback()) {
                fallbackDecisions.incrementAndGet();
            }
            // the table's tau_j, as the controller's calibration compares (the request's own figure adds its wait)
            observed.predicted(d.value().requestId(), d.value().tableJctSeconds());
            maxTableVersion.accumulateAndGet(d.value().tableVersion(), Math::max);
        } else if (topic.equals(Topics.CONTROLLER_EVENTS.name())) {
            Parsed<ControllerEvent> e = eventSerde.parse(r.value());
            if (!e.ok()) {
                unreadable.incrementAndGet();
                return;
            }
            events.computeIfAbsent(e.value().type(), t -> new AtomicLong()).incrementAndGet();
            timeline.accept(e.value());
            Object load = e.value().details().get("linkLoad");
            if (e.value().type() == ControllerEventType.TABLE_PUBLISHED && load instanceof Number n) {
                linkLoad.set(n.doubleValue());
            }
            Object version = e.value().details().get("tableVersion");
            if (e.value().type() == ControllerEventType.TABLE_PUBLISHED && version instanceof Number v) {
                maxTableVersion.accumulateAndGet(v.longValue(), Math::max);
            }
        } else if (topic.equals(Topics.DEAD_LETTERS.name())) {
            Parsed<DeadLetter> d = deadLetterSerde.parse(r.value());
            if (!d.ok()) {
                unreadable.incrementAndGet();
                return;
            }
            DeadLetter dl = d.value();
            if (isWarmup(dl)) {
                warmupDeadLetters.incrementAndGet();
                return;
            }
            if (deadLetterPositions.add(dl.sourceTopic() + "/" + dl.partition() + "/" + dl.offset())) {
                deadLetterReasons.computeIfAbsent(shortReason(dl.reason()), k -> new AtomicLong()).incrementAndGet();
            }
        } else if (topic.equals(Topics.PLACEMENT_OUTCOMES.name())) {
            acceptOutcome(r);
        } else {
            Parsed<PlacementTableRecord> t = tableSerde.parse(r.value());
            if (t.ok()) {
                tables.accept(t.value());
            } else {
                unreadable.incrementAndGet();
            }
            tableRecords.incrementAndGet();
        }
    }

    /** The decided requests (first decision each) per table version. */
    Map<Long, Long> decisionsPerTableVersion() {
        Map<Long, Long> out = new TreeMap<>();
        decisionsPerVersion.forEach((v, n) -> out.put(v, n.get()));
        return out;
    }

    private void acceptOutcome(ConsumerRecord<byte[], byte[]> r) {
        Parsed<PlacementOutcome> o = outcomeSerde.parse(r.value());
        if (!o.ok()) {
            unreadable.incrementAndGet();
            return;
        }
        PlacementOutcome outcome = o.value();
        if (outcome.requestId().startsWith(DemoPublisher.WARMUP_PREFIX)) {
            return;
        }
        outcomes.incrementAndGet();
        outcomeIds.add(outcome.requestId());
        observed.arrived(outcome.requestId(), outcome.model(),
                outcome.completedAt() - Math.round(outcome.observedJctSeconds() * 1000));
        if (outcome.status() == OutcomeStatus.OK) {
            observed.add(outcome.requestId(), outcome.model(), outcome.tableVersion(),
                    (int) outcome.parts().stream().filter(p -> p.cold()).count(), outcome.completedAt(),
                    outcome.observedJctSeconds());
            outcome.parts().forEach(part -> observed.part(part.server(), outcome.completedAt()));
        } else if (outcome.status() == OutcomeStatus.TIMEOUT) {
            timeoutOutcomes.incrementAndGet();
            timeoutIds.add(outcome.requestId());
        }
    }

    private static boolean isWarmup(DeadLetter dl) {
        if (dl.rawBase64() == null) {
            return false;
        }
        String raw = new String(dl.raw(), StandardCharsets.UTF_8);
        return raw.contains("\"id\":\"" + DemoPublisher.WARMUP_PREFIX);
    }

    /** Per server, the timeout outcomes whose decision put a stage on it (a request may count for several). */
    Map<String, Long> timeoutsByServer() {
        Map<String, Long> out = new TreeMap<>();
        for (String id : timeoutIds) {
            decidedServers.getOrDefault(id, Set.of()).forEach(server -> out.merge(server, 1L, Long::sum));
        }
        return out;
    }

    long events(ControllerEventType type) {
        AtomicLong n = events.get(type);
        return n == null ? 0 : n.get();
    }

    Map<String, Long> deadLetterReasons() {
        Map<String, Long> out = new TreeMap<>();
        deadLetterReasons.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    /** A failure of the consumer thread, rethrown. */
    void check() {
        if (failure.get() != null) {
            throw new IllegalStateException("reading the controller's output failed: " + failure.get().getMessage(),
                    failure.get());
        }
    }

    private static String shortReason(String reason) {
        String one = reason.replace('\n', ' ');
        return one.length() > 120 ? one.substring(0, 117) + "..." : one;
    }

    @Override
    public void close() throws InterruptedException {
        consumer.wakeup();
        thread.join(10_000);
    }
}
