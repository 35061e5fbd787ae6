package dev.nona.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.nona.topics.Topics;
import dev.nona.topics.admin.KafkaClientConfig;
import dev.nona.topics.client.ClientProperties;
import dev.nona.topics.client.RecordPublisher;
import dev.nona.topics.record.ControllerCommand;
import dev.nona.topics.record.InvalidRecordException;
import dev.nona.topics.serde.JsonSerde;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import org.apache.kafka.clients.producer.ProducerConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code nona command --bootstrap H:P <kind> ...}: publishes one operator command to {@code controller-commands}
 * (keyed by its scope) and prints it as JSON. The controller acknowledges it on {@code controller-events}
 * ({@code COMMAND_APPLIED}) or makes it a dead letter with the reason (docs/operations.md, "Operator commands").
 */
@Command(name = "command", mixinStandardHelpOptions = true,
        description = "Publish an operator command (pin, drain, undrain, rollback, freeze, unfreeze, tenant) to the "
                + "controller-commands topic and print it as JSON.",
        subcommands = {CommandCommand.Pin.class, CommandCommand.Drain.class, CommandCommand.Undrain.class,
                CommandCommand.Rollback.class, CommandCommand.Freeze.class, CommandCommand.Unfreeze.class,
                CommandCommand.Tenant.class})
final class CommandCommand implements Runnable {
    @Option(names = "--bootstrap", paramLabel = "HOST:PORT", scope = CommandLine.ScopeType.INHERIT,
            description = "Kafka bootstrap servers (overrides bootstrap.servers from --config)")
    String bootstrap;

    @Option(names = "--config", paramLabel = "FILE", scope = CommandLine.ScopeType.INHERIT,
            description = "Kafka client properties (security.protocol, sasl.*, ssl.*, ...)")
    Path config;

    @Option(names = "--topic", paramLabel = "NAME", defaultValue = "controller-commands", scope = CommandLine.ScopeType.INHERIT,
            description = "the commands topic (default: ${DEFAULT-VALUE}, the controller's topics.commands)")
    String topic;

