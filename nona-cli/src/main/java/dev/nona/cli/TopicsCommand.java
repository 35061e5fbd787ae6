package dev.nona.cli;

import dev.nona.check.Checks;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.nona.topics.Topics;
import dev.nona.topics.admin.KafkaClientConfig;
import dev.nona.topics.admin.ProvisionedTopic;
import dev.nona.topics.admin.TopicProvisioner;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code nona topics ...}: the controller's Kafka topics (docs/design.md, "Topics"). */
@Command(name = "topics", mixinStandardHelpOptions = true, description = "Manage the controller's Kafka topics.",
        subcommands = {TopicsCommand.Create.class})
final class TopicsCommand implements Runnable {

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    /**
     * {@code nona topics create}: creates every topic that is missing, leaves existing ones alone, and prints JSON
     * describing each topic as the broker reports it afterwards (with any mismatch from the spec).
     */
    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Create the controller's topics idempotently and print what was created or found as JSON.")
    static final class Create implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--bootstrap", paramLabel = "HOST:PORT",
                description = "Kafka bootstrap servers (overrides bootstrap.servers from --config)")
        String bootstrap;

        @Option(names = "--partitions", paramLabel = "N",
                description = "partitions of every topic created now (default: per topic, see docs/topics.md)")
        Integer partitions;

        @Option(names = "--replication", paramLabel = "R",
                description = "replication factor of every topic created now (default: the broker's default.replication.factor)")
        Short replication;

        @Option(names = "--config", paramLabel = "FILE",
                description = "Kafka client properties passed to the admin client as-is (security.protocol, sasl.*, ssl.*, ...)")
        Path config;

        @Option(names = "--timeout-seconds", paramLabel = "S", defaultValue = "30",
                description = "how long to wait for the cluster (default: ${DEFAULT-VALUE})")
        int timeoutSeconds;

        @Override
        public Integer call() throws Exception {
            Checks.atLeastOne(timeoutSeconds, "--timeout-seconds");
            if (partitions != null) {
                Checks.atLeastOne(partitions, "--partitions");
            }
            if (replication != null) {
                Checks.atLeastOne(replication, "--replication");
            }
            Properties props = KafkaClientConfig.load(config, bootstrap);
            Duration timeout = Duration.ofSeconds(timeoutSeconds);
            props.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(timeout.toMillis()));
            props.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(Math.min(timeout.toMillis(), 30_000)));
            List<ProvisionedTopic> topics;
            try (Admin admin = connect(props)) {
                topics = new TopicProvisioner(admin, timeout).ensure(Topics.all(), Optional.ofNullable(partitions),
                        Optional.ofNullable(replication));
            }
            spec.commandLine().getOut().println(json(props.getProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG), topics));
            return 0;
        }

        private static Admin connect(Properties props) {
            try {
                return Admin.create(props);
            } catch (KafkaException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                throw new IllegalArgumentException("cannot create a Kafka admin client: " + cause.getMessage(), e);
            }
        }

        static String json(String bootstrap, List<ProvisionedTopic> topics) throws Exception {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("bootstrap", bootstrap);
            out.put("topics", topics.stream().map(Create::topicJson).toList());
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(out);
        }

        private static Map<String, Object> topicJson(ProvisionedTopic t) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", t.name());
            m.put("status", t.status().name().toLowerCase(Locale.ROOT));
            m.put("partitions", t.partitions());
            m.put("replicationFactor", t.replicationFactor());
            m.put("configs", t.configs());
            m.put("mismatches", t.mismatches());
            return m;
        }
    }
}
