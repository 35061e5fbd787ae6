package dev.nona.topics.admin;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link TopicProvisioner} found or made for one topic, as the broker describes it afterwards.
 *
 * @param name              the topic
 * @param status            whether it was created now or already existed
 * @param partitions        its partition count
 * @param replicationFactor its replication factor (replicas of partition 0)
 * @param configs           the values of the configs our spec sets, as the broker reports them (null: not reported)
 * @param mismatches        differences between an existing topic and our spec (never altered: an operator decides);
 *                          empty when the topic matches
 */
public record ProvisionedTopic(String name, Status status, int partitions, int replicationFactor,
        Map<String, String> configs, List<String> mismatches) {

    public ProvisionedTopic {
        configs = Collections.unmodifiableMap(new LinkedHashMap<>(configs));
        mismatches = List.copyOf(mismatches);
    }

    /** Whether {@link TopicProvisioner} created the topic or found it. */
    public enum Status { CREATED, EXISTS }
}
