package dev.nona.controller;

import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.ControllerEventType;
import dev.nona.topics.serde.JsonSerde;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point of the controller job on a Flink cluster: {@code ControllerMain --bootstrap HOST:PORT [--config FILE]}
 * (the same flags as {@code bin/nona run}).
 */
public final class ControllerMain {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerMain.class);

    private ControllerMain() {}

    public static void main(String[] args) throws Exception {
        String bootstrap = null;
        String file = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--bootstrap" -> bootstrap = value(args, ++i, "--bootstrap");
                case "--config" -> file = value(args, ++i, "--config");
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "' (expected --bootstrap, --config)");
            }
        }
        run(file == null ? ControllerConfig.fromMap(bootstrap == null ? Map.of() : Map.of("bootstrap.servers", bootstrap))
                : ControllerConfig.load(Path.of(file), bootstrap));
    }

    /** Builds and runs the controller until it is cancelled. */
    public static void run(ControllerConfig config) throws Exception {
        run(config, Map.of("resumed", false, "reason", "no state directory (checkpoints as configured)"));
    }

    /**
     * Reads the catalog, the operator's commands in force and the newest table before the job starts
     * ({@link StartupSnapshot}), says how it starts (a
     * {@code CONTROLLER_STARTED} event with {@code start}'s details: which checkpoint it resumed from, or why it
     * starts fresh) and runs the controller from them until it is cancelled.
     */
    public static void run(ControllerConfig config, Map<String, ?> start) throws Exception {
        StartupSnapshot snapshot;
        try {
            snapshot = StartupSnapshot.read(config);
        } catch (RuntimeException e) {
            // as before the snapshot existed: the job reads the catalog itself, and a request for a model it has not
            // read yet may become a dead letter
            LOG.warn("cannot read the catalog, the commands and the newest table before starting ({}): starting without them",
                    e.toString());
            snapshot = StartupSnapshot.empty("not read: " + e.getMessage());
        }
        var env = prepare(config, start, snapshot);
        env.execute("nona-controller " + config.controllerId());
    }

    /**
     * Says how the controller starts (the log, and the {@code CONTROLLER_STARTED} event with {@code start}'s details
     * and what {@code snapshot} holds) and builds its job from {@code snapshot}, ready to run.
     */
    static StreamExecutionEnvironment prepare(ControllerConfig config, Map<String, ?> start, StartupSnapshot snapshot) {
        LOG.info("Controller {} starts with {} catalog model(s) {}, {} operator command(s) in force {} and {}",
                config.controllerId(), snapshot.models().size(), snapshot.models().keySet(),
                snapshot.commands().byScope().size(), snapshot.commands().byScope().keySet(), snapshot.table() != null
                        ? "table v" + snapshot.table().version() + " from " + config.topics().tables()
                        : "no table yet" + (snapshot.tableSkipped().isEmpty() ? "" : " (" + snapshot.tableSkipped()
                                + "): decisions are local until the control loop's first table"));
        emit(config, ControllerEvent.of(ControllerEventType.CONTROLLER_STARTED, System.currentTimeMillis(),
                startedDetails(config, start, snapshot)));
        var env = ControllerEnvironment.create(config);
        ControllerJob.build(env, config, snapshot);
        return env;
    }

    /** The {@code CONTROLLER_STARTED} event's details: {@code start}'s, then what the start read. */
    static Map<String, Object> startedDetails(ControllerConfig config, Map<String, ?> start, StartupSnapshot snapshot) {
        Map<String, Object> details = new TreeMap<>(start);
        details.put("controllerId", config.controllerId());
        details.put("catalogModels", snapshot.models().size());
        details.put("commandsInForce", snapshot.commands().byScope().size());
        details.put("tableVersion", snapshot.table() == null ? 0L : snapshot.table().version());
        if (!snapshot.tableSkipped().isEmpty()) {
            details.put("tableSkipped", snapshot.tableSkipped());
        }
        return details;
    }

    /** Writes {@code event} to the events topic (waiting for the broker's acknowledgement). */
    private static void emit(ControllerConfig config, ControllerEvent event) {
        Properties props = KafkaIo.clientProperties(config);
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        JsonSerde<ControllerEvent> serde = new JsonSerde<>(ControllerEvent.class, JsonSerde.DEFAULT_MAX_RECORD_BYTES);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(config.topics().events(), serde.serialize(event))).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.warn("cannot write the {} event to {}: {}", event.type(), config.topics().events(), e.toString());
        }
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return args[i];
    }
}
