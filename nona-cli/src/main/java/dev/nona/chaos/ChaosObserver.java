package dev.nona.chaos;

import dev.nona.bench.TopicReader;
import dev.nona.topics.Topics;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementTableRecord;
import dev.nona.topics.record.TopicRecord;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Reads the controller's outputs as they are written ({@code placement-decisions}, {@code controller-events},
 * {@code dead-letters}, {@code placement-tables}, read_committed, from their ends at {@link #start()}: only this
 * run's) on its own thread ({@link TopicReader}), and hands each record to the {@link InvariantChecker}. It rides out
 * a broker outage (the consumer reconnects). An unreadable record of the controller's is a failure of the run.
 */
final class ChaosObserver implements AutoCloseable {
    private final InvariantChecker checker;
    private final JsonSerde<PlacementDecision> decisions = JsonSerde.forTopic(Topics.PLACEMENT_DECISIONS);
    private final JsonSerde<ControllerEvent> events = JsonSerde.forTopic(Topics.CONTROLLER_EVENTS);
    private final JsonSerde<DeadLetter> deadLetters = JsonSerde.forTopic(Topics.DEAD_LETTERS);
    private final JsonSerde<PlacementTableRecord> tables = JsonSerde.forTopic(Topics.PLACEMENT_TABLES);
    private final TopicReader<byte[]> reader;

    ChaosObserver(String bootstrap, InvariantChecker checker) {
        this.checker = checker;
        this.reader = TopicReader.ofBytes(bootstrap, "nona-chaos-observer", List.of(Topics.PLACEMENT_DECISIONS.name(),
                        Topics.CONTROLLER_EVENTS.name(), Topics.DEAD_LETTERS.name(), Topics.PLACEMENT_TABLES.name()),
                        (r, receivedNanos) -> note(r))
                .fromEnd()
                .with(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(Topics.TABLE_MAX_BYTES));
    }

    ChaosObserver start() {
        reader.start();
        return this;
    }

    /** Throws what stopped the reading, if anything did. */
    void check() {
        reader.check();
    }

    private void note(ConsumerRecord<byte[], byte[]> r) {
        String topic = r.topic();
        if (topic.equals(Topics.PLACEMENT_DECISIONS.name())) {
            checker.decision(parse(decisions, r), r.timestamp());
        } else if (topic.equals(Topics.DEAD_LETTERS.name())) {
            checker.deadLetter(parse(deadLetters, r));
        } else if (topic.equals(Topics.PLACEMENT_TABLES.name())) {
            if (r.value() != null) {
                checker.table(parse(tables, r));
            }
        } else {
            checker.event(parse(events, r));
        }
    }

    private static <T extends TopicRecord> T parse(JsonSerde<T> serde, ConsumerRecord<byte[], byte[]> r) {
        Parsed<T> p = serde.parse(r.value());
        if (!p.ok()) {
            throw new IllegalStateException("unreadable record of " + r.topic() + " at offset " + r.offset() + ": "
                    + p.reason());
        }
        return p.value();
    }

    @Override
    public void close() {
        reader.close();
    }
}
