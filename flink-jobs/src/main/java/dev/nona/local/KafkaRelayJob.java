package dev.nona.local;

import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.streaming.api.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.ParameterTool;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A deployment smoke test: relays {@code key/value} records from one topic to another through keyed state
 * with an exactly-once Kafka sink, appending to each value the per-key sequence number kept in Flink state
 * ({@code value#n}). After any failover, a reader with {@code read_committed} must see every input exactly
 * once and, per key, the numbers 1..n exactly once: a replayed record or a lost state update shows up.
 *
 * <p>It exercises what the controller job relies on (Kafka source and transactional sink, checkpoints,
 * restart from the last checkpoint) without the controller's logic, so that an operator can check a new
 * cluster with it: {@code flink run -c dev.nona.local.KafkaRelayJob flink-jobs-*-job.jar --bootstrap ...}.
 */
public final class KafkaRelayJob {

    private KafkaRelayJob() {}

    public static void main(String[] args) throws Exception {
        ParameterTool p = ParameterTool.fromArgs(args);
        String bootstrap = p.getRequired("bootstrap");
        String input = p.getRequired("input");
        String output = p.getRequired("output");
        long checkpointMs = p.getLong("checkpoint-interval-ms", 1000);

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.enableCheckpointing(checkpointMs, CheckpointingMode.EXACTLY_ONCE);

        KafkaSource<Tuple2<String, String>> source = KafkaSource.<Tuple2<String, String>>builder()
                .setBootstrapServers(bootstrap)
                .setTopics(input)
                .setGroupId(p.get("group", "nona-relay"))
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setProperty("isolation.level", "read_committed")
                .setDeserializer(new KeyValueDeserializer())
                .build();
        KafkaSink<Tuple2<String, String>> sink = KafkaSink.<Tuple2<String, String>>builder()
                .setBootstrapServers(bootstrap)
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(p.get("transactional-id-prefix", "nona-relay-" + output))
                .setProperty("transaction.timeout.ms", "120000")
                .setRecordSerializer(new KeyValueSerializer(output))
                .build();

        env.fromSource(source, WatermarkStrategy.noWatermarks(), "relay-input")
                .keyBy(kv -> kv.f0, Types.STRING)
                .process(new Sequencer())
                .name("sequence-per-key")
                .sinkTo(sink)
                .name("relay-output");
        env.execute("nona-kafka-relay " + input + " -> " + output);
    }

    /** Appends {@code #n}, n the per-key count kept in keyed state. */
    static final class Sequencer extends KeyedProcessFunction<String, Tuple2<String, String>, Tuple2<String, String>> {
        private transient ValueState<Long> count;

        @Override
        public void open(OpenContext ctx) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public void processElement(Tuple2<String, String> kv, Context ctx, Collector<Tuple2<String, String>> out)
                throws Exception {
            long n = count.value() == null ? 1 : count.value() + 1;
            count.update(n);
            out.collect(Tuple2.of(kv.f0, kv.f1 + "#" + n));
        }
    }

    /**
     * Key and value as UTF-8 strings. A named class, not builder lambdas: the sink's lineage reporting
     * cannot infer the types of lambda serialization schemas.
     */
    static final class KeyValueSerializer implements KafkaRecordSerializationSchema<Tuple2<String, String>> {
        private final String topic;

        KeyValueSerializer(String topic) {
            this.topic = topic;
        }

        @Override
        public ProducerRecord<byte[], byte[]> serialize(Tuple2<String, String> kv, KafkaSinkContext ctx, Long ts) {
            return new ProducerRecord<>(topic, kv.f0.getBytes(StandardCharsets.UTF_8),
                    kv.f1.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Key and value as UTF-8 strings; a record without a key is keyed by its partition. */
    static final class KeyValueDeserializer implements KafkaRecordDeserializationSchema<Tuple2<String, String>> {
        private final SimpleStringSchema strings = new SimpleStringSchema();

        @Override
        public void deserialize(ConsumerRecord<byte[], byte[]> r, Collector<Tuple2<String, String>> out) {
            String key = r.key() == null ? "p" + r.partition() : new String(r.key(), StandardCharsets.UTF_8);
            out.collect(Tuple2.of(key, r.value() == null ? "" : strings.deserialize(r.value())));
        }

        @Override
        public TypeInformation<Tuple2<String, String>> getProducedType() {
            return Types.TUPLE(Types.STRING, Types.STRING);
        }
    }
}
