package dev.nona.it;

import dev.nona.topics.TopicSpec;
import dev.nona.topics.Topics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * A private set of the controller's topics (those of docs/design.md, "Topics", but the outcomes), their names
 * prefixed so that tests sharing a broker do not see each other's records, and the {@code topics.*} settings that
 * point the controller at them.
 */
record ControllerTopics(String prefix) {

    String requests() {
        return named(Topics.INFERENCE_REQUESTS);
    }

    String telemetry() {
        return named(Topics.CLUSTER_TELEMETRY);
    }

    String catalog() {
        return named(Topics.MODEL_CATALOG);
    }

    String decisions() {
        return named(Topics.PLACEMENT_DECISIONS);
    }

    String tables() {
        return named(Topics.PLACEMENT_TABLES);
    }

    String events() {
        return named(Topics.CONTROLLER_EVENTS);
    }

    String deadLetters() {
        return named(Topics.DEAD_LETTERS);
    }

    String commands() {
        return named(Topics.CONTROLLER_COMMANDS);
    }

    /** The prefixed name of one of the controller's topics (the names themselves come from {@link Topics}). */
    private String named(TopicSpec<?> topic) {
        return prefix + "-" + topic.name();
    }

    /** Creates the topics: 4 partitions for requests and decisions, 1 for the rest (catalog and tables compacted). */
    ControllerTopics create(String bootstrap, int requestMaxBytes) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(
                    new NewTopic(requests(), 4, (short) 1).configs(Map.of("max.message.bytes", String.valueOf(requestMaxBytes))),
                    new NewTopic(telemetry(), 1, (short) 1),
                    new NewTopic(catalog(), 1, (short) 1).configs(Map.of("cleanup.policy", "compact")),
                    new NewTopic(decisions(), 4, (short) 1),
                    new NewTopic(commands(), 1, (short) 1).configs(Map.of("cleanup.policy", "compact")),
                    new NewTopic(tables(), 1, (short) 1).configs(Map.of("cleanup.policy", "compact",
                            "max.message.bytes", String.valueOf(32 << 20))),
                    new NewTopic(events(), 1, (short) 1),
                    new NewTopic(deadLetters(), 1, (short) 1).configs(Map.of("max.message.bytes", String.valueOf(4 << 20)))))
                    .all().get();
        } catch (ExecutionException | InterruptedException e) {
            throw new IllegalStateException("cannot create the topics of " + prefix, e);
        }
        return this;
    }

    /** Controller settings for these topics. */
    Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("controller.id", prefix);
        s.put("topics.requests", requests());
        s.put("topics.telemetry", telemetry());
        s.put("topics.catalog", catalog());
        s.put("topics.decisions", decisions());
        s.put("topics.tables", tables());
        s.put("topics.events", events());
        s.put("topics.dead-letters", deadLetters());
        s.put("topics.commands", commands());
        return s;
    }
}
