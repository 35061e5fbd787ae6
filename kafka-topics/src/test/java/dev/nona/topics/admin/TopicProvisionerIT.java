package dev.nona.topics.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.topics.TopicSpec;
import dev.nona.topics.Topics;
import dev.nona.topics.testing.InProcessKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Topic provisioning against a real in-process KRaft broker. */
final class TopicProvisionerIT {

    @RegisterExtension
    static final InProcessKafka KAFKA = new InProcessKafka();

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Test
    void ensure_twice_createsThenFindsEveryTopicWithDesignConfigs() throws Exception {
        try (Admin admin = KAFKA.admin()) {
            TopicProvisioner provisioner = new TopicProvisioner(admin, TIMEOUT);

            List<ProvisionedTopic> first = provisioner.ensure(Topics.all(), Optional.empty(), Optional.empty());
            List<ProvisionedTopic> second = provisioner.ensure(Topics.all(), Optional.empty(), Optional.empty());

            assertThat(first).extracting(ProvisionedTopic::name).containsExactly("inference-requests",
                    "cluster-telemetry", "model-catalog", "placement-decisions", "placement-outcomes", "placement-tables",
                    "controller-events", "dead-letters", "controller-commands");
            assertThat(first).allSatisfy(t -> assertThat(t.status()).isEqualTo(ProvisionedTopic.Status.CREATED));
            assertThat(second).allSatisfy(t -> {
                assertThat(t.status()).isEqualTo(ProvisionedTopic.Status.EXISTS);
                assertThat(t.mismatches()).isEmpty();
                assertThat(t.replicationFactor()).isEqualTo(1);
            });
            assertThat(second).extracting(ProvisionedTopic::partitions).containsExactly(6, 3, 1, 6, 6, 1, 1, 1, 1);
            assertThat(admin.listTopics().names().get()).containsAll(
                    Topics.all().stream().map(TopicSpec::name).toList());

            Map<String, String> cleanup = cleanupPolicies(admin);
            assertThat(cleanup).containsEntry("model-catalog", "compact")
                    .containsEntry("placement-tables", "compact")
                    .containsEntry("inference-requests", "delete")
                    .containsEntry("cluster-telemetry", "delete")
                    .containsEntry("placement-decisions", "delete")
                    .containsEntry("placement-outcomes", "delete")
                    .containsEntry("controller-events", "delete")
                    .containsEntry("dead-letters", "delete")
                    .containsEntry("controller-commands", "compact");
            assertThat(config(admin, "placement-tables").get("max.message.bytes").value()).isEqualTo(String.valueOf(Topics.TABLE_MAX_BYTES));
        }
    }

    @Test
    void ensure_existingTopicWithWrongPolicy_isReportedNotChanged() throws Exception {
        TopicSpec<?> catalogElsewhere = new TopicSpec<>("catalog-mismatch", Topics.MODEL_CATALOG.valueType(), "model",
                1, Topics.MODEL_CATALOG.cleanupPolicy(), Map.of());
        try (Admin admin = KAFKA.admin()) {
            admin.createTopics(List.of(new NewTopic("catalog-mismatch", 1, (short) 1))).all().get();

            List<ProvisionedTopic> result = new TopicProvisioner(admin, TIMEOUT)
                    .ensure(List.of(catalogElsewhere), Optional.of(2), Optional.empty());

            assertThat(result).singleElement().satisfies(t -> {
                assertThat(t.status()).isEqualTo(ProvisionedTopic.Status.EXISTS);
                assertThat(t.mismatches()).containsExactly("cleanup.policy is 'delete', expected 'compact'",
                        "partitions is 1, expected at least 2");
            });
            assertThat(config(admin, "catalog-mismatch").get("cleanup.policy").value()).isEqualTo("delete");
        }
    }

    @Test
    void ensure_overridesPartitionsForNewTopics() throws Exception {
        TopicSpec<?> spec = new TopicSpec<>("override-partitions", Topics.INFERENCE_REQUESTS.valueType(), "request id",
                6, Topics.INFERENCE_REQUESTS.cleanupPolicy(), Map.of());
        try (Admin admin = KAFKA.admin()) {
            List<ProvisionedTopic> result = new TopicProvisioner(admin, TIMEOUT)
                    .ensure(List.of(spec), Optional.of(2), Optional.of((short) 1));

            assertThat(result).singleElement().satisfies(t -> {
                assertThat(t.status()).isEqualTo(ProvisionedTopic.Status.CREATED);
                assertThat(t.partitions()).isEqualTo(2);
                assertThat(t.mismatches()).isEmpty();
            });
        }
    }

    @Test
    void ensure_existingTopicAskedForMoreReplicas_isReportedNotFailed() throws Exception {
        TopicSpec<?> spec = new TopicSpec<>("replicas-mismatch", Topics.CONTROLLER_EVENTS.valueType(), "none", 1,
                Topics.CONTROLLER_EVENTS.cleanupPolicy(), Map.of());
        try (Admin admin = KAFKA.admin()) {
            TopicProvisioner provisioner = new TopicProvisioner(admin, TIMEOUT);
            provisioner.ensure(List.of(spec), Optional.empty(), Optional.empty());

            List<ProvisionedTopic> again = provisioner.ensure(List.of(spec), Optional.empty(), Optional.of((short) 3));

            assertThat(again).singleElement().satisfies(t -> {
                assertThat(t.status()).isEqualTo(ProvisionedTopic.Status.EXISTS);
                assertThat(t.mismatches()).containsExactly("replication factor is 1, expected 3");
            });
        }
    }

    @Test
    void ensure_replicationAboveBrokerCount_failsNamingTopicAndReason() throws Exception {
        TopicSpec<?> spec = new TopicSpec<>("too-replicated", Topics.CONTROLLER_EVENTS.valueType(), "none", 1,
                Topics.CONTROLLER_EVENTS.cleanupPolicy(), Map.of());
        try (Admin admin = KAFKA.admin()) {
            TopicProvisioner provisioner = new TopicProvisioner(admin, TIMEOUT);

            assertThatThrownBy(() -> provisioner.ensure(List.of(spec), Optional.empty(), Optional.of((short) 3)))
                    .isInstanceOf(TopicProvisioningException.class)
                    .hasMessageContaining("create topic 'too-replicated' failed")
                    .hasMessageContaining("replication factor");
        }
    }

    private static Map<String, String> cleanupPolicies(Admin admin) throws Exception {
        Map<String, String> policies = new TreeMap<>();
        for (TopicSpec<?> spec : Topics.all()) {
            policies.put(spec.name(), config(admin, spec.name()).get("cleanup.policy").value());
        }
        return policies;
    }

    private static Config config(Admin admin, String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        return admin.describeConfigs(Set.of(resource)).all().get().get(resource);
    }
}
