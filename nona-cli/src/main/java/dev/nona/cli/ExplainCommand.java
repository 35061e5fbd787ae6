package dev.nona.cli;

import dev.nona.check.Checks;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nona.topics.TopicSpec;
import dev.nona.topics.Topics;
import dev.nona.topics.admin.KafkaClientConfig;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.PlacementOutcome;
import dev.nona.topics.record.TopicRecord;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Utils;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nona explain --bootstrap H:P --request ID}: the decision for one request, its explanation and, where one
 * exists on {@code placement-outcomes}, its outcome, as JSON. Both topics are keyed by request id and written with
 * Kafka's default partitioner, so only the key's partition is read ({@code murmur2(key) mod partitions}, as
 * {@code BuiltInPartitioner.partitionForKey}), from its start to its end offset at the time of the call,
 * {@code read_committed}. The first decision (and outcome) per request id wins (docs/topics.md); how many there were
 * is printed too. A request with no decision is an error that says why: the reason of its dead letter on
 * {@code dead-letters} (matched by the request's partition and offset on {@code inference-requests}), or that it is
 * there with neither a decision nor a dead letter yet, or that no record there has its id as key.
 */
@Command(name = "explain", mixinStandardHelpOptions = true,
        description = "Print one request's decision, its explanation and its outcome (if any) as JSON.")
final class ExplainCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    CommandSpec spec;

    @Option(names = "--bootstrap", paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers (overrides bootstrap.servers from --config)")
    String bootstrap;

    @Option(names = "--config", paramLabel = "FILE",
            description = "Kafka client properties passed to the consumer as-is (security.protocol, sasl.*, ssl.*, ...)")
    Path config;

    @Option(names = "--request", required = true, paramLabel = "ID", description = "the request id (the topics' key)")
    String requestId;

    @Option(names = "--decisions-topic", paramLabel = "TOPIC", description = "default: ${DEFAULT-VALUE}",
            defaultValue = "placement-decisions")
    String decisionsTopic;

    @Option(names = "--outcomes-topic", paramLabel = "TOPIC", description = "default: ${DEFAULT-VALUE}",
            defaultValue = "placement-outcomes")
    String outcomesTopic;

    @Option(names = "--requests-topic", paramLabel = "TOPIC", description = "default: ${DEFAULT-VALUE}",
            defaultValue = "inference-requests")
    String requestsTopic;

    @Option(names = "--dead-letters-topic", paramLabel = "TOPIC", description = "default: ${DEFAULT-VALUE}",
            defaultValue = "dead-letters")
    String deadLettersTopic;

    @Option(names = "--timeout-seconds", paramLabel = "S", defaultValue = "30",
            description = "how long to wait for the cluster and to read a partition (default: ${DEFAULT-VALUE})")
    int timeoutSeconds;

    @Override
    public Integer call() throws Exception {
        if (requestId.isBlank()) {
            throw new IllegalArgumentException("request ('" + requestId + "') must not be blank");
        }
        Checks.atLeastOne(timeoutSeconds, "--timeout-seconds");
        Properties props = KafkaClientConfig.load(config, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(timeoutSeconds * 1000L));
        Duration timeout = Duration.ofSeconds(timeoutSeconds);
        byte[] key = requestId.getBytes(StandardCharsets.UTF_8);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            Found decision = find(consumer, decisionsTopic, Topics.PLACEMENT_DECISIONS, key, timeout, true);
            if (decision.first == null) {
                throw new IllegalStateException("no decision for request '" + requestId + "' on " + decisionsTopic
                        + " (partition " + decision.partition + ", " + decision.scanned + " records read)"
                        + whyUndecided(consumer, key, timeout));
            }
            Found outcome = find(consumer, outcomesTopic, Topics.PLACEMENT_OUTCOMES, key, timeout, false);
            spec.commandLine().getOut().println(JSON.writeValueAsString(report(decision, outcome)));
        }
        return 0;
    }

    private ObjectNode report(Found decision, Found outcome) {
        PlacementDecision d = (PlacementDecision) decision.first;
        ObjectNode out = JSON.createObjectNode();
        out.put("requestId", requestId);
        out.set("decision", decision.json);
        out.set("explanation", decision.json.get("explanation") == null
                ? JSON.nullNode() : decision.json.get("explanation"));
        out.set("outcome", outcome.json == null ? JSON.nullNode() : outcome.json);
        if (outcome.first != null && d.predictedJctSeconds() > 0) {
            out.put("observedToPredictedJct",
                    ((PlacementOutcome) outcome.first).observedJctSeconds() / d.predictedJctSeconds());
        }
        out.put("decisions", decision.count);
        out.put("outcomes", outcome.count);
        ObjectNode where = out.putObject("source");
        where.put("decisionsTopic", decisionsTopic);
        where.put("decisionsPartition", decision.partition);
        where.put("decisionOffset", decision.offset);
        where.put("outcomesTopic", outcomesTopic);
        where.put("outcomesPartition", outcome.partition);
        if (outcome.first != null) {
            where.put("outcomeOffset", outcome.offset);
        }
        return out;
    }

    /**
     * The first valid record of {@code key} in its partition of {@code topic}, and how many there were; a missing
     * topic is an error when {@code required}, else nothing found (partition -1).
     */
    private static <T extends TopicRecord> Found find(KafkaConsumer<byte[], byte[]> consumer, String topic,
            TopicSpec<T> spec, byte[] key, Duration timeout, boolean required) throws Exception {
        List<PartitionInfo> partitions = consumer.partitionsFor(topic, timeout);
        if (partitions == null || partitions.isEmpty()) {
            if (required) {
                throw new IllegalStateException("topic '" + topic + "' does not exist");
            }
            return new Found(-1);
        }
        TopicPartition tp = new TopicPartition(topic, partitionForKey(key, partitions.size()));
        JsonSerde<T> serde = JsonSerde.forTopic(spec);
        Found found = new Found(tp.partition());
        read(consumer, List.of(tp), timeout, r -> {
            found.scanned++;
            if (r.key() == null || !Arrays.equals(r.key(), key) || r.value() == null) {
                return;
            }
            Parsed<T> parsed = serde.parse(r.value());
            if (!parsed.ok()) {
                return; // not this tool's to judge: the controller dead-letters it
            }
            found.count++;
            if (found.first == null) {
                found.first = parsed.value();
                try {
                    found.json = JSON.readTree(r.value());
                } catch (IOException e) { // parsed above: cannot happen
                    throw new UncheckedIOException(e);
                }
                found.offset = r.offset();
            }
        });
        return found;
    }

    /**
     * What became of an undecided request, as the end of the error's line: its dead letter's reason (the controller
     * writes one for each request it cannot place, naming the request's partition and offset), or that it is on
     * the requests topic with no decision or dead letter yet, or that no record there has its id as key.
     */
    private String whyUndecided(KafkaConsumer<byte[], byte[]> consumer, byte[] key, Duration timeout) throws Exception {
        List<PartitionInfo> partitions = consumer.partitionsFor(requestsTopic, timeout);
        if (partitions == null || partitions.isEmpty()) {
            return "; topic '" + requestsTopic + "' does not exist";
        }
        TopicPartition tp = new TopicPartition(requestsTopic, partitionForKey(key, partitions.size()));
        Set<Long> offsets = new TreeSet<>();
        read(consumer, List.of(tp), timeout, r -> {
            if (r.key() != null && Arrays.equals(r.key(), key)) {
                offsets.add(r.offset());
            }
        });
        if (offsets.isEmpty()) {
            return ", and no record on " + tp + " has it as key (requests are keyed by their id)";
        }
        DeadLetter dead = deadLetterOf(consumer, tp, offsets, timeout);
        if (dead != null) {
            return ": it was dead-lettered at " + Instant.ofEpochMilli(dead.time()) + ": " + dead.reason() + " ("
                    + tp + " offset " + dead.offset() + ")";
        }
        return "; the request is on " + tp + " (offset " + offsets.iterator().next() + ") with no dead letter on "
                + deadLettersTopic + " either: is the controller running, and has it caught up?";
    }

    /** The first dead letter on {@link #deadLettersTopic} of a record of {@code source} at one of {@code offsets}. */
    private DeadLetter deadLetterOf(KafkaConsumer<byte[], byte[]> consumer, TopicPartition source, Set<Long> offsets,
            Duration timeout) throws Exception {
        List<PartitionInfo> partitions = consumer.partitionsFor(deadLettersTopic, timeout);
        if (partitions == null || partitions.isEmpty()) {
            return null;
        }
        JsonSerde<DeadLetter> serde = JsonSerde.forTopic(Topics.DEAD_LETTERS);
        DeadLetter[] first = new DeadLetter[1];
        read(consumer, partitions.stream().map(p -> new TopicPartition(p.topic(), p.partition())).toList(), timeout, r -> {
            if (first[0] != null || r.value() == null) {
                return;
            }
            Parsed<DeadLetter> parsed = serde.parse(r.value());
            if (parsed.ok() && parsed.value().sourceTopic().equals(source.topic())
                    && parsed.value().partition() == source.partition() && offsets.contains(parsed.value().offset())) {
                first[0] = parsed.value();
            }
        });
        return first[0];
    }

    /** Every record of {@code partitions} from the start to the end offset at the call, to {@code each}. */
    private static void read(KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> partitions, Duration timeout,
            Consumer<ConsumerRecord<byte[], byte[]>> each) {
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (partitions.stream().anyMatch(tp -> consumer.position(tp, timeout) < end.get(tp))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("reading " + partitions + " took longer than " + timeout.toSeconds()
                        + " s (at offsets " + partitions.stream().map(consumer::position).toList() + " of "
                        + partitions.stream().map(end::get).toList() + ")");
            }
            consumer.poll(Duration.ofMillis(200)).forEach(each);
        }
    }

    /** Kafka's default partitioner for a keyed record: {@code toPositive(murmur2(key)) % partitions}. */
    static int partitionForKey(byte[] key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key)) % partitions;
    }

    private static final class Found {
        final int partition;
        TopicRecord first;
        JsonNode json;
        long offset = -1;
        int count;
        long scanned;

        Found(int partition) {
            this.partition = partition;
        }
    }
}
