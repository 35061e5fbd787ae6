package dev.nona.topics.admin;

import dev.nona.topics.TopicSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Creates the controller's topics idempotently with Kafka's {@link Admin} client: missing topics are created with
 * their spec's partitions, replication and configs; existing topics are left alone and described, and any difference
 * from the spec (cleanup policy, configs, fewer partitions) is reported as a mismatch rather than silently changed.
 *
 * <p>Running it twice, or concurrently from two processes, gives the same topics: a {@link TopicExistsException}
 * from a lost race counts as "exists".
 */
public final class TopicProvisioner {
    private final Admin admin;
    private final Duration timeout;

    /**
     * @param admin   a connected admin client (not closed here)
     * @param timeout how long to wait for each admin call, and for new topics to become visible
     */
    public TopicProvisioner(Admin admin, Duration timeout) {
        this.admin = Objects.requireNonNull(admin, "admin client");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /**
     * Ensures every topic exists.
     *
     * @param specs       the topics
     * @param partitions  partitions for every topic created now; empty: each spec's default
     * @param replication replication factor for every topic created now; empty: the broker's {@code default.replication.factor}
     * @return one entry per spec, in the given order
     * @throws TopicProvisioningException when the cluster refuses a topic or does not answer in time
     */
    public List<ProvisionedTopic> ensure(List<TopicSpec<?>> specs, Optional<Integer> partitions,
            Optional<Short> replication) {
        partitions.ifPresent(p -> {
            if (p < 1) {
                throw new IllegalArgumentException("partitions (" + p + ") must be >= 1");
            }
        });
        replication.ifPresent(r -> {
            if (r < 1) {
                throw new IllegalArgumentException("replication (" + r + ") must be >= 1");
            }
        });
        Map<String, ProvisionedTopic.Status> statuses = create(specs, partitions, replication);
        Map<String, TopicDescription> descriptions = describe(statuses.keySet());
        Map<String, Config> configs = describeConfigs(statuses.keySet());
        List<ProvisionedTopic> result = new ArrayList<>();
        for (TopicSpec<?> spec : specs) {
            result.add(report(spec, statuses.get(spec.name()), descriptions.get(spec.name()), configs.get(spec.name()),
                    partitions.orElse(spec.defaultPartitions()), replication));
        }
        return result;
    }

    private Map<String, ProvisionedTopic.Status> create(List<TopicSpec<?>> specs, Optional<Integer> partitions,
            Optional<Short> replication) {
        List<NewTopic> newTopics = new ArrayList<>();
        for (TopicSpec<?> spec : specs) {
            newTopics.add(new NewTopic(spec.name(), Optional.of(partitions.orElse(spec.defaultPartitions())), replication)
                    .configs(spec.configs()));
        }
        Map<String, KafkaFuture<Void>> futures = admin.createTopics(newTopics).values();
        Map<String, ProvisionedTopic.Status> statuses = new LinkedHashMap<>();
        for (TopicSpec<?> spec : specs) {
            try {
                await(futures.get(spec.name()), "create topic '" + spec.name() + "'");
                statuses.put(spec.name(), ProvisionedTopic.Status.CREATED);
            } catch (TopicProvisioningException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
                statuses.put(spec.name(), ProvisionedTopic.Status.EXISTS);
            }
        }
        return statuses;
    }

    /** Describes the topics, retrying while a just-created topic is not yet in the broker's metadata. */
    private Map<String, TopicDescription> describe(Collection<String> names) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                return await(admin.describeTopics(names).allTopicNames(), "describe topics " + names);
            } catch (TopicProvisioningException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw e;
                }
                sleep(100);
            }
        }
    }

    private Map<String, Config> describeConfigs(Collection<String> names) {
        List<ConfigResource> resources = names.stream()
                .map(name -> new ConfigResource(ConfigResource.Type.TOPIC, name))
                .toList();
        Map<ConfigResource, Config> byResource = await(admin.describeConfigs(resources).all(), "describe topic configs");
        Map<String, Config> byName = new HashMap<>();
        byResource.forEach((resource, config) -> byName.put(resource.name(), config));
        return byName;
    }

    private static ProvisionedTopic report(TopicSpec<?> spec, ProvisionedTopic.Status status,
            TopicDescription description, Config config, int wantedPartitions, Optional<Short> wantedReplication) {
        int partitions = description.partitions().size();
        int replicationFactor = description.partitions().isEmpty() ? 0 : description.partitions().get(0).replicas().size();
        Map<String, String> actual = new LinkedHashMap<>();
        List<String> mismatches = new ArrayList<>();
        for (Map.Entry<String, String> wanted : spec.configs().entrySet()) {
            ConfigEntry entry = config == null ? null : config.get(wanted.getKey());
            String value = entry == null ? null : entry.value();
            actual.put(wanted.getKey(), value);
            if (!wanted.getValue().equals(value)) {
                mismatches.add(wanted.getKey() + " is '" + value + "', expected '" + wanted.getValue() + "'");
            }
        }
        if (partitions < wantedPartitions) {
            mismatches.add("partitions is " + partitions + ", expected at least " + wantedPartitions);
        }
        if (wantedReplication.isPresent() && replicationFactor != wantedReplication.get()) {
            mismatches.add("replication factor is " + replicationFactor + ", expected " + wantedReplication.get());
        }
        return new ProvisionedTopic(spec.name(), status, partitions, replicationFactor, actual, mismatches);
    }

    private <T> T await(KafkaFuture<T> future, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new TopicProvisioningException(what + " failed: " + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new TopicProvisioningException(what + ": no answer from the cluster within " + timeout.toMillis()
                    + " ms (check bootstrap.servers, and the security settings the cluster expects)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopicProvisioningException(what + ": interrupted", e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopicProvisioningException("interrupted while waiting for new topics", e);
        }
    }
}
