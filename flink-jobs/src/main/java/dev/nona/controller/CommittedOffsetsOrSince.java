package dev.nona.controller;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;

/**
 * Where the decision read-back starts on a fresh start: the group's committed offset where it has one, else the
 * first record written at or after {@code sinceMillis} (else the partition's end). The job fixes
 * {@code sinceMillis} when it is built, before it can write a decision.
 *
 * <p>Why not {@link OffsetsInitializer#committedOffsets(OffsetResetStrategy) committedOffsets(LATEST)}: "latest"
 * is the end of the topic when the source's enumerator first lists the partitions, asynchronously after the job
 * starts. The placement operator can write decisions before that (a backlog of requests is placed at once), and
 * decisions written before it were never read back: their outcomes could not be joined. A start time fixed before
 * the job runs has no such race. (On a restore the checkpointed offsets win over both.)
 */
final class CommittedOffsetsOrSince implements OffsetsInitializer {
    private static final long serialVersionUID = 1L;

    private final long sinceMillis;

    /** @param sinceMillis epoch ms; records with a timestamp at or after it are read on a fresh start */
    CommittedOffsetsOrSince(long sinceMillis) {
        this.sinceMillis = sinceMillis;
    }

    @Override
    public Map<TopicPartition, Long> getPartitionOffsets(Collection<TopicPartition> partitions,
            PartitionOffsetsRetriever retriever) {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        Map<TopicPartition, Long> committed = retriever.committedOffsets(partitions);
        Map<TopicPartition, Long> since = new HashMap<>();
        for (TopicPartition p : partitions) {
            Long c = committed.get(p);
            if (c != null && c >= 0) {
                offsets.put(p, c);
            } else {
                since.put(p, sinceMillis);
            }
        }
        if (since.isEmpty()) {
            return offsets;
        }
        Map<TopicPartition, OffsetAndTimestamp> found = retriever.offsetsForTimes(since);
        Map<TopicPartition, Long> ends = null;
        for (TopicPartition p : since.keySet()) {
            OffsetAndTimestamp at = found.get(p);
            if (at != null) {
                offsets.put(p, at.offset());
            } else { // nothing written since: start at the end, where the first decision will be
                if (ends == null) {
                    ends = retriever.endOffsets(since.keySet());
                }
                offsets.put(p, ends.get(p));
            }
        }
        return offsets;
    }

    @Override
    public OffsetResetStrategy getAutoOffsetResetStrategy() {
        return OffsetResetStrategy.LATEST;
    }
}
