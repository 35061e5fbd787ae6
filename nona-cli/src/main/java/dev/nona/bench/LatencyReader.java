package dev.nona.bench;

import dev.nona.topics.Topics;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteBufferDeserializer;

/**
 * The latency benchmark's consumer, on its own thread ({@link TopicReader}): reads {@code placement-decisions} with
 * {@code isolation.level=read_committed}, as downstream executors must, and notes the receipt time
 * ({@link System#nanoTime()}) of each measured request's decision in the {@link LatencyRecorder}. Measured requests
 * have ids {@code m-<i>}; decisions for ready checks ({@code ready-...}) note their model; others (warm-up) are
 * read and ignored. A second reader, on a thread of its own, reads {@code inference-requests}, noting when each
 * measured request itself became readable: the latency of Kafka alone on this machine at this moment, the floor
 * under the controller's. Two readers, so that a malformed burst's large values on {@code inference-requests}
 * ({@code --bad-input-rate}) never sit in the decisions' fetches or ahead of them in one poll loop: the benchmark
 * would measure its own reader. Without a recorder for it ({@code requestsRead} null: {@code --no-request-read-back})
 * the second reader is not started.
 */
final class LatencyReader implements AutoCloseable {
    static final String MEASURED = "m-";
    static final String READY = "ready-";

    private static final byte[] MEASURED_BYTES = MEASURED.getBytes(StandardCharsets.UTF_8);

    private final LatencyRecorder recorder;
    private final LatencyRecorder requestsRead;
    private final JsonSerde<PlacementDecision> decisions = JsonSerde.forTopic(Topics.PLACEMENT_DECISIONS);
    private final Set<String> tableDecisionModels = ConcurrentHashMap.newKeySet();
    /** Values as views of the fetched bytes: a measured decision's ~1.5-3 kB are received, not copied. */
    private final List<TopicReader<ByteBuffer>> readers;

    LatencyReader(String bootstrap, LatencyRecorder recorder, LatencyRecorder requestsRead) {
        this.recorder = recorder;
        this.requestsRead = requestsRead;
        TopicReader<ByteBuffer> decisionsReader = new TopicReader<>(bootstrap, "nona-latency-reader",
                List.of(Topics.PLACEMENT_DECISIONS.name()), new ByteBufferDeserializer(), this::note);
        this.readers = requestsRead == null ? List.of(decisionsReader) : List.of(decisionsReader,
                new TopicReader<>(bootstrap, "nona-latency-request-reader",
                        List.of(Topics.INFERENCE_REQUESTS.name()), new ByteBufferDeserializer(), this::note));
    }

    LatencyReader start() {
        readers.forEach(TopicReader::start);
        return this;
    }

    /** The models for which a ready check was decided from a solved table (not the fallback before the first). */
    Set<String> tableDecisionModels() {
        return tableDecisionModels;
    }

    /** Throws what stopped the reader, if anything did. */
    void check() {
        readers.forEach(TopicReader::check);
    }

    private void note(ConsumerRecord<byte[], ByteBuffer> r, long now) {
        byte[] key = r.key() == null ? new byte[0] : r.key();
        boolean decision = r.topic().equals(Topics.PLACEMENT_DECISIONS.name());
        int i = measuredIndex(key);
        if (i >= 0) {
            LatencyRecorder to = decision ? recorder : requestsRead;
            if (i < to.size()) {
                to.received(i, now);
            }
            return;
        }
        String id = new String(key, StandardCharsets.UTF_8);
        if (decision && id.startsWith(READY)) {
            ByteBuffer value = r.value();
            byte[] bytes = new byte[value.remaining()];
            value.duplicate().get(bytes);
            Parsed<PlacementDecision> d = decisions.parse(bytes);
            if (!d.ok()) {
                throw new IllegalStateException("unreadable decision for " + id + ": " + d.reason());
            }
            if (d.value().tableVersion() > 0 && !d.value().fallback()) {
                tableDecisionModels.add(d.value().model());
            }
        }
    }

    /** {@code i} of a key {@code m-<i>}, else -1. */
    static int measuredIndex(byte[] key) {
        if (key.length <= MEASURED_BYTES.length || key.length > MEASURED_BYTES.length + 9) {
            return -1;
        }
        for (int k = 0; k < MEASURED_BYTES.length; k++) {
            if (key[k] != MEASURED_BYTES[k]) {
                return -1;
            }
        }
        int i = 0;
        for (int k = MEASURED_BYTES.length; k < key.length; k++) {
            int digit = key[k] - '0';
            if (digit < 0 || digit > 9) {
                return -1;
            }
            i = i * 10 + digit;
        }
        return i;
    }

    @Override
    public void close() {
        readers.forEach(TopicReader::close);
    }
}
