package dev.nona.topics;

import dev.nona.topics.record.TopicRecord;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One topic of the controller's contract (docs/design.md, "Topics"): its name, value type, key, default partition count,
 * cleanup policy and any further topic configs.
 *
 * @param name              the topic name
 * @param valueType         the record class of its values
 * @param key               what the Kafka key holds ("none" for unkeyed topics), for documentation
 * @param defaultPartitions partitions when the user does not say, {@code >= 1}
 * @param cleanupPolicy     delete or compact
 * @param extraConfigs      further topic configs (copied), e.g. {@code max.message.bytes}
 * @param <T>               the value type
 */
public record TopicSpec<T extends TopicRecord>(
        String name, Class<T> valueType, String key, int defaultPartitions, CleanupPolicy cleanupPolicy,
        Map<String, String> extraConfigs) {

    public TopicSpec {
        Objects.requireNonNull(name, "topic name");
        Objects.requireNonNull(valueType, "topic value type");
        Objects.requireNonNull(key, "topic key description");
        Objects.requireNonNull(cleanupPolicy, "topic cleanup policy");
        if (defaultPartitions < 1) {
            throw new IllegalArgumentException("topic '" + name + "': default partitions (" + defaultPartitions + ") must be >= 1");
        }
        extraConfigs = Map.copyOf(extraConfigs);
    }

    /** Every topic config this spec sets: {@code cleanup.policy} plus the extra ones, sorted by name. */
    public Map<String, String> configs() {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("cleanup.policy", cleanupPolicy.config());
        extraConfigs.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .forEach(e -> all.put(e.getKey(), e.getValue()));
        return all;
    }

    public boolean compacted() {
        return cleanupPolicy == CleanupPolicy.COMPACT;
    }
}