    @Option(names = "--id", paramLabel = "ID", scope = CommandLine.ScopeType.INHERIT,
            description = "the command's id, named in its acknowledgement (default: a random UUID)")
    String id;

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    /** Publishes {@code c} and prints it; waits for the broker's acknowledgement. */
    int publish(CommandSpec spec, BiFunction<String, Long, ControllerCommand> build) throws Exception {
        if (topic.isBlank()) {
            throw new IllegalArgumentException("--topic ('" + topic + "') must not be blank");
        }
        ControllerCommand c;
        try {
            c = build.apply(id != null ? id : UUID.randomUUID().toString(), System.currentTimeMillis());
        } catch (InvalidRecordException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        Properties props = KafkaClientConfig.load(config, bootstrap);
        Properties producer = ClientProperties.producer(props.getProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG), 0);
        props.forEach(producer::putIfAbsent);
        producer.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
        producer.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000");
        JsonSerde<ControllerCommand> serde = JsonSerde.forTopic(Topics.CONTROLLER_COMMANDS);
        try (RecordPublisher out = new RecordPublisher(producer)) {
            out.send(topic, serde.keyBytes(c), serde.serialize(c));
            out.flush();
            out.close(Duration.ofSeconds(10));
        }
        Map<String, Object> printed = new LinkedHashMap<>();
        printed.put("topic", topic);
        printed.put("key", c.scope());
        printed.put("command", new ObjectMapper().readTree(new String(serde.serialize(c), StandardCharsets.UTF_8)));
        spec.commandLine().getOut().println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .writeValueAsString(printed));
        return 0;
    }

    /**
     * The servers of {@code --servers}, as given (comma-separated, blanks dropped), or none for {@code none}. A list
     * that names no server ({@code --servers ,}) is an error: read as none, it would unpin or remove a rule the user
     * meant to set.
     */
    static List<String> serversOrNone(List<String> given) {
        if (given.equals(List.of("none"))) {
            return List.of();
        }
        List<String> out = servers(given);
        if (out.isEmpty()) {
            throw new IllegalArgumentException("--servers ('" + String.join(",", given) + "') names no server; give "
                    + "--servers none to mean none");
        }
        return out;
    }

    static List<String> servers(List<String> given) {
        List<String> out = new ArrayList<>();
        for (String s : given) {
            for (String part : s.split(",", -1)) {
                if (!part.isBlank()) {
                    out.add(part.strip());
                }
            }
        }
        return out;
    }

    @Command(name = "pin", mixinStandardHelpOptions = true,
            description = "Keep a model's stages on a set of servers (--servers none: unpin).")
    static final class Pin implements Callable<Integer> {
        @Spec CommandSpec spec;
        @ParentCommand CommandCommand parent;
        @Option(names = "--model", required = true, paramLabel = "MODEL", description = "the model") String model;
        @Option(names = "--servers", required = true, paramLabel = "S1,S2",
                description = "the servers (comma-separated); 'none' unpins") List<String> servers;

        @Override
        public Integer call() throws Exception {
            List<String> s = serversOrNone(servers);
            return parent.publish(spec, (id, t) -> ControllerCommand.pin(id, t, model, s));
        }
    }

    @Command(name = "drain", mixinStandardHelpOptions = true, description = "Give a server no new stages.")
    static final class Drain implements Callable<Integer> {
        @Spec CommandSpec spec;
        @ParentCommand CommandCommand parent;
        @Option(names = "--server", required = true, paramLabel = "SERVER", description = "the server") String server;

        @Override
        public Integer call() throws Exception {
            return parent.publish(spec, (id, t) -> ControllerCommand.drain(id, t, server, true));
        }
    }

    @Command(name = "undrain", mixinStandardHelpOptions = true, description = "End a server's drain.")
    static final class Undrain implements Callable<Integer> {
        @Spec CommandSpec spec;
        @ParentCommand CommandCommand parent;
        @Option(names = "--server", required = true, paramLabel = "SERVER", description = "the server") String server;

        @Override
        public Integer call() throws Exception {
            return parent.publish(spec, (id, t) -> ControllerCommand.drain(id, t, server, false));
        }
    }

    @Command(name = "rollback", mixinStandardHelpOptions = true,
            description = "Publish the table of version K again, as a new version (one of the last 8 published).")
    static final class Rollback implements Callable<Integer> {
        @Spec CommandSpec spec;
        @ParentCommand CommandCommand parent;
        @Option(names = "--table-version", required = true, paramLabel = "K", description = "the table version")
        long version;

        @Override
        public Integer call() throws Exception {
            return parent.publish(spec, (id, t) -> ControllerCommand.rollback(id, t, version));
        }
    }

    @Command(name = "freeze", mixinStandardHelpOptions = true,
            description = "Stop re-optimisation: drift is recorded, not solved, until unfreeze.")
    static final class Freeze implements Callable<Integer> {
        @Spec CommandSpec spec;
        @ParentCommand CommandCommand parent;

        @Override
        public Integer call() throws Exception {
            return parent.publish(spec, (id, t) -> ControllerCommand.freeze(id, t, true));
        }
    }

    @Command(name = "unfreeze", mixinStandardHelpOptions = true, description = "Resume re-optimisation.")
    static final class Unfreeze implements Callable<Integer> {
        @Spec CommandSpec spec;
        @ParentCommand CommandCommand parent;

        @Override
        public Integer call() throws Exception {
            return parent.publish(spec, (id, t) -> ControllerCommand.freeze(id, t, false));
        }
    }

    @Command(name = "tenant", mixinStandardHelpOptions = true,
            description = "Give a tenant its own servers (no other tenant's stages go there) and a maximum share of "
                    + "the requests placed; over it, the tenant's stages go to its own servers only "
                    + "(--servers none: remove the rule).")
    static final class Tenant implements Callable<Integer> {
        @Spec CommandSpec spec;
        @ParentCommand CommandCommand parent;
        @Option(names = "--tenant", required = true, paramLabel = "TENANT", description = "the tenant") String tenant;
        @Option(names = "--servers", required = true, paramLabel = "S1,S2",
                description = "its own servers (comma-separated); 'none' removes the rule") List<String> servers;
        @Option(names = "--max-share", paramLabel = "F", defaultValue = "1.0",
                description = "its maximum share of the requests placed over the last 10 s, in (0, 1] (default: ${DEFAULT-VALUE})")
        double maxShare;

        @Override
        public Integer call() throws Exception {
            List<String> s = serversOrNone(servers);
            return parent.publish(spec, (id, t) -> ControllerCommand.tenantRule(id, t, tenant, s, maxShare));
        }
    }
}
