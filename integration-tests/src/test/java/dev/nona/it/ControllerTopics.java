package dev.nona.it;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * A private set of the controller's seven topics (names prefixed, so that tests sharing a broker do not see
 * each other's records), and the {@code topics.*} settings that point the controller at them.
 */
record ControllerTopics(String prefix) {

    String requests() {
        return prefix + "-inference-requests";
    }

    String telemetry() {
        return prefix + "-cluster-telemetry";
    }

    String catalog() {
        return prefix + "-model-catalog";
    }

    String decisions() {
        return prefix + "-placement-decisions";
    }

    String tables() {
        return prefix + "-placement-tables";
    }

    String events() {
        return prefix + "-controller-events";
    }

    String deadLetters() {
        return prefix + "-dead-letters";
    }

    /** Creates the topics: 4 partitions for requests and decisions, 1 for the rest (catalog and tables compacted). */
    ControllerTopics create(String bootstrap, int requestMaxBytes) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(
                    new NewTopic(requests(), 4, (short) 1).configs(Map.of("max.message.bytes", String.valueOf(requestMaxBytes))),
                    new NewTopic(telemetry(), 1, (short) 1),
                    new NewTopic(catalog(), 1, (short) 1).configs(Map.of("cleanup.policy", "compact")),
                    new NewTopic(decisions(), 4, (short) 1),
                    new NewTopic(tables(), 1, (short) 1).configs(Map.of("cleanup.policy", "compact",
                            "max.message.bytes", String.valueOf(8 << 20))),
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
        return s;
    }
}
